/* SPDX-License-Identifier: MIT */
/* The workloads of `nxp synth`: tiled bf16 matmul kernels written the way an
 * NKI kernel is, on the program model of synth.h.
 *
 * matmul: C[M,N] = A[M,K] . B[K,N].  Output tiles of 128 rows x NT columns
 * (NT = 512 when N allows: one PSUM bank of fp32).  For each output tile and
 * each 128-deep K slice: LDWEIGHTS loads the stationary A^T slice (128x128)
 * into the PE array, MATMUL streams the moving B slice (128 x NT) through it
 * and accumulates in PSUM.  The PSUM tile is evacuated to SBUF (ACTIVATE on
 * Scalar and COPY on Vector, alternating) and stored to HBM.  A row panels are
 * double-buffered and prefetched one row ahead; B stays resident in SBUF when
 * it fits in half of it (loaded during the first row), else it is streamed
 * per tile (and reloaded).  PSUM has 4 banks in rotation, outputs 2 buffers.
 * Under LNC=2 the M rows are split between the two physical cores; each core
 * loads all of B.
 *
 * mlp: the same GEMM with an epilogue that keeps every engine busy:
 * ACTIVATE gelu with bias (Scalar, PSUM -> SBUF), TENSOR_TENSOR residual add
 * and REDUCE row sums (Vector), a TENSOR_SCALAR normalisation (GpSimd), then
 * the store.  The residual R[M,N] is an input loaded per tile.
 *
 * Semaphores (per core): S[1] input loads, S[2] weight loads, S[3] PE tile
 * done, S[4] evacuation done, S[5] stores, S[6] vector epilogue, S[7] GpSimd. */
#include "synth.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SEM_IN = 1, SEM_W = 2, SEM_PE = 3, SEM_EVAC = 4, SEM_OUT = 5, SEM_VEC = 6, SEM_POOL = 7 };

/* Cycle costs (synth's model, per instruction, at the engine's clock). */
#define PE_OVERHEAD 16.0      /* issue overhead of a PE instruction */
#define LDW_CYCLES 64.0       /* 128 weight rows at 2 rows per cycle */
#define ENGINE_OVERHEAD 64.0  /* ACT / DVE / Pool fixed cost */
#define SEM_CYCLES 32.0
#define TABLE_LOAD_CYCLES 1024.0

typedef struct gemm {
	int c, mlp;
	uint64_t rows_c;         /* M rows of this core */
	uint64_t mt, kt, nt, nn; /* m tiles (this core), k tiles, tile width, n tiles */
	int resident;            /* B stays in SBUF */
	int va, vb, vc, vr, vbias;
	int qin, qw, qout;
	/* SBUF per-partition offsets */
	uint64_t a_off[2], b_off, o_off[2], r_off[2], stat_off, bias_off;
} gemm;

static int32_t ring_get(const int32_t *ring, int64_t i, int n)
{
	return i < 0 ? -1 : ring[i % n];
}

static int32_t load_a(synth_kernel *k, gemm *g, uint64_t r, int32_t barrier, int32_t reuse_dep, int32_t *out)
{
	const synth_var *A = &k->core[g->c].vars[g->va];
	for (uint64_t kt = 0; kt < g->kt; kt++) {
		nxp_access_pattern src = synth_ap(A->hbm_addr + (r * 128 * A->cols + kt * 128) * 2, k->dtype_bf16, 128, 128);
		nxp_access_pattern dst = synth_ap(SYNTH_SBUF_BASE + g->a_off[r % 2] + kt * 256, k->dtype_bf16, 128, 128);
		int32_t deps[2] = {barrier, reuse_dep};
		int32_t id = synth_add_dma(k, g->c, g->qin, g->va, src, dst, 128 * 128 * 2, deps, 2);
		if (id < 0)
			return id;
		out[kt] = id;
	}
	return 0;
}

static int32_t load_b(synth_kernel *k, gemm *g, uint64_t n, uint64_t slot, int32_t barrier, int32_t reuse_dep,
		      int32_t *out)
{
	const synth_var *B = &k->core[g->c].vars[g->vb];
	for (uint64_t kt = 0; kt < g->kt; kt++) {
		nxp_access_pattern src =
			synth_ap(B->hbm_addr + (kt * 128 * B->cols + n * g->nt) * 2, k->dtype_bf16, (uint32_t)g->nt, 128);
		nxp_access_pattern dst =
			synth_ap(SYNTH_SBUF_BASE + g->b_off + (slot * g->kt + kt) * g->nt * 2, k->dtype_bf16, (uint32_t)g->nt, 128);
		int32_t deps[2] = {barrier, reuse_dep};
		int32_t id = synth_add_dma(k, g->c, g->qw, g->vb, src, dst, (uint32_t)(128 * g->nt * 2), deps, 2);
		if (id < 0)
			return id;
		out[kt] = id;
	}
	return 0;
}

