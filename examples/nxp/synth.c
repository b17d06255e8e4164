/* SPDX-License-Identifier: MIT */
/* Generator machinery of `nxp synth`: the program builder, the NEFF it
 * becomes, and the timeline model that executes it into an NTFF.  The
 * workloads themselves are in synth_workloads.c. */
#include "synth.h"

#include <errno.h>
#include <jansson.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- PRNG ------------------------------------------------------------------ */
void synth_rng_seed(synth_rng *r, uint64_t seed)
{
	r->s = seed ^ 0x6a09e667f3bcc909ull;
}

uint64_t synth_rng_next(synth_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint64_t synth_rng_below(synth_rng *r, uint64_t n)
{
	return synth_rng_next(r) % n;
}

double synth_rng_unit(synth_rng *r)
{
	return (double)(synth_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* ---- parameters and architectures -------------------------------------------- */
void synth_params_init(synth_params *p)
{
	memset(p, 0, sizeof(*p));
	p->workload = "matmul";
	p->arch = "trn2";
	p->lnc = 1;
	p->executions = 3;
}

/* What is not in the library's hardware table.  Instance types are the usual
 * ones for each generation; "trn3.48xlarge" is an assumption (not public). */
static const struct {
	const char *arch, *instance_type;
	int dma_engines;
	uint64_t sbuf_bytes;
} arch_extra[] = {
	{"trn1", "trn1.32xlarge", 16, 24ull << 20},
	{"inf2", "inf2.48xlarge", 16, 24ull << 20},
	{"trn2", "trn2.48xlarge", 16, 24ull << 20},
	{"trn3", "trn3.48xlarge", 16, 32ull << 20},
};

static int arch_get(const char *name, synth_arch *a, nxp_status *st)
{
	nxp_hardware hw;
	hw.struct_size = sizeof(hw);
	int rc = nxp_hardware_for_arch(name, &hw);
	if (rc < 0) {
		st->code = rc;
		snprintf(st->message, sizeof(st->message), "unknown arch '%s' (trn1, inf2, trn2, trn3)", name);
		return rc;
	}
	memset(a, 0, sizeof(*a));
	for (size_t i = 0; i < sizeof(arch_extra) / sizeof(arch_extra[0]); i++)
		if (!strcmp(arch_extra[i].arch, hw.arch)) {
			a->name = arch_extra[i].arch;
			a->instance_type = arch_extra[i].instance_type;
			a->dma_engines = arch_extra[i].dma_engines;
			a->sbuf_bytes = arch_extra[i].sbuf_bytes;
		}
	if (!a->name) {
		st->code = NXP_E_NOT_FOUND;
		snprintf(st->message, sizeof(st->message), "synth has no table for arch '%s'", hw.arch);
		return NXP_E_NOT_FOUND;
	}
	a->te_ghz = hw.tensor_engine_clock_freq;
	a->dve_ghz = hw.vector_engine_clock_freq;
	a->act_ghz = hw.scalar_engine_clock_freq;
	a->pool_ghz = hw.gpsimd_engine_clock_freq;
	a->nc_ghz = hw.neuroncore_clock_freq;
	a->hbm_bw = hw.hbm_bandwidth;
	a->dma_ddr_bw = hw.dma_ddr_bandwidth;
	a->channels = 128;
	return 0;
}

static double engine_ghz(const synth_arch *a, int engine)
{
	switch (engine) {
	case NXP_ENGINE_TENSOR: return a->te_ghz;
	case NXP_ENGINE_VECTOR: return a->dve_ghz;
	case NXP_ENGINE_SCALAR: return a->act_ghz;
	case NXP_ENGINE_GPSIMD: return a->pool_ghz;
	default: return a->nc_ghz; /* Sync runs at the NeuronCore base clock (synth's model) */
	}
}

uint64_t synth_ticks(double cycles, double ghz)
{
	double t = ceil(cycles / ghz);
	return t < 1.0 ? 1 : (uint64_t)t;
}

/* ---- program builder ----------------------------------------------------------- */
static int kfail(synth_kernel *k, int code, const char *msg)
{
	k->st->code = code;
	k->st->offset = -1;
	snprintf(k->st->message, sizeof(k->st->message), "%s", msg);
	return code;
}

void synth_instr_init(synth_instr *in, int engine, const char *opcode)
{
	memset(in, 0, sizeof(*in));
	in->engine = engine;
	in->opcode = opcode;
	in->sem_idx = -1;
}

void synth_instr_dep(synth_instr *in, int32_t op)
{
	if (op >= 0 && in->ndeps < SYNTH_MAX_DEPS)
		in->deps[in->ndeps++] = op;
}

nxp_access_pattern synth_ap(uint64_t addr, int dtype, uint32_t cols, uint32_t rows)
{
	nxp_access_pattern ap;
	memset(&ap, 0, sizeof(ap));
	ap.address = addr;
	ap.dtype = (uint8_t)dtype;
	ap.step_elem[0] = 1;
	ap.num_elem[0] = (uint16_t)cols;
	ap.num_elem[1] = 1;
	ap.num_elem[2] = 1;
	(void)rows; /* rows are the instruction's partitions */
	return ap;
}

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return 0;
	size_t n = *cap ? *cap : 64;
	while (n < need)
		n *= 2;
	void *q = realloc(*p, n * elem);
	if (!q)
		return -1;
	*p = q;
	*cap = n;
	return 0;
}

int32_t synth_add(synth_kernel *k, int c, const synth_instr *in)
{
	synth_core *core = &k->core[c];
	int opnum = nxp_opcode_from_name(in->opcode);
	if (opnum < 0)
		return kfail(k, NXP_E_INVAL, "synth: unknown opcode name");
	if (grow((void **)&core->ops, &core->ops_cap, core->nops + 1, sizeof(synth_op)) ||
	    grow((void **)&core->code[in->engine], &core->code_cap[in->engine], core->ninstr[in->engine] + 1,
		 NXP_NEFF_INSTRUCTION_SIZE))
		return kfail(k, NXP_E_NOMEM, "synth: out of memory");

	synth_op *op = &core->ops[core->nops];
	memset(op, 0, sizeof(*op));
	op->engine = (uint8_t)in->engine;
	op->barrier = (uint8_t)in->barrier;
	op->throttled = (uint8_t)in->throttled;
	op->pc = (uint32_t)core->ninstr[in->engine];
	op->cost = synth_ticks(in->cycles, engine_ghz(&k->arch, in->engine));
	op->queue_set = -1;
	op->queue_instance = -1;
	op->var = -1;
	op->sem_idx = -1;
	for (int i = 0; i < in->ndeps; i++)
		if (in->deps[i] >= 0 && (size_t)in->deps[i] < core->nops)
			op->deps[op->ndeps++] = in->deps[i];
	if (in->sem_idx >= 0 && in->sem_idx < SYNTH_NUM_SEMAPHORES) {
		op->sem_idx = (int8_t)in->sem_idx;
		op->sem_value = ++core->sem_count[in->sem_idx];
	}

	nxp_neff_instruction ni;
	memset(&ni, 0, sizeof(ni));
	ni.struct_size = sizeof(ni);
	ni.opcode_num = (uint32_t)opnum;
	ni.src = in->src;
	ni.dst = in->dst;
	ni.flags = in->flags;
	ni.func = in->func;
	ni.partitions = in->partitions;
	ni.active_cols = in->active_cols;
	ni.immediate = in->immediate;
	/* The encoding has room for one wait: the first dependency that signals a
	 * semaphore (the others are ordered by the same semaphores in the model). */
	for (int i = 0; i < op->ndeps; i++) {
		const synth_op *d = &core->ops[op->deps[i]];
		if (d->sem_idx >= 0) {
			ni.wait_mode = 1; /* >= */
			ni.wait_idx = (uint8_t)d->sem_idx;
			ni.semaphore_value = d->sem_value;
			break;
		}
	}
	if (op->sem_idx >= 0) {
		ni.update_mode = 1; /* ++ on completion */
		ni.update_idx = (uint8_t)op->sem_idx;
	}
	uint8_t *dst = core->code[in->engine] + core->ninstr[in->engine] * NXP_NEFF_INSTRUCTION_SIZE;
	int rc = nxp_instruction_encode(&ni, dst);
	if (rc < 0)
		return kfail(k, rc, "synth: instruction does not encode (address out of the model's range?)");
	core->ninstr[in->engine]++;
	return (int32_t)core->nops++;
}

static const char *mem_name(int m)
{
	return m == NXP_MEMORY_HBM ? "hbm" : m == NXP_MEMORY_PSUM ? "psum" : "sbuf";
}

static int memory_of_addr(uint64_t a)
{
	if (a >= SYNTH_HBM_BASE)
		return NXP_MEMORY_HBM;
	if (a >= SYNTH_PSUM_BASE)
		return NXP_MEMORY_PSUM;
	return NXP_MEMORY_SBUF;
}

/* DMA packets: a transfer is split into packets of at most this many bytes. */
#define SYNTH_PACKET_BYTES 8192u
/* Fixed cost of a DMA trigger instruction on its owner engine (cycles). */
#define SYNTH_TRIGGER_CYCLES 64.0

int32_t synth_add_dma(synth_kernel *k, int c, int qs, int var, nxp_access_pattern src, nxp_access_pattern dst,
		      uint32_t bytes, const int32_t *deps, int ndeps)
{
	synth_core *core = &k->core[c];
	synth_queue_set *q = &core->qsets[qs];
	synth_instr in;
	synth_instr_init(&in, q->owner, "DMAMEMCPY");
	in.src = src;
	in.dst = dst;
	in.partitions = 128;
	in.cycles = SYNTH_TRIGGER_CYCLES;
	in.sem_idx = q->semaphore;
	for (int i = 0; i < ndeps; i++)
		synth_instr_dep(&in, deps[i]);
	int32_t id = synth_add(k, c, &in);
	if (id < 0)
		return id;
	synth_op *op = &core->ops[id];
	op->queue_set = (int16_t)qs;
	op->queue_instance = (int16_t)q->next_instance;
	q->next_instance = (q->next_instance + 1) % q->num_queues;
	op->src_mem = (uint8_t)memory_of_addr(src.address);
	op->dst_mem = (uint8_t)memory_of_addr(dst.address);
	op->var = (int16_t)var;
	op->dma_bytes = bytes;
	op->packet_bytes = SYNTH_PACKET_BYTES;
	/* Bandwidth model: the HBM stack's bandwidth is shared evenly by the
	 * queue instances of this core (all of them stream at once in a
	 * pipelined kernel). */
	int ninst = 0;
	for (int i = 0; i < core->nqsets; i++)
		ninst += core->qsets[i].num_queues;
	double share = k->arch.hbm_bw / (ninst ? ninst : 1);
	op->packet_ticks = synth_ticks((double)SYNTH_PACKET_BYTES / share * 1e9, 1.0);

	/* The engine JSON's DMA descriptor for this transfer (static program). */
	json_t *arr = core->dma_json[q->owner];
	if (!arr) {
		arr = json_array();
		core->dma_json[q->owner] = arr;
	}
	const char *vname = var >= 0 ? core->vars[var].name : "unknown";
	const char *dtn = nxp_dtype_name(src.dtype) ? nxp_dtype_name(src.dtype) : "bf16";
	json_t *desc = json_pack("{s:s, s:s, s:s, s:I, s:I, s:[I,I], s:[I,I], s:[I,I], s:[I,I], s:s, s:s}", "op",
				 "copy", "from", op->src_mem == NXP_MEMORY_HBM ? vname : mem_name(op->src_mem), "to",
				 op->dst_mem == NXP_MEMORY_HBM ? vname : mem_name(op->dst_mem), "from_off",
				 (json_int_t)src.address, "to_off", (json_int_t)dst.address, "from_sizes",
				 (json_int_t)src.num_elem[0], (json_int_t)128, "from_steps", (json_int_t)1,
				 (json_int_t)src.num_elem[0], "to_sizes", (json_int_t)dst.num_elem[0], (json_int_t)128,
				 "to_steps", (json_int_t)1, (json_int_t)dst.num_elem[0], "from_dtype", dtn, "to_dtype", dtn);
	json_t *ent = json_pack("{s:I, s:s, s:I, s:I, s:I, s:[o]}", "id", (json_int_t)json_array_size(arr), "queue",
				q->name, "queue_instance", (json_int_t)op->queue_instance, "event", (json_int_t)id,
				"semaphore", (json_int_t)q->semaphore, "desc", desc);
	if (!ent || json_array_append_new(arr, ent))
		return kfail(k, NXP_E_NOMEM, "synth: out of memory");
	return id;
}

int synth_var_add(synth_kernel *k, int c, const char *name, const char *type, uint64_t rows, uint64_t cols,
		  uint64_t elem_size)
{
	synth_core *core = &k->core[c];
	if (core->nvars >= SYNTH_MAX_VARS)
		return -1;
	synth_var *v = &core->vars[core->nvars];
	memset(v, 0, sizeof(*v));
	snprintf(v->name, sizeof(v->name), "%s", name);
	v->type = type;
	v->rows = rows;
	v->cols = cols;
	v->size = rows * cols * elem_size;
	uint64_t base = SYNTH_HBM_BASE;
	for (int i = 0; i < core->nvars; i++) {
		uint64_t end = core->vars[i].hbm_addr + ((core->vars[i].size + 4095) & ~4095ull);
		if (end > base)
			base = end;
	}
	v->hbm_addr = base;
	return core->nvars++;
}

int synth_qset_add(synth_kernel *k, int c, const char *name, const char *type, int owner, int num_queues,
		   int semaphore)
{
	synth_core *core = &k->core[c];
	(void)k;
	if (core->nqsets >= SYNTH_MAX_QUEUE_SETS || num_queues < 1 || num_queues > 16)
		return -1;
	synth_queue_set *q = &core->qsets[core->nqsets];
	memset(q, 0, sizeof(*q));
	snprintf(q->name, sizeof(q->name), "%s", name);
	q->type = type;
	q->owner = owner;
	q->num_queues = num_queues;
	q->semaphore = semaphore;
	return core->nqsets++;
}

static void kernel_free(synth_kernel *k)
{
	for (int c = 0; c < SYNTH_MAX_CORES; c++) {
		free(k->core[c].ops);
		for (int e = 0; e < NXP_ENGINE_COUNT; e++) {
			free(k->core[c].code[e]);
			json_decref((json_t *)k->core[c].dma_json[e]);
		}
	}
}

/* ---- the NEFF ------------------------------------------------------------------- */
static const char *const engine_file[NXP_ENGINE_COUNT] = {"PE0", "DVE0", "Activation0", "Pool0", "SP0"};

static int add_json(synth_kernel *k, nxp_neff_writer *w, const char *path, json_t *j)
{
	if (!j)
		return kfail(k, NXP_E_NOMEM, "synth: out of memory building JSON");
	char *s = json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	json_decref(j);
	if (!s)
		return kfail(k, NXP_E_NOMEM, "synth: out of memory building JSON");
	int rc = nxp_neff_writer_add(w, path, s, strlen(s));
	free(s);
	return rc < 0 ? kfail(k, rc, "synth: cannot add a NEFF member") : 0;
}

/* A small .npy-like weights file: the numpy header for the full shape, then a
 * deterministic 4 KiB prefix of the data.  The var's "size" is the full
 * tensor's (the payload is truncated to keep the NEFF small). */
static int add_weights(synth_kernel *k, nxp_neff_writer *w, const char *path, const synth_var *v, uint64_t seed)
{
	char hdr[128];
	int n = snprintf(hdr, sizeof(hdr), "{'descr': '<u2', 'fortran_order': False, 'shape': (%llu, %llu), }",
			 (unsigned long long)v->rows, (unsigned long long)v->cols);
	size_t pre = 10, hlen = (size_t)n;
	size_t total_h = (pre + hlen + 1 + 63) & ~(size_t)63;
	size_t data = 4096;
	uint8_t *buf = calloc(1, total_h + data);
	if (!buf)
		return kfail(k, NXP_E_NOMEM, "synth: out of memory");
	memcpy(buf, "\x93NUMPY\x01\x00", 8);
	buf[8] = (uint8_t)((total_h - pre) & 0xff);
	buf[9] = (uint8_t)((total_h - pre) >> 8);
	memcpy(buf + pre, hdr, hlen);
	memset(buf + pre + hlen, ' ', total_h - pre - hlen - 1);
	buf[total_h - 1] = '\n';
	synth_rng r;
	synth_rng_seed(&r, seed ^ 0x77656967ull);
	for (size_t i = 0; i < data; i += 2) {
		/* bf16 values in [-0.5, 0.5): sign, exponent 0x3e/0x3f, random mantissa */
		uint16_t x = (uint16_t)(0x3e00 | (synth_rng_next(&r) & 0x00ff) | ((synth_rng_next(&r) & 1) << 15));
		buf[total_h + i] = (uint8_t)x;
		buf[total_h + i + 1] = (uint8_t)(x >> 8);
	}
	int rc = nxp_neff_writer_add(w, path, buf, total_h + data);
	free(buf);
	return rc < 0 ? kfail(k, rc, "synth: cannot add a NEFF member") : 0;
}

static json_t *def_json(synth_kernel *k, int c)
{
	synth_core *core = &k->core[c];
	char sg[16];
	snprintf(sg, sizeof(sg), "sg%02d", c);
	json_t *vars = json_object();
	for (int i = 0; i < core->nvars; i++) {
		const synth_var *v = &core->vars[i];
		json_t *o = json_pack("{s:s, s:I, s:I, s:I, s:I, s:[I,I]}", "type", v->type, "var_id", (json_int_t)i,
				      "size", (json_int_t)v->size, "alignment", (json_int_t)64, "element_size",
				      (json_int_t)(v->rows && v->cols ? v->size / (v->rows * v->cols) : 1), "shape",
				      (json_int_t)v->rows, (json_int_t)v->cols);
		if (strcmp(v->type, "state-buffer"))
			json_object_set_new(o, "dtype", json_string("bf16"));
		if (!strcmp(v->type, "file")) {
			char fn[48];
			snprintf(fn, sizeof(fn), "%s.npy", v->name);
			json_object_set_new(o, "file_name", json_string(fn));
			json_object_set_new(o, "#transfer-type", json_string("weight"));
		}
		json_object_set_new(vars, v->name, o);
	}
	json_t *queues = json_object();
	for (int i = 0; i < core->nqsets; i++) {
		const synth_queue_set *q = &core->qsets[i];
		json_object_set_new(queues, q->name,
				    json_pack("{s:s, s:I, s:s, s:I}", "type", q->type, "num_queues", (json_int_t)q->num_queues,
					      "owner", nxp_engine_short_name(q->owner), "semaphore",
					      (json_int_t)q->semaphore));
	}
	json_t *d = json_pack("{s:s, s:s, s:o, s:o}", "name", sg, "version", "synthetic-1", "var", vars, "dma_queue", queues);
	for (int e = 0; e < NXP_ENGINE_COUNT; e++) {
		char key[16], f[32];
		const char *sn = nxp_engine_short_name(e);
		snprintf(f, sizeof(f), "%s.json", engine_file[e]);
		json_object_set_new(d, sn, json_string(f));
		snprintf(key, sizeof(key), "%s_instr", sn);
		snprintf(f, sizeof(f), "%s.bin", engine_file[e]);
		json_object_set_new(d, key, json_string(f));
	}
	return d;
}

/* neff.json: a small NNVM-style graph (inputs and weights -> op -> output). */
static json_t *graph_json(synth_kernel *k)
{
	const synth_core *core = &k->core[0];
	json_t *nodes = json_array(), *args = json_array(), *shapes = json_array(), *sids = json_array(),
	       *dl = json_array(), *rowptr = json_array(), *inputs = json_array();
	int n = 0, out = -1;
	for (int i = 0; i < core->nvars; i++) {
		const synth_var *v = &core->vars[i];
		if (!strcmp(v->type, "output")) {
			out = i;
			continue;
		}
		if (strcmp(v->type, "input") && strcmp(v->type, "file"))
			continue;
		json_array_append_new(nodes, json_pack("{s:s, s:s, s:[]}", "op", "null", "name", v->name, "inputs"));
		json_array_append_new(args, json_integer(n));
		json_array_append_new(inputs, json_pack("[i,i,i]", n, 0, 0));
		json_array_append_new(shapes, json_pack("[I,I]", (json_int_t)v->rows, (json_int_t)v->cols));
		json_array_append_new(sids, json_integer(n));
		json_array_append_new(dl, json_string("bfloat16"));
		json_array_append_new(rowptr, json_integer(n));
		n++;
	}
	const synth_var *ov = out >= 0 ? &core->vars[out] : NULL;
	json_array_append_new(nodes, json_pack("{s:s, s:s, s:o, s:{s:s, s:s}}", "op", "tvm_op", "name", k->graph_op,
					       "inputs", inputs, "attrs", "func_name", k->graph_op, "num_outputs", "1"));
	json_array_append_new(shapes, json_pack("[I,I]", (json_int_t)(ov ? ov->rows * (uint64_t)k->ncores : 0),
						(json_int_t)(ov ? ov->cols : 0)));
	json_array_append_new(sids, json_integer(n));
	json_array_append_new(dl, json_string("bfloat16"));
	json_array_append_new(rowptr, json_integer(n));
	json_array_append_new(rowptr, json_integer(n + 1));
	return json_pack("{s:o, s:o, s:[[i,i,i]], s:o, s:{s:[s,o], s:[s,o], s:[s,o]}}", "nodes", nodes, "arg_nodes",
			 args, "heads", n, 0, 0, "node_row_ptr", rowptr, "attrs", "shape", "list_shape", shapes,
			 "storage_id", "list_int", sids, "dltype", "list_str", dl);
}

static int write_neff(synth_kernel *k, const uint8_t uuid[16], const char *path, uint8_t hash_out[32])
{
	nxp_neff_writer_options o;
	nxp_neff_writer_options_init(&o);
	o.name = k->name;
	memcpy(o.uuid, uuid, 16);
	o.num_tpb = (uint32_t)k->ncores;
	o.lnc_size = (uint32_t)k->ncores;
	/* The generator's own version, not the library's: samples/ and the golden
	 * outputs are its bytes; bump it when what it writes changes. */
	o.build_version = "2.0.0.0-synthetic (nxp synth 0.1.0)";
	nxp_neff_writer *w = NULL;
	int rc = nxp_neff_writer_open(&w, &o, k->st);
	if (rc < 0)
		return rc;

	json_t *graphs = json_array();
	for (int c = 0; c < k->ncores; c++) {
		char name[16], def[32];
		snprintf(name, sizeof(name), "sg%02d", c);
		snprintf(def, sizeof(def), "sg%02d/def.json", c);
		json_array_append_new(graphs, json_pack("{s:s, s:s}", "definition", def, "name", name));
	}
	rc = add_json(k, w, "kelf-0.json", json_pack("{s:o, s:s, s:s}", "graphs", graphs, "version", "0.5", "target", "*"));
	if (!rc)
		rc = add_json(k, w, "neff.json", graph_json(k));
	if (!rc)
		rc = add_json(k, w, "hlo_stats.json", json_pack("{s:I}", "model_flops", (json_int_t)k->model_flops));
	if (!rc)
		rc = add_json(k, w, "info.json",
			      json_pack("{s:s, s:s, s:s, s:I, s:i, s:i, s:I}", "generator",
					"nxp synth (synthetic, not from neuronx-cc)", "workload", k->p.workload, "arch",
					k->arch.name, "seed", (json_int_t)k->p.seed, "lnc", k->ncores, "executions",
					k->p.executions, "iterations_per_execution", (json_int_t)k->iterations));
	for (int c = 0; c < k->ncores && !rc; c++) {
		synth_core *core = &k->core[c];
		char path[64];
		snprintf(path, sizeof(path), "sg%02d/def.json", c);
		rc = add_json(k, w, path, def_json(k, c));
		for (int e = 0; e < NXP_ENGINE_COUNT && !rc; e++) {
			snprintf(path, sizeof(path), "sg%02d/%s.json", c, engine_file[e]);
			json_t *arr = core->dma_json[e] ? json_incref((json_t *)core->dma_json[e]) : json_array();
			rc = add_json(k, w, path, json_pack("{s:s, s:o}", "engine", nxp_engine_short_name(e), "dma", arr));
			if (rc)
				break;
			snprintf(path, sizeof(path), "sg%02d/%s.bin", c, engine_file[e]);
			rc = nxp_neff_writer_add(w, path, core->code[e] ? (const void *)core->code[e] : "",
						 core->ninstr[e] * NXP_NEFF_INSTRUCTION_SIZE);
			if (rc < 0)
				rc = kfail(k, rc, "synth: cannot add an instruction stream");
		}
		for (int i = 0; i < core->nvars && !rc; i++)
			if (!strcmp(core->vars[i].type, "file")) {
				snprintf(path, sizeof(path), "sg%02d/%s.npy", c, core->vars[i].name);
				rc = add_weights(k, w, path, &core->vars[i], k->p.seed + (uint64_t)i);
			}
	}
	void *mem = NULL;
	size_t len = 0;
	if (!rc) {
		rc = nxp_neff_writer_save_memory(w, &mem, &len);
		if (rc < 0)
			rc = kfail(k, rc, "synth: cannot serialise the NEFF");
	}
	nxp_neff_writer_close(w);
	if (rc)
		return rc;
	nxp_neff_header h;
	h.struct_size = sizeof(h);
	rc = nxp_neff_parse_header(mem, len, (int64_t)len, &h, k->st);
	if (!rc) {
		memcpy(hash_out, h.hash, 32);
		FILE *f = fopen(path, "wb");
		int err = 0;
		if (!f || fwrite(mem, 1, len, f) != len)
			err = errno ? errno : EIO;
		if (f && fclose(f) && !err)
			err = errno ? errno : EIO;
		if (err) {
			char msg[NXP_STATUS_MESSAGE_MAX];
			snprintf(msg, sizeof(msg), "cannot write %s: %s", path, strerror(err));
			rc = kfail(k, NXP_E_IO, msg);
		}
	}
	free(mem);
	return rc;
}

/* ---- the timeline model ---------------------------------------------------------- */
#define SYNTH_MAX_INST (SYNTH_MAX_QUEUE_SETS * 16)

typedef struct sem_note {
	uint64_t tick;
	uint64_t seq;
	nxp_ntff_semaphore_note n;
} sem_note;

typedef struct sim_core {
	int32_t q_instr[NXP_ENGINE_COUNT];
	int32_t q_dma[SYNTH_MAX_INST];
	int inst_base[SYNTH_MAX_QUEUE_SETS];
	int ninst;
	int32_t q_sem, q_tpb, q_throttle, q_error;
	uint64_t efree[NXP_ENGINE_COUNT];
	int eused[NXP_ENGINE_COUNT];
	uint64_t qfree[SYNTH_MAX_INST];
	uint64_t *done;
	int32_t semval[SYNTH_NUM_SEMAPHORES];
	int sem_used[SYNTH_NUM_SEMAPHORES];
	sem_note *sems;
	size_t nsems, sems_cap;
	uint32_t transfer_id;
	synth_rng rng;
} sim_core;

typedef struct sim {
	synth_kernel *k;
	nxp_ntff_writer *w;
	sim_core core[SYNTH_MAX_CORES];
	int32_t q_exec;
	int64_t var_sid[SYNTH_MAX_CORES][SYNTH_MAX_VARS];
	/* the current throttle window */
	uint64_t thr_start, thr_end;
	unsigned thr_k, thr_n;
	synth_result *res;
	uint64_t exec_rows;
} sim;

static int wfail(sim *S, int rc)
{
	nxp_ntff_writer_error_status(S->w, S->k->st);
	if (!S->k->st->code)
		kfail(S->k, rc, "synth: NTFF writer failed");
	return rc;
}

static int sem_cmp(const void *a, const void *b)
{
	const sem_note *x = a, *y = b;
	if (x->tick != y->tick)
		return x->tick < y->tick ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int sem_push(sim *S, sim_core *sc, uint64_t tick, int idx, int source, int op, int32_t value)
{
	if (grow((void **)&sc->sems, &sc->sems_cap, sc->nsems + 1, sizeof(sem_note)))
		return kfail(S->k, NXP_E_NOMEM, "synth: out of memory");
	sem_note *s = &sc->sems[sc->nsems];
	memset(s, 0, sizeof(*s));
	s->tick = tick;
	s->seq = sc->nsems++;
	s->n.tick = tick;
	s->n.semaphore_idx = (uint16_t)idx;
	s->n.update_source = (uint8_t)source;
	s->n.operation = (uint8_t)op;
	s->n.value = value;
	s->n.trigger_complete = op == 1;
	s->n.update_mode = op == 1 ? 1 : 0;
	return 0;
}

/* Semaphore updates come from every engine and queue, each in time order but
 * not with each other: they are kept for one iteration (bounded by the
 * program size) and written sorted.  Every op of the next iteration waits for
 * the barrier, so nothing later can be earlier than what is flushed. */
static int sem_flush(sim *S, sim_core *sc)
{
	qsort(sc->sems, sc->nsems, sizeof(sem_note), sem_cmp);
	for (size_t i = 0; i < sc->nsems; i++) {
		int rc = nxp_ntff_writer_semaphore(S->w, sc->q_sem, &sc->sems[i].n);
		if (rc < 0)
			return wfail(S, rc);
	}
	S->res->semaphore_updates += sc->nsems;
	S->exec_rows += sc->nsems;
	sc->nsems = 0;
	return 0;
}

static uint64_t core_frontier(const synth_kernel *k, const sim_core *sc, int c)
{
	uint64_t t = 0;
	for (int e = 0; e < NXP_ENGINE_COUNT; e++)
		if (sc->efree[e] > t)
			t = sc->efree[e];
	for (int i = 0; i < sc->ninst; i++)
		if (sc->qfree[i] > t)
			t = sc->qfree[i];
	(void)k;
	(void)c;
	return t;
}

/* Run the program body of core c once, starting no earlier than `floor`. */
static int sim_iteration(sim *S, int c, int exec_idx, uint64_t floor)
{
	synth_kernel *k = S->k;
	synth_core *core = &k->core[c];
	sim_core *sc = &S->core[c];
	for (size_t i = 0; i < core->nops; i++) {
		const synth_op *op = &core->ops[i];
		uint64_t ready = floor;
		if (op->barrier) {
			uint64_t f = core_frontier(k, sc, c);
			if (f > ready)
				ready = f;
		}
		for (int d = 0; d < op->ndeps; d++)
			if (sc->done[op->deps[d]] > ready)
				ready = sc->done[op->deps[d]];
		/* The engine reaches the instruction when it is free (start), waits
		 * on its semaphores, then executes: the notification spans all of
		 * it and carries the wait (evt_wait_time), as a real trace does. */
		uint64_t free = sc->efree[op->engine] > floor ? sc->efree[op->engine] : floor;
		uint64_t exec = free > ready ? free : ready;
		uint64_t wait = exec - free;
		if (wait > UINT32_MAX) /* the note's field is 32-bit: the engine idled instead */
			free = exec - (wait = UINT32_MAX);
		uint64_t dur = op->cost;
		if (op->throttled && exec >= S->thr_start && exec < S->thr_end)
			dur = dur * S->thr_n / S->thr_k;
		uint64_t end = exec + dur;
		uint64_t start = free;
		sc->efree[op->engine] = end;

		nxp_ntff_instruction_note in = {start, end, op->pc, (uint32_t)wait, exec_idx};
		int rc = nxp_ntff_writer_instruction(S->w, sc->q_instr[op->engine], &in);
		if (rc < 0)
			return wfail(S, rc);
		S->res->instructions++;
		S->exec_rows++;

		uint64_t done = end;
		if (op->barrier) {
			for (int s = 0; s < SYNTH_NUM_SEMAPHORES; s++)
				if (sc->sem_used[s]) {
					sc->semval[s] = 0;
					if ((rc = sem_push(S, sc, exec, s, op->engine, 3, 0)) < 0)
						return rc;
				}
		}
		if (op->queue_set >= 0) {
			int qi = sc->inst_base[op->queue_set] + op->queue_instance;
			/* the first byte arrives a latency after the trigger; the queue
			 * streams its transfers back to back (latency overlaps) */
			uint64_t t = end + k->dma_latency_ticks;
			if (sc->qfree[qi] > t)
				t = sc->qfree[qi];
			uint32_t left = op->dma_bytes, pkt = 0;
			uint32_t tid = sc->transfer_id++;
			while (left) {
				uint32_t b = left < op->packet_bytes ? left : op->packet_bytes;
				uint64_t r = synth_rng_next(&sc->rng);
				/* +-4 % jitter: bank conflicts, refresh, other traffic */
				uint64_t pt = op->packet_ticks * b / op->packet_bytes;
				pt = pt * (96 + (r & 7)) / 100;
				if (!pt)
					pt = 1;
				nxp_ntff_dma_note dn;
				memset(&dn, 0, sizeof(dn));
				dn.start_tick = t;
				dn.end_tick = t + pt;
				dn.packet_aggregation_id = tid;
				dn.packet_idx = pkt++;
				dn.read_bytes = b;
				dn.write_bytes = b;
				dn.crc = (uint32_t)(r >> 32);
				dn.source = op->src_mem;
				dn.dest = op->dst_mem;
				dn.execution_index = exec_idx;
				dn.variable = op->var >= 0 ? (uint32_t)S->var_sid[c][op->var] : 0;
				if ((rc = nxp_ntff_writer_dma(S->w, sc->q_dma[qi], &dn)) < 0)
					return wfail(S, rc);
				S->res->dma_packets++;
				S->exec_rows++;
				t += pt;
				left -= b;
			}
			sc->qfree[qi] = t;
			done = t;
		}
		sc->done[i] = done;
		if (op->sem_idx >= 0) {
			sc->sem_used[op->sem_idx] = 1;
			if ((rc = sem_push(S, sc, done, op->sem_idx, op->engine, 1, ++sc->semval[op->sem_idx])) < 0)
				return rc;
		}
	}
	return sem_flush(S, sc);
}

static int sim_setup(sim *S)
{
	synth_kernel *k = S->k;
	int rc;
	for (int c = 0; c < k->ncores; c++) {
		synth_core *core = &k->core[c];
		sim_core *sc = &S->core[c];
		synth_rng_seed(&sc->rng, k->p.seed * 31 + (uint64_t)c + 1);
		sc->done = calloc(core->nops ? core->nops : 1, sizeof(uint64_t));
		if (!sc->done)
			return kfail(k, NXP_E_NOMEM, "synth: out of memory");
		nxp_ntff_queue q;
		for (int e = 0; e < NXP_ENGINE_COUNT; e++) {
			sc->q_instr[e] = -1;
			if (!core->ninstr[e])
				continue;
			nxp_ntff_queue_init(&q);
			q.kind = NXP_QUEUE_INSTRUCTION;
			q.engine = e;
			q.pcore_idx = c;
			if ((sc->q_instr[e] = nxp_ntff_writer_add_queue(S->w, &q)) < 0)
				return wfail(S, sc->q_instr[e]);
		}
		/* DMA queue instances; DMA engine = ordinal / 16 (16 queues per engine) */
		for (int s = 0; s < core->nqsets; s++) {
			sc->inst_base[s] = sc->ninst;
			for (int i = 0; i < core->qsets[s].num_queues; i++) {
				nxp_ntff_queue_init(&q);
				q.kind = NXP_QUEUE_DMA;
				q.pcore_idx = c;
				q.name = core->qsets[s].name;
				q.queue_idx = i;
				q.engine_idx = sc->ninst / 16;
				if ((sc->q_dma[sc->ninst] = nxp_ntff_writer_add_queue(S->w, &q)) < 0)
					return wfail(S, sc->q_dma[sc->ninst]);
				sc->ninst++;
			}
		}
		const int kinds[4] = {NXP_QUEUE_SEMAPHORE, NXP_QUEUE_TPB, NXP_QUEUE_THROTTLE, NXP_QUEUE_ERROR};
		int32_t *ids[4] = {&sc->q_sem, &sc->q_tpb, &sc->q_throttle, &sc->q_error};
		for (int i = 0; i < 4; i++) {
			nxp_ntff_queue_init(&q);
			q.kind = kinds[i];
			q.pcore_idx = c;
			if ((*ids[i] = nxp_ntff_writer_add_queue(S->w, &q)) < 0)
				return wfail(S, *ids[i]);
		}
		for (int v = 0; v < core->nvars; v++) {
			int64_t sid = nxp_ntff_writer_string(S->w, core->vars[v].name);
			if (sid < 0)
				return wfail(S, (int)sid);
			S->var_sid[c][v] = sid;
		}
	}
	nxp_ntff_queue q;
	nxp_ntff_queue_init(&q);
	q.kind = NXP_QUEUE_EXECUTION;
	if ((S->q_exec = nxp_ntff_writer_add_queue(S->w, &q)) < 0)
		return wfail(S, S->q_exec);
	rc = 0;
	return rc;
}

static const struct {
	unsigned k, n;
	const char *type;
} throttle_kinds[] = {{3, 4, "power"}, {1, 2, "thermal"}, {7, 8, "power"}};

static int run_trace(sim *S, uint64_t iterations)
{
	synth_kernel *k = S->k;
	int rc;
	synth_rng rng;
	synth_rng_seed(&rng, k->p.seed ^ 0x7468726f74746c65ull);
	/* The device clock does not start at 0. */
	uint64_t t0 = 1000000000ull + synth_rng_below(&rng, 1000000) * 1000;
	for (int c = 0; c < k->ncores; c++) {
		nxp_ntff_tpb_note tn = {t0, 0};
		if ((rc = nxp_ntff_writer_tpb(S->w, S->core[c].q_tpb, &tn)) < 0)
			return wfail(S, rc);
		S->res->other_notes++;
	}
	int64_t exec_name = nxp_ntff_writer_string(S->w, k->name);
	int64_t err_desc = nxp_ntff_writer_string(S->w, "synthetic custom notification: kernel checkpoint reached");
	int64_t thr_type[3];
	for (int i = 0; i < 3; i++)
		thr_type[i] = nxp_ntff_writer_string(S->w, throttle_kinds[i].type);
	if (exec_name < 0 || err_desc < 0 || thr_type[0] < 0 || thr_type[1] < 0 || thr_type[2] < 0)
		return wfail(S, NXP_E_NOMEM);

	uint64_t estart = t0 + 2000; /* TPB start to the first instruction */
	uint64_t prev_dur = 0, end_all = estart;
	for (int e = 0; e < k->p.executions; e++) {
		S->exec_rows = 0;
		S->thr_start = S->thr_end = 0;
		S->thr_k = S->thr_n = 1;
		if (e > 0 && prev_dur > 0) {
			/* a throttle window somewhere in this execution (chip-wide: every core) */
			int kind = (int)synth_rng_below(&rng, 3);
			S->thr_start = estart + (uint64_t)((0.15 + 0.4 * synth_rng_unit(&rng)) * (double)prev_dur);
			S->thr_end = S->thr_start + (uint64_t)((0.1 + 0.15 * synth_rng_unit(&rng)) * (double)prev_dur) + 1;
			S->thr_k = throttle_kinds[kind].k;
			S->thr_n = throttle_kinds[kind].n;
			for (int c = 0; c < k->ncores; c++) {
				nxp_ntff_throttle_note tn = {S->thr_start, S->thr_end - S->thr_start, (uint16_t)S->thr_k,
							     (uint16_t)S->thr_n, (uint32_t)thr_type[kind]};
				if ((rc = nxp_ntff_writer_throttle(S->w, S->core[c].q_throttle, &tn)) < 0)
					return wfail(S, rc);
				S->res->other_notes++;
				S->exec_rows++;
			}
		}
		uint64_t eend = estart;
		for (int c = 0; c < k->ncores; c++) {
			sim_core *sc = &S->core[c];
			for (int x = 0; x < NXP_ENGINE_COUNT; x++)
				sc->efree[x] = estart;
			for (int x = 0; x < sc->ninst; x++)
				sc->qfree[x] = estart;
			for (uint64_t it = 0; it < iterations; it++)
				if ((rc = sim_iteration(S, c, e, estart)) < 0)
					return rc;
			uint64_t f = core_frontier(k, sc, c);
			if (f > eend)
				eend = f;
			/* a couple of Custom Notifications: core 0 after the first and
			 * the last execution */
			if (c == 0 && (e == 0 || e == k->p.executions - 1)) {
				nxp_ntff_error_note en;
				memset(&en, 0, sizeof(en));
				en.tick = f;
				en.error_type_id = 0x70 + e;
				en.type = 0;
				en.description = (uint32_t)err_desc;
				en.metadata = ((uint64_t)e << 32) | 0xC0FFEEu;
				if ((rc = nxp_ntff_writer_error(S->w, sc->q_error, &en)) < 0)
					return wfail(S, rc);
				S->res->other_notes++;
				S->exec_rows++;
			}
		}
		nxp_ntff_execution_note xn;
		memset(&xn, 0, sizeof(xn));
		xn.start_tick = estart;
		xn.end_tick = eend;
		xn.execution_index = e;
		xn.num_subgraphs = k->ncores;
		xn.neff_name = (uint32_t)exec_name;
		xn.row_count = (int64_t)S->exec_rows + 1;
		if ((rc = nxp_ntff_writer_execution(S->w, S->q_exec, &xn)) < 0)
			return wfail(S, rc);
		S->res->other_notes++;
		prev_dur = eend - estart;
		end_all = eend;
		/* the host turns around before the next execution (~5 us) */
		estart = eend + 5000 + synth_rng_below(&rng, 500);
	}
	for (int c = 0; c < k->ncores; c++) {
		nxp_ntff_tpb_note tn = {end_all + 1000, 1};
		if ((rc = nxp_ntff_writer_tpb(S->w, S->core[c].q_tpb, &tn)) < 0)
			return wfail(S, rc);
		S->res->other_notes++;
	}
	S->res->total_ticks = end_all + 1000 - t0;
	return 0;
}

static int write_ntff(synth_kernel *k, const uint8_t uuid[16], const uint8_t hash[32], const char *path,
		      synth_result *res)
{
	nxp_ntff_info info;
	nxp_ntff_info_init(&info);
	memcpy(info.neff_uuid, uuid, 16);
	memcpy(info.neff_hash, hash, 32);
	info.ntff_version = 6;
	info.ticks_per_nanosec = 1;
	info.num_physical_cores = k->ncores;
	info.arch = k->arch.name;
	info.instance_type = k->arch.instance_type;
	info.runtime_version = "synthetic (nxp synth)";
	info.collectives_version = "synthetic (nxp synth)";
	info.driver_version = "synthetic (nxp synth)";
	info.compiler_version = "synthetic (nxp synth)";
	info.profile_name = k->name;
	info.tensor_engine_clock_freq = k->arch.te_ghz;
	info.vector_engine_clock_freq = k->arch.dve_ghz;
	info.scalar_engine_clock_freq = k->arch.act_ghz;
	info.gpsimd_engine_clock_freq = k->arch.pool_ghz;
	info.neuroncore_clock_freq = k->arch.nc_ghz;
	info.tensor_engine_num_rows = 128;
	info.tensor_engine_num_cols = 128;
	info.vector_engine_num_channels = k->arch.channels;
	info.scalar_engine_num_channels = k->arch.channels;
	info.gpsimd_engine_num_channels = k->arch.channels;
	info.num_dma_engines_per_neuroncore = k->arch.dma_engines;
	info.dma_ddr_bandwidth = k->arch.dma_ddr_bw;
	info.hbm_ddr_bandwidth = k->arch.hbm_bw;
	info.neuroncore_idx = k->p.neuroncore_idx;
	info.neuron_device_idx = 0;
	/* the caller's, else a fixed one (2025-01-01T00:00:00Z + seed seconds): reproducible */
	info.capture_time_ns = k->p.capture_time_ns ? k->p.capture_time_ns
						     : (int64_t)(1735689600ull + k->p.seed % 86400) * 1000000000ll;
	info.is_simulation = 1;

	nxp_ntff_writer_options wo;
	nxp_ntff_writer_options_init(&wo);
	if (k->p.compress)
		wo.flags |= NXP_NTFF_WRITE_COMPRESS;

	uint64_t iterations = res->iterations;

	sim S;
	memset(&S, 0, sizeof(S));
	S.k = k;
	S.res = res;
	int rc = nxp_ntff_writer_open_path(&S.w, path, &info, &wo, k->st);
	if (rc >= 0)
		rc = sim_setup(&S);
	if (rc >= 0)
		rc = run_trace(&S, iterations);
	if (rc >= 0 && (rc = nxp_ntff_writer_finish(S.w)) < 0)
		rc = wfail(&S, rc);
	nxp_ntff_writer_close(S.w);
	for (int c = 0; c < SYNTH_MAX_CORES; c++) {
		free(S.core[c].done);
		free(S.core[c].sems);
	}
	return rc < 0 ? rc : 0;
}

/* ---- entry point ------------------------------------------------------------------ */
int synth_run(const synth_params *p, const char *prefix, synth_result *res, nxp_status *st)
{
	synth_result local;
	if (!res)
		res = &local;
	memset(res, 0, sizeof(*res));
	nxp_status_init(st);
	if (!p || !prefix || (p->lnc != 1 && p->lnc != 2) || p->executions < 1 || p->executions > 64) {
		st->code = NXP_E_INVAL;
		snprintf(st->message, sizeof(st->message), "invalid parameters (lnc must be 1 or 2)");
		return NXP_E_INVAL;
	}
	synth_workload_fn fn = synth_workload_find(p->workload);
	if (!fn) {
		st->code = NXP_E_NOT_FOUND;
		snprintf(st->message, sizeof(st->message), "unknown workload '%s' (matmul, mlp)", p->workload);
		return NXP_E_NOT_FOUND;
	}
	synth_kernel *k = calloc(1, sizeof(*k));
	if (!k) {
		st->code = NXP_E_NOMEM;
		snprintf(st->message, sizeof(st->message), "out of memory");
		return NXP_E_NOMEM;
	}
	k->p = *p;
	k->st = st;
	k->ncores = p->lnc;
	k->dtype_bf16 = nxp_dtype_from_name("bf16");
	k->dtype_fp32 = nxp_dtype_from_name("fp32");
	k->dma_latency_ticks = 2000; /* ~2 us from trigger to first byte */
	int rc = arch_get(p->arch, &k->arch, st);
	if (!rc && (k->dtype_bf16 < 0 || k->dtype_fp32 < 0))
		rc = kfail(k, NXP_E_NOT_FOUND, "synth: the library's dtype table lacks bf16/fp32");
	if (!rc)
		rc = fn(k);
	/* `--instructions N`: the program body runs `iterations` times per
	 * execution (a loop in the kernel), so the NEFF's model FLOPs are the
	 * workload's times that. */
	uint64_t body = 0, iterations = 1;
	for (int c = 0; c < k->ncores; c++)
		for (int e = 0; e < NXP_ENGINE_COUNT; e++)
			body += k->core[c].ninstr[e];
	if (!rc && p->instructions && body) {
		uint64_t per_exec = p->instructions / (uint64_t)p->executions;
		iterations = (per_exec + body / 2) / body;
		if (!iterations)
			iterations = 1;
	}
	res->iterations = iterations;
	res->body_instructions = body;
	k->iterations = iterations;
	k->model_flops *= (int64_t)iterations;

	/* The compilation UUID: from the seed and every parameter that shapes the
	 * program (version-4 layout, like uuid4). */
	uint8_t uuid[16], hash[32];
	synth_rng r;
	uint64_t h = 1469598103934665603ull;
	for (const char *s = k->name; *s; s++)
		h = (h ^ (uint8_t)*s) * 1099511628211ull;
	synth_rng_seed(&r, p->seed ^ h);
	for (int i = 0; i < 16; i++)
		uuid[i] = (uint8_t)synth_rng_next(&r);
	uuid[6] = (uint8_t)((uuid[6] & 0x0f) | 0x40);
	uuid[8] = (uint8_t)((uuid[8] & 0x3f) | 0x80);

	size_t plen = strlen(prefix);
	char *path = malloc(plen + 8);
	if (!path && !rc)
		rc = kfail(k, NXP_E_NOMEM, "out of memory");
	if (!rc) {
		memcpy(path, prefix, plen);
		memcpy(path + plen, ".neff", 6);
		rc = write_neff(k, uuid, path, hash);
	}
	if (!rc) {
		memcpy(path + plen, ".ntff", 6);
		rc = write_ntff(k, uuid, hash, path, res);
	}
	res->model_flops = k->model_flops;
	free(path);
	kernel_free(k);
	free(k);
	return rc;
}
