/* SPDX-License-Identifier: MIT */
#include "fuzz_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const uint8_t FZ_FIXTURE_UUID[16] = {0x6e, 0x78, 0x70, 0x2d, 0x66, 0x75, 0x7a, 0x7a,
				     0x2d, 0x66, 0x69, 0x78, 0x74, 0x75, 0x72, 0x65};
const unsigned FZ_FIXTURE_PCS[NXP_ENGINE_COUNT] = {3, 2, 2, 1, 3};

static const char kelf_json[] =
	"{\"graphs\":[{\"definition\":\"sg00/def.json\",\"name\":\"sg00\"}],\"version\":\"0.5\",\"target\":\"*\"}";

static const char def_json[] =
	"{\"name\": \"sg00\",\n"
	" \"var\": {\"IN\": {\"type\": \"input\", \"var_id\": 0, \"size\": 4096},\n"
	"         \"W0\": {\"type\": \"file\", \"var_id\": 1, \"size\": 256, \"file_name\": \"w0.npy\"},\n"
	"         \"OUT\": {\"type\": \"output\", \"var_id\": 2, \"size\": 4096},\n"
	"         \"SB\": {\"type\": \"state-buffer\", \"var_id\": 3}},\n"
	" \"dma_queue\": {\"IN_QUE\": {\"type\": \"in\", \"num_queues\": 2},\n"
	"               \"q_pe_in_w\": {\"type\": \"data\", \"owner\": \"pe\"},\n"
	"               \"q_act_out\": {\"type\": \"out\", \"owner\": \"act\"}},\n"
	" \"pe\": \"PE0.json\", \"pe_instr\": \"PE0.bin\",\n"
	" \"act\": \"Activation0.json\", \"act_instr\": \"Activation0.bin\",\n"
	" \"dve\": \"DVE0.json\", \"dve_instr\": \"DVE0.bin\",\n"
	" \"pool\": \"Pool0.json\", \"pool_instr\": \"Pool0.bin\",\n"
	" \"sp\": \"SP0.json\", \"sp_instr\": \"SP0.bin\"}\n";

static const char engine_json[] = "{\"dma\": []}";

static const char *const engine_files[NXP_ENGINE_COUNT][2] = {
	{"sg00/PE0.json", "sg00/PE0.bin"},
	{"sg00/DVE0.json", "sg00/DVE0.bin"},
	{"sg00/Activation0.json", "sg00/Activation0.bin"},
	{"sg00/Pool0.json", "sg00/Pool0.bin"},
	{"sg00/SP0.json", "sg00/SP0.bin"},
};

/* Opcodes per engine (FZ_FIXTURE_PCS of each). */
static const unsigned engine_ops[NXP_ENGINE_COUNT][3] = {
	{0x01, 0x02, 0x02}, /* tensor: LDWEIGHTS, MATMUL, MATMUL */
	{0x41, 0x46, 0},    /* vector: TENSOR_TENSOR, COPY */
	{0x21, 0x23, 0},    /* scalar: ACTIVATE, ACTIVATION_TABLE_LOAD */
	{0x49, 0, 0},       /* gpsimd: MEMSET */
	{0xA0, 0xB8, 0xA4}, /* sync: EVENT_SEMAPHORE, DMAMEMCPY, NOP */
};