static int32_t vop(synth_kernel *k, gemm *g, int engine, const char *opcode, uint8_t func, uint64_t src, int sdt,
		   uint32_t scols, uint64_t dst, int ddt, uint32_t dcols, double cycles, int sem, const int32_t *deps,
		   int ndeps)
{
	synth_instr in;
	synth_instr_init(&in, engine, opcode);
	in.src = synth_ap(src, sdt, scols, 128);
	in.dst = synth_ap(dst, ddt, dcols, 128);
	in.func = func;
	in.partitions = 128;
	in.cycles = cycles;
	in.sem_idx = sem;
	for (int i = 0; i < ndeps; i++)
		synth_instr_dep(&in, deps[i]);
	return synth_add(k, g->c, &in);
}

static int build_core(synth_kernel *k, gemm *g)
{
	synth_instr in;
	int32_t rc;
	const uint64_t tiles = g->mt * g->nn;
	int32_t *a_load = calloc(2 * g->kt, sizeof(int32_t));
	int32_t *b_load = calloc((g->resident ? g->nn : 2) * g->kt, sizeof(int32_t));
	int32_t *row_last = calloc(g->mt, sizeof(int32_t));
	int32_t pe_last[4], evac[4], store[4], rload[4];
	if (!a_load || !b_load || !row_last) {
		rc = NXP_E_NOMEM;
		goto out;
	}
	for (uint64_t i = 0; i < g->mt; i++)
		row_last[i] = -1;

	/* iteration start: Sync resets the semaphores after everything is done */
	synth_instr_init(&in, NXP_ENGINE_SYNC, "EVENT_SEMAPHORE");
	in.barrier = 1;
	in.cycles = SEM_CYCLES;
	int32_t barrier = rc = synth_add(k, g->c, &in);
	if (rc < 0)
		goto out;
	int32_t bias = -1, table = -1;
	if (g->mlp) {
		synth_instr_init(&in, NXP_ENGINE_SCALAR, "ACTIVATION_TABLE_LOAD");
		in.func = 2; /* gelu */
		in.cycles = TABLE_LOAD_CYCLES;
		synth_instr_dep(&in, barrier);
		if ((table = rc = synth_add(k, g->c, &in)) < 0)
			goto out;
		const synth_var *bv = &k->core[g->c].vars[g->vbias];
		int32_t deps[1] = {barrier};
		bias = rc = synth_add_dma(k, g->c, g->qw, g->vbias, synth_ap(bv->hbm_addr, k->dtype_bf16, (uint32_t)g->nt, 1),
					  synth_ap(g->bias_off, k->dtype_bf16, (uint32_t)g->nt, 1), (uint32_t)bv->size, deps, 1);
		if (rc < 0)
			goto out;
	}
	if ((rc = load_a(k, g, 0, barrier, -1, a_load)) < 0)
		goto out;
	for (uint64_t r = 0; r < g->mt; r++) {
		int32_t *a_cur = a_load + (r % 2) * g->kt;
		int32_t a_next[1024];
		/* prefetch the next row panel into the other buffer: it is free once
		 * the PE has finished the row before this one */
		if (r + 1 < g->mt) {
			if ((rc = load_a(k, g, r + 1, barrier, r >= 1 ? row_last[r - 1] : -1, a_next)) < 0)
				goto out;
		}
		for (uint64_t n = 0; n < g->nn; n++) {
			int64_t t = (int64_t)(r * g->nn + n);
			int32_t *b_cur;
			if (g->resident) {
				b_cur = b_load + n * g->kt;
				if (r == 0 && (rc = load_b(k, g, n, n, barrier, -1, b_cur)) < 0)
					goto out;
			} else {
				b_cur = b_load + (t % 2) * g->kt;
				if ((rc = load_b(k, g, n, (uint64_t)(t % 2), barrier, ring_get(pe_last, t - 2, 4), b_cur)) < 0)
					goto out;
			}
			if (g->mlp) {
				const synth_var *R = &k->core[g->c].vars[g->vr];
				int32_t deps[2] = {barrier, ring_get(store, t - 2, 4)};
				rc = synth_add_dma(k, g->c, g->qin, g->vr,
						   synth_ap(R->hbm_addr + (r * 128 * R->cols + n * g->nt) * 2, k->dtype_bf16,
							    (uint32_t)g->nt, 128),
						   synth_ap(g->r_off[t % 2], k->dtype_bf16, (uint32_t)g->nt, 128),
						   (uint32_t)(128 * g->nt * 2), deps, 2);
				if (rc < 0)
					goto out;
				rload[t % 4] = rc;
			}
			uint64_t bank = SYNTH_PSUM_BASE + (uint64_t)(t % 4) * 2048;
			int32_t last = -1;
			for (uint64_t kt = 0; kt < g->kt; kt++) {
				synth_instr_init(&in, NXP_ENGINE_TENSOR, "LDWEIGHTS");
				in.src = synth_ap(g->a_off[r % 2] + kt * 256, k->dtype_bf16, 128, 128);
				in.partitions = 128;
				in.cycles = LDW_CYCLES + PE_OVERHEAD;
				in.throttled = 1;
				synth_instr_dep(&in, a_cur[kt]);
				if ((rc = synth_add(k, g->c, &in)) < 0)
					goto out;
				synth_instr_init(&in, NXP_ENGINE_TENSOR, "MATMUL");
				in.src = synth_ap(g->b_off + ((g->resident ? n : (uint64_t)(t % 2)) * g->kt + kt) * g->nt * 2,
						  k->dtype_bf16, (uint32_t)g->nt, 128);
				in.dst = synth_ap(bank, k->dtype_fp32, (uint32_t)g->nt, 128);
				in.partitions = 128;
				in.active_cols = 128;
				in.flags = kt == 0 ? 0x1 : 0; /* psum_zero on the first slice */
				in.cycles = (double)g->nt + PE_OVERHEAD;
				in.throttled = 1;
				in.sem_idx = kt + 1 == g->kt ? SEM_PE : -1;
				synth_instr_dep(&in, b_cur[kt]);
				if (kt == 0)
					synth_instr_dep(&in, ring_get(evac, t - 4, 4)); /* the PSUM bank is free */
				if ((rc = synth_add(k, g->c, &in)) < 0)
					goto out;
				last = rc;
			}
			pe_last[t % 4] = last;
			row_last[r] = last;

			uint64_t ob = g->o_off[t % 2];
			int32_t fin;
			double ecyc = (double)g->nt + ENGINE_OVERHEAD;
			if (!g->mlp) {
				int32_t deps[2] = {last, ring_get(store, t - 2, 4)};
				if (t % 2 == 0)
					rc = vop(k, g, NXP_ENGINE_SCALAR, "ACTIVATE", 0 /* identity */, bank, k->dtype_fp32,
						 (uint32_t)g->nt, ob, k->dtype_bf16, (uint32_t)g->nt, ecyc, SEM_EVAC, deps, 2);
				else
					rc = vop(k, g, NXP_ENGINE_VECTOR, "COPY", 0, bank, k->dtype_fp32, (uint32_t)g->nt, ob,
						 k->dtype_bf16, (uint32_t)g->nt, ecyc, SEM_EVAC, deps, 2);
				if (rc < 0)
					goto out;
				evac[t % 4] = fin = rc;
			} else {
				int32_t d1[4] = {last, ring_get(store, t - 2, 4), bias, table};
				if ((rc = vop(k, g, NXP_ENGINE_SCALAR, "ACTIVATE", 2 /* gelu */, bank, k->dtype_fp32,
					      (uint32_t)g->nt, ob, k->dtype_bf16, (uint32_t)g->nt, ecyc, SEM_EVAC, d1, 4)) < 0)
					goto out;
				evac[t % 4] = rc;
				int32_t d2[2] = {rc, rload[t % 4]};
				if ((rc = vop(k, g, NXP_ENGINE_VECTOR, "TENSOR_TENSOR", 0, ob, k->dtype_bf16, (uint32_t)g->nt, ob,
					      k->dtype_bf16, (uint32_t)g->nt, ecyc, -1, d2, 2)) < 0)
					goto out;
				int32_t d3[1] = {rc};
				if ((rc = vop(k, g, NXP_ENGINE_VECTOR, "REDUCE", 0, ob, k->dtype_bf16, (uint32_t)g->nt,
					      g->stat_off + (uint64_t)(t % 2) * 4, k->dtype_fp32, 1, ecyc, SEM_VEC, d3, 1)) < 0)
					goto out;
				int32_t d4[1] = {rc};
				if ((rc = vop(k, g, NXP_ENGINE_GPSIMD, "TENSOR_SCALAR_ARITH", 0, ob, k->dtype_bf16,
					      (uint32_t)g->nt, ob, k->dtype_bf16, (uint32_t)g->nt, 2.0 * (double)g->nt + ENGINE_OVERHEAD,
					      SEM_POOL, d4, 1)) < 0)
					goto out;
				fin = rc;
			}
			const synth_var *C = &k->core[g->c].vars[g->vc];
			int32_t deps[1] = {fin};
			rc = synth_add_dma(k, g->c, g->qout, g->vc, synth_ap(ob, k->dtype_bf16, (uint32_t)g->nt, 128),
					   synth_ap(C->hbm_addr + (r * 128 * C->cols + n * g->nt) * 2, k->dtype_bf16,
						    (uint32_t)g->nt, 128),
					   (uint32_t)(128 * g->nt * 2), deps, 1);
			if (rc < 0)
				goto out;
			store[t % 4] = rc;
		}
		if (r + 1 < g->mt)
			memcpy(a_load + ((r + 1) % 2) * g->kt, a_next, g->kt * sizeof(int32_t));
	}
	(void)tiles;
	rc = 0;
out:
	free(a_load);
	free(b_load);
	free(row_last);
	if (rc == NXP_E_NOMEM && !k->st->code) {
		k->st->code = NXP_E_NOMEM;
		snprintf(k->st->message, sizeof(k->st->message), "synth: out of memory");
	}
	return rc;
}

