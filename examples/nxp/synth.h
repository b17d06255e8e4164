/* SPDX-License-Identifier: MIT */
/* Synthetic NEFF/NTFF pairs: the machinery behind `nxp synth` and the NTFF
 * benchmark.
 *
 * A workload (synth_workloads.c) builds a *static program* per physical core:
 * a list of ops in a topologically valid order, each one instruction of one
 * engine (encoded with nxp_instruction_encode) plus, for DMA triggers, the
 * transfer it starts on a DMA queue.  The program becomes the NEFF.  The trace
 * is then produced by *executing* the program in a timeline model: every
 * engine and every DMA queue instance is an in-order resource; an op starts
 * when its resource is free and its dependencies (semaphores) are done.  The
 * same program body is run several times (iterations inside an execution,
 * executions back to back), so the trace can be made as large as wanted
 * without a large NEFF, and records stream straight to the NTFF writer: memory
 * is the program, never the trace.
 *
 * Everything is deterministic for a given set of parameters (no clock, no
 * address-dependent ordering): the same command writes the same bytes. */
#ifndef NXP_SYNTH_H
#define NXP_SYNTH_H

#include <nxp/nxp.h>

#include <stddef.h>
#include <stdint.h>

/* ---- parameters ---------------------------------------------------------- */
typedef struct synth_params {
	const char *workload;  /* "matmul", "mlp" */
	const char *arch;      /* "trn1", "inf2", "trn2", "trn3" */
	uint64_t seed;
	int lnc;               /* 1 or 2 physical cores */
	uint64_t instructions; /* approximate total instruction records, 0 = one iteration per execution */
	uint64_t m, k, n;      /* matmul sizes; 0 = workload default */
	int compress;          /* zlib-compress the NTFF sections */
	int executions;        /* executions back to back (default 3) */
	int neuroncore_idx;    /* NTFF metadata neuroncore_idx (default 0; a capture: the rank) */
	int64_t capture_time_ns; /* NTFF metadata capture_time_ns (Unix ns); 0 = 2025-01-01 + seed s */
} synth_params;

void synth_params_init(synth_params *p);

/* What was written. */
typedef struct synth_result {
	uint64_t instructions;     /* instruction notifications */
	uint64_t dma_packets;      /* DMA notifications */
	uint64_t semaphore_updates;
	uint64_t other_notes;      /* TPB, throttle, error, execution */
	uint64_t iterations;       /* program body runs per execution */
	uint64_t body_instructions; /* static instructions, all cores */
	uint64_t total_ticks;      /* first TPB start to last TPB stop */
	int64_t model_flops;       /* per execution, all iterations (hlo_stats.json) */
} synth_result;

/* Build the NEFF and run the trace: writes `<prefix>.neff` and `<prefix>.ntff`.
 * Returns 0 or a negative nxp_error with `st` filled. */
int synth_run(const synth_params *p, const char *prefix, synth_result *res, nxp_status *st);

/* ---- a whole capture directory (synth_capture.c) ------------------------------ */
#define SYNTH_MAX_RANKS 64

typedef struct synth_capture_result {
	int ranks;
	int executions;               /* device executions, all ranks */
	uint64_t device_instructions; /* instruction notifications, all ranks */
	uint64_t runtime_events;      /* ntrace.pb events written, all ranks */
	uint64_t framework_events;    /* trace.json events written, all ranks */
	int straggler;                /* rank with the longest device time */
	int64_t slowest_ns;           /* its first execution start to last execution end */
} synth_capture_result;

/* Write a capture directory under `dir` (created if needed): one process
 * directory `<instance>_pid_<pid>` per rank holding a device pair made by
 * synth_run() with seed p->seed + rank (neff_<h>.neff, <h>_instid_0_vnc_<rank>.ntff),
 * ntrace.pb, trace_info.pb, cpu_util.pb, host_mem.pb and trace.json, with host
 * times consistent with the device executions (timestamp_sync_point per
 * execution).  Deterministic for the parameters.  Returns 0 or a negative
 * nxp_error with `st` filled. */
int synth_capture_run(const synth_params *p, const char *dir, int ranks, synth_capture_result *res, nxp_status *st);

/* Workload names, NULL-terminated. */
extern const char *const synth_workload_names[];

/* ---- deterministic PRNG (splitmix64) --------------------------------------- */
typedef struct synth_rng {
	uint64_t s;
} synth_rng;

void synth_rng_seed(synth_rng *r, uint64_t seed);
uint64_t synth_rng_next(synth_rng *r);
/* Uniform in [0, n) (n > 0). */
uint64_t synth_rng_below(synth_rng *r, uint64_t n);
/* Uniform in [0, 1). */
double synth_rng_unit(synth_rng *r);

/* ---- the program model (used by the workloads) ----------------------------- */
#define SYNTH_MAX_CORES 2
#define SYNTH_MAX_DEPS 4
#define SYNTH_NUM_SEMAPHORES 16
#define SYNTH_MAX_QUEUE_SETS 8
#define SYNTH_MAX_VARS 16

/* Address ranges of libnxp's instruction model (doc/formats/neff.md). */
#define SYNTH_SBUF_BASE 0x00000000ull
#define SYNTH_PSUM_BASE 0x02000000ull
#define SYNTH_HBM_BASE 0x10000000ull

/* Per-architecture facts the generator uses.  Clocks and bandwidths come from
 * the library's table (nxp_hardware_for_arch); the rest is synth's. */