static int encode_engine(int engine, uint8_t *out)
{
	for (unsigned pc = 0; pc < FZ_FIXTURE_PCS[engine]; pc++) {
		nxp_neff_instruction in;
		memset(&in, 0, sizeof(in));
		in.struct_size = sizeof(in);
		in.pc = pc;
		in.engine = engine;
		in.opcode_num = engine_ops[engine][pc];
		in.wait_mode = pc == 0 ? 0 : 1;
		in.wait_idx = 15;
		in.update_mode = 1;
		in.update_idx = 15;
		in.semaphore_value = pc + 1;
		int bf16 = nxp_dtype_from_name("bf16");
		in.src.dtype = in.dst.dtype = (uint8_t)(bf16 > 0 ? bf16 : 0);
		in.src.address = 0x5600u + 0x100u * pc;
		in.src.step_elem[0] = 1;
		in.src.num_elem[0] = 128;
		in.src.num_elem[1] = in.src.num_elem[2] = 1;
		/* MATMUL writes PSUM, the rest SBUF; DMA reads HBM. */
		in.dst.address = in.opcode_num == 0x02 ? 0x2000000u : 0x8000u;
		if (in.opcode_num == 0xB8)
			in.src.address = 0x10000000u;
		in.dst.step_elem[0] = 1;
		in.dst.num_elem[0] = 128;
		in.dst.num_elem[1] = in.dst.num_elem[2] = 1;
		in.partitions = 128;
		in.active_cols = 128;
		int rc = nxp_instruction_encode(&in, out + (size_t)pc * NXP_NEFF_INSTRUCTION_SIZE);
		if (rc != NXP_OK)
			return rc;
	}
	return NXP_OK;
}

int fz_fixture_neff(int plain_tar, uint8_t **data, size_t *len)
{
	nxp_neff_writer_options o;
	nxp_neff_writer_options_init(&o);
	o.name = "fuzz-fixture";
	memcpy(o.uuid, FZ_FIXTURE_UUID, sizeof(o.uuid));
	if (plain_tar)
		o.flags |= NXP_NEFF_WRITE_PLAIN_TAR;
	nxp_neff_writer *w = NULL;
	int rc = nxp_neff_writer_open(&w, &o, NULL);
	if (rc != NXP_OK)
		return rc;
	static uint8_t weights[256];
	for (size_t i = 0; i < sizeof(weights); i++)
		weights[i] = (uint8_t)(i * 7);
	if ((rc = nxp_neff_writer_add(w, "kelf-0.json", kelf_json, strlen(kelf_json))) != NXP_OK ||
	    (rc = nxp_neff_writer_add(w, "sg00/def.json", def_json, strlen(def_json))) != NXP_OK ||
	    (rc = nxp_neff_writer_add(w, "sg00/w0.npy", weights, sizeof(weights))) != NXP_OK)
		goto out;
	for (int e = 0; e < NXP_ENGINE_COUNT; e++) {
		uint8_t bin[3 * NXP_NEFF_INSTRUCTION_SIZE];
		if ((rc = encode_engine(e, bin)) != NXP_OK ||
		    (rc = nxp_neff_writer_add(w, engine_files[e][0], engine_json, strlen(engine_json))) != NXP_OK ||
		    (rc = nxp_neff_writer_add(w, engine_files[e][1], bin,
					      (size_t)FZ_FIXTURE_PCS[e] * NXP_NEFF_INSTRUCTION_SIZE)) != NXP_OK)
			goto out;
	}
	void *buf = NULL;
	rc = nxp_neff_writer_save_memory(w, &buf, len);
	*data = buf;
out:
	nxp_neff_writer_close(w);
	return rc;
}

const uint8_t *fz_fixture_neff_cached(size_t *len)
{
	static uint8_t *neff;
	static size_t neff_len;
	if (!neff && fz_fixture_neff(1, &neff, &neff_len) != NXP_OK)
		return NULL;
	*len = neff_len;
	return neff;
}

/* Queue ids of the fixture NTFF. */
struct queues {
	int32_t ins[NXP_ENGINE_COUNT], dma[3], sem, thr, err, exe, tpb;
};

static int32_t add_queue(nxp_ntff_writer *w, int kind, int engine, const char *name, int idx, int eng_idx)
{
	nxp_ntff_queue q;
	nxp_ntff_queue_init(&q);
	q.kind = kind;
	q.engine = engine;
	q.name = name;
	q.queue_idx = idx;
	q.engine_idx = eng_idx;
	return nxp_ntff_writer_add_queue(w, &q);
}