static int bad_size(synth_kernel *k, const char *msg)
{
	k->st->code = NXP_E_INVAL;
	k->st->offset = -1;
	snprintf(k->st->message, sizeof(k->st->message), "%s", msg);
	return NXP_E_INVAL;
}

static int build_gemm(synth_kernel *k, int mlp)
{
	uint64_t M = k->p.m ? k->p.m : 1024, K = k->p.k ? k->p.k : 1024, N = k->p.n ? k->p.n : 1024;
	if (M % (128u * (unsigned)k->ncores) || K % 128 || N % 128)
		return bad_size(k, "synth: M must be a multiple of 128 x lnc, K and N multiples of 128");
	if (M > 8192 || K > 8192 || N > 8192)
		return bad_size(k, "synth: M, K and N are limited to 8192 (the model's 30-bit HBM addresses)");
	uint64_t nt = N % 512 == 0 ? 512 : 128;
	snprintf(k->name, sizeof(k->name), "synth_%s_%s_m%llu_k%llu_n%llu_lnc%d", mlp ? "mlp" : "matmul", k->arch.name,
		 (unsigned long long)M, (unsigned long long)K, (unsigned long long)N, k->ncores);
	k->graph_op = mlp ? "mlp" : "matmul";
	k->model_flops = (int64_t)(2 * M * N * K);
	for (int c = 0; c < k->ncores; c++) {
		gemm g;
		memset(&g, 0, sizeof(g));
		g.c = c;
		g.mlp = mlp;
		g.rows_c = M / (uint64_t)k->ncores;
		g.mt = g.rows_c / 128;
		g.kt = K / 128;
		g.nt = nt;
		g.nn = N / nt;
		g.resident = K * N * 2 <= k->arch.sbuf_bytes / 2;
		g.va = synth_var_add(k, c, "A", "input", g.rows_c, K, 2);
		g.vb = synth_var_add(k, c, "B", "file", K, N, 2);
		g.vr = mlp ? synth_var_add(k, c, "R", "input", g.rows_c, N, 2) : -1;
		g.vbias = mlp ? synth_var_add(k, c, "bias", "file", 1, N, 2) : -1;
		g.vc = synth_var_add(k, c, mlp ? "Y" : "C", "output", g.rows_c, N, 2);
		synth_var_add(k, c, "SB", "state-buffer", 128, k->arch.sbuf_bytes / 128, 1);
		g.qin = synth_qset_add(k, c, "q_sp_in", "in", NXP_ENGINE_SYNC, 2, SEM_IN);
		g.qw = synth_qset_add(k, c, "q_sp_w", "data", NXP_ENGINE_SYNC, 2, SEM_W);
		g.qout = synth_qset_add(k, c, "q_act_out", "out", NXP_ENGINE_SCALAR, 2, SEM_OUT);
		/* SBUF per partition: A panels, B (resident or 2 tiles), outputs, residuals */
		uint64_t off = 0;
		for (int i = 0; i < 2; i++, off += g.kt * 256)
			g.a_off[i] = off;
		g.b_off = off;
		off += (g.resident ? g.nn : 2) * g.kt * g.nt * 2;
		for (int i = 0; i < 2; i++, off += g.nt * 2)
			g.o_off[i] = off;
		for (int i = 0; i < 2; i++, off += g.nt * 2)
			g.r_off[i] = off;
		g.stat_off = off;
		off += 64;
		g.bias_off = off;
		int rc = build_core(k, &g);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int wl_matmul(synth_kernel *k)
{
	return build_gemm(k, 0);
}

static int wl_mlp(synth_kernel *k)
{
	return build_gemm(k, 1);
}

const char *const synth_workload_names[] = {"matmul", "mlp", NULL};

synth_workload_fn synth_workload_find(const char *name)
{
	if (!name)
		return NULL;
	if (!strcmp(name, "matmul"))
		return wl_matmul;
	if (!strcmp(name, "mlp"))
		return wl_mlp;
	return NULL;
}