typedef struct synth_arch {
	const char *name;
	const char *instance_type;  /* assumption for trn3 */
	double te_ghz, dve_ghz, act_ghz, pool_ghz, nc_ghz;
	double hbm_bw;              /* bytes/s of one HBM stack */
	double dma_ddr_bw;          /* bytes/s, 0 if not public */
	int dma_engines;            /* DMA engines per NeuronCore */
	int64_t channels;           /* partitions processed per cycle by vector/scalar/gpsimd */
	uint64_t sbuf_bytes;
} synth_arch;

/* A tensor of a subgraph (def.json "var"). */
typedef struct synth_var {
	char name[32];
	const char *type;  /* "input", "output", "file", "state-buffer" */
	uint64_t size;     /* bytes */
	uint64_t rows, cols;
	uint64_t hbm_addr; /* where the model places it (HBM) */
	int64_t string_id; /* NTFF string of the name */
} synth_var;

/* A DMA queue set (def.json "dma_queue"): `num_queues` instances. */
typedef struct synth_queue_set {
	char name[32];
	const char *type;   /* "in", "out", "data" */
	int owner;          /* nxp_engine that triggers its transfers */
	int num_queues;
	int semaphore;      /* incremented when one of its transfers completes */
	int next_instance;  /* round robin at build time */
} synth_queue_set;

/* One op of the static program. */
typedef struct synth_op {
	uint8_t engine;         /* nxp_engine */
	uint8_t barrier;        /* waits for every resource (iteration start) */
	uint8_t throttled;      /* duration stretches inside a throttle window */
	int8_t sem_idx;         /* semaphore incremented on completion, -1 none */
	uint32_t pc;
	uint32_t sem_value;     /* value after that increment (within an iteration) */
	uint64_t cost;          /* ticks of the instruction */
	int32_t deps[SYNTH_MAX_DEPS];
	int32_t ndeps;
	/* DMA trigger: the transfer it starts (queue_set < 0: none). */
	int16_t queue_set;
	int16_t queue_instance;
	uint8_t src_mem, dst_mem; /* nxp_memory */
	int16_t var;               /* synth_var index, -1 unknown */
	uint32_t dma_bytes;
	uint32_t packet_bytes;
	uint64_t packet_ticks;     /* data time of one full packet */
} synth_op;

/* One physical core's program. */
typedef struct synth_core {
	synth_op *ops;
	size_t nops, ops_cap;
	uint8_t *code[5];       /* per nxp_engine, 64 bytes per instruction */
	size_t ninstr[5], code_cap[5];
	void *dma_json[5];      /* json_t arrays: engine JSON "dma" entries */
	uint32_t sem_count[SYNTH_NUM_SEMAPHORES]; /* build-time counters */
	synth_var vars[SYNTH_MAX_VARS];
	int nvars;
	synth_queue_set qsets[SYNTH_MAX_QUEUE_SETS];
	int nqsets;
} synth_core;

typedef struct synth_kernel {
	synth_params p;
	synth_arch arch;
	int ncores;
	synth_core core[SYNTH_MAX_CORES];
	int64_t model_flops;     /* per execution: the workload's x iterations */
	uint64_t iterations;     /* program body runs per execution */
	uint64_t dma_latency_ticks;
	int dtype_bf16, dtype_fp32;
	char name[96];
	const char *graph_op;   /* op name of the neff.json graph node ("matmul", "mlp") */
	nxp_status *st;
} synth_kernel;

/* An instruction to add.  Fields not set are 0. */
typedef struct synth_instr {
	int engine;
	const char *opcode;        /* display or ISA name (nxp_opcode_from_name) */
	nxp_access_pattern src, dst;
	uint8_t flags, func;
	uint16_t partitions, active_cols;
	float immediate;
	double cycles;             /* at the engine's clock */
	int32_t deps[SYNTH_MAX_DEPS];
	int ndeps;
	int barrier;
	int throttled;
	int sem_idx;               /* -1 (set by synth_instr_init) */
} synth_instr;

void synth_instr_init(synth_instr *in, int engine, const char *opcode);
/* Add a dependency (op index; negative indices are ignored). */
void synth_instr_dep(synth_instr *in, int32_t op);
/* An access pattern of `rows` partitions by `cols` elements of dtype at addr. */
nxp_access_pattern synth_ap(uint64_t addr, int dtype, uint32_t cols, uint32_t rows);

/* Append an op to core `c`; returns its index or a negative error. */
int32_t synth_add(synth_kernel *k, int c, const synth_instr *in);
/* Append a DMA trigger on the owner engine of queue set `qs`: moves `bytes`
 * from src to dst (access patterns; their addresses pick the memories) for
 * tensor `var`.  Returns the op index (its completion = the transfer's). */
int32_t synth_add_dma(synth_kernel *k, int c, int qs, int var, nxp_access_pattern src,
		      nxp_access_pattern dst, uint32_t bytes, const int32_t *deps, int ndeps);
/* Declare a tensor / a queue set on core `c`; return the index or -1. */
int synth_var_add(synth_kernel *k, int c, const char *name, const char *type, uint64_t rows, uint64_t cols,
		  uint64_t elem_size);
int synth_qset_add(synth_kernel *k, int c, const char *name, const char *type, int owner, int num_queues,
		   int semaphore);
/* Ticks for `cycles` at `ghz` (ticks_per_nanosec = 1). */
uint64_t synth_ticks(double cycles, double ghz);

/* A workload: fills the kernel's cores (vars, queue sets, ops), model_flops
 * and the network name.  Returns 0 or a negative error with k->st filled. */
typedef int (*synth_workload_fn)(synth_kernel *k);
synth_workload_fn synth_workload_find(const char *name);

#endif