static int write_records(nxp_ntff_writer *w, const struct queues *q)
{
	int rc = NXP_OK;
	int64_t s_thermal = nxp_ntff_writer_string(w, "thermal");
	int64_t s_desc = nxp_ntff_writer_string(w, "fuzz fixture notification");
	int64_t s_neff = nxp_ntff_writer_string(w, "fuzz-fixture");
	int64_t s_var = nxp_ntff_writer_string(w, "IN");
	if (s_thermal < 0 || s_desc < 0 || s_neff < 0 || s_var < 0)
		return NXP_E_INVAL;

	nxp_ntff_tpb_note tpb = {1000, 0};
	if ((rc = nxp_ntff_writer_tpb(w, q->tpb, &tpb)) != NXP_OK)
		return rc;
	for (int x = 0; x < 2; x++) {
		uint64_t base = 1000 + (uint64_t)x * 10000;
		nxp_ntff_execution_note ex = {base, base + 9000, x, 1, (uint32_t)s_neff, 0};
		uint64_t rows = 0;
		for (int e = 0; e < NXP_ENGINE_COUNT; e++) {
			for (unsigned pc = 0; pc < FZ_FIXTURE_PCS[e]; pc++) {
				uint64_t t = base + 100 + (uint64_t)e * 10 + pc * 1000;
				nxp_ntff_instruction_note n = {t, t + 500 + e * 50, pc, pc ? 20 : 0, x};
				if ((rc = nxp_ntff_writer_instruction(w, q->ins[e], &n)) != NXP_OK)
					return rc;
				rows++;
			}
		}
		for (int d = 0; d < 3; d++) {
			for (unsigned k = 0; k < 3; k++) {
				uint64_t t = base + 50 + (uint64_t)d * 7 + k * 1500;
				nxp_ntff_dma_note n;
				memset(&n, 0, sizeof(n));
				n.start_tick = t;
				n.end_tick = t + 300;
				n.packet_aggregation_id = (uint32_t)(d * 10 + k / 2);
				n.packet_idx = k;
				n.read_bytes = n.write_bytes = 512;
				n.crc = 0xabcd0000u + k;
				n.source = NXP_MEMORY_HBM;
				n.dest = NXP_MEMORY_SBUF;
				n.execution_index = x;
				n.variable = d == 0 ? (uint32_t)s_var : 0;
				if ((rc = nxp_ntff_writer_dma(w, q->dma[d], &n)) != NXP_OK)
					return rc;
				rows++;
			}
		}
		for (unsigned k = 0; k < 4; k++) {
			nxp_ntff_semaphore_note n = {base + 200 + k * 900, 15, (uint8_t)(k % NXP_ENGINE_COUNT),
						     (uint8_t)(k % 4), (int32_t)k, (uint8_t)(k & 1), 0, 1};
			if ((rc = nxp_ntff_writer_semaphore(w, q->sem, &n)) != NXP_OK)
				return rc;
			rows++;
		}
		nxp_ntff_throttle_note th = {base + 4000, 2000, 3, 4, (uint32_t)s_thermal};
		nxp_ntff_error_note er = {base + 5000, 7, (uint8_t)x, (uint32_t)s_desc, 0xdeadbeefull};
		if ((rc = nxp_ntff_writer_throttle(w, q->thr, &th)) != NXP_OK ||
		    (rc = nxp_ntff_writer_error(w, q->err, &er)) != NXP_OK)
			return rc;
		rows += 2;
		ex.row_count = (int64_t)rows;
		if ((rc = nxp_ntff_writer_execution(w, q->exe, &ex)) != NXP_OK)
			return rc;
	}
	tpb.tick = 21000;
	tpb.is_stop = 1;
	return nxp_ntff_writer_tpb(w, q->tpb, &tpb);
}

int fz_fixture_ntff(const char *path, int variant, nxp_status *st)
{
	nxp_ntff_info info;
	nxp_ntff_info_init(&info);
	memcpy(info.neff_uuid, FZ_FIXTURE_UUID, sizeof(info.neff_uuid));
	info.ticks_per_nanosec = variant == FZ_NTFF_SMALL_SECTIONS ? 2 : 1;
	info.arch = "trn2";
	info.instance_type = "trn2.48xlarge";
	info.runtime_version = "2.0.0";
	info.profile_name = "fuzz";
	info.tensor_engine_clock_freq = 2.8;
	info.neuroncore_clock_freq = 1.4;
	info.tensor_engine_num_rows = info.tensor_engine_num_cols = 128;
	info.num_dma_engines_per_neuroncore = 16;
	info.hbm_ddr_bandwidth = 7.25e11;
	nxp_ntff_writer_options o;
	nxp_ntff_writer_options_init(&o);
	if (variant == FZ_NTFF_COMPRESSED)
		o.flags |= NXP_NTFF_WRITE_COMPRESS;
	if (variant == FZ_NTFF_SMALL_SECTIONS)
		o.records_per_section = 2;
	nxp_ntff_writer *w = NULL;
	int rc = nxp_ntff_writer_open_path(&w, path, &info, &o, st);
	if (rc != NXP_OK)
		return rc;
	struct queues q;
	for (int e = 0; e < NXP_ENGINE_COUNT; e++)
		q.ins[e] = add_queue(w, NXP_QUEUE_INSTRUCTION, e, NULL, 0, 0);
	q.dma[0] = add_queue(w, NXP_QUEUE_DMA, -1, "IN_QUE", 0, 0);
	q.dma[1] = add_queue(w, NXP_QUEUE_DMA, -1, "IN_QUE", 1, 0);
	q.dma[2] = add_queue(w, NXP_QUEUE_DMA, -1, "q_pe_in_w", 0, 1);
	q.sem = add_queue(w, NXP_QUEUE_SEMAPHORE, -1, NULL, 0, 0);
	q.thr = add_queue(w, NXP_QUEUE_THROTTLE, -1, NULL, 0, 0);
	q.err = add_queue(w, NXP_QUEUE_ERROR, -1, NULL, 0, 0);
	q.exe = add_queue(w, NXP_QUEUE_EXECUTION, -1, NULL, 0, 0);
	q.tpb = add_queue(w, NXP_QUEUE_TPB, -1, NULL, 0, 0);
	const int32_t *all = &q.ins[0];
	for (size_t i = 0; i < sizeof(q) / sizeof(int32_t); i++)
		if (all[i] < 0) {
			rc = all[i];
			goto out;
		}
	if (variant != FZ_NTFF_EMPTY && (rc = write_records(w, &q)) != NXP_OK)
		goto out;
	rc = nxp_ntff_writer_finish(w);
out:
	if (rc != NXP_OK && st)
		nxp_ntff_writer_error_status(w, st);
	nxp_ntff_writer_close(w);
	return rc;
}

int fz_fixture_ntff_memory(int variant, uint8_t **data, size_t *len)
{
	const char *tmp = getenv("TMPDIR");
	char path[4096];
	snprintf(path, sizeof(path), "%s/nxp-fixture-XXXXXX", tmp ? tmp : "/tmp");
	int fd = mkstemp(path);
	if (fd < 0)
		return NXP_E_IO;
	close(fd);
	int rc = fz_fixture_ntff(path, variant, NULL);
	if (rc == NXP_OK) {
		rc = NXP_E_IO;
		FILE *f = fopen(path, "rb");
		if (f && fseek(f, 0, SEEK_END) == 0) {
			long n = ftell(f);
			uint8_t *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
			if (buf && fseek(f, 0, SEEK_SET) == 0 && fread(buf, 1, (size_t)n, f) == (size_t)n) {
				*data = buf;
				*len = (size_t)n;
				rc = NXP_OK;
			} else {
				free(buf);
			}
		}
		if (f)
			fclose(f);
	}
	unlink(path);
	return rc;
}

int fz_fixture_profile_open(nxp_profile **out, nxp_source **neff_src, nxp_source *ntff,
			    const nxp_profile_options *opts, nxp_status *st)
{
	size_t len;
	const uint8_t *neff = fz_fixture_neff_cached(&len);
	*out = NULL;
	*neff_src = NULL;
	if (!neff)
		return NXP_E_NOMEM;
	int rc = nxp_source_open_memory(neff_src, neff, len, st);
	if (rc != NXP_OK)
		return rc;
	rc = nxp_profile_open(out, *neff_src, ntff, opts, st);
	if (rc != NXP_OK) {
		nxp_source_close(*neff_src);
		*neff_src = NULL;
	}
	return rc;
}
