/* SPDX-License-Identifier: MIT */
/* NTFF test fixtures: a deterministic trace generator that writes an NTFF with
 * the library's writer and keeps every note it wrote (the expected model), and
 * a NEFF with a chosen UUID built from the standard NEFF fixture. */
#ifndef NXP_NTFF_FIXTURE_H
#define NXP_NTFF_FIXTURE_H

#include <nxp/nxp.h>

#include <stddef.h>
#include <stdint.h>

typedef struct fxn_spec {
	int pcores;         /* 1 or 2 */
	int compress;       /* NXP_NTFF_WRITE_COMPRESS */
	uint32_t rps;       /* records per section */
	int n_instr;        /* records per instruction queue */
	int n_dma;          /* records per DMA queue */
	int dma_queues;     /* DMA queues per pcore */
	int64_t tpn;        /* ticks per nanosecond */
	uint8_t uuid[16];
	unsigned seed;
} fxn_spec;

void fxn_spec_default(fxn_spec *s);

typedef struct fxn_rec {
	int kind;     /* nxp_queue_kind */
	int32_t qid;
	uint32_t pos; /* position in its queue */
	uint64_t key; /* start tick */
	union {
		nxp_ntff_instruction_note i;
		nxp_ntff_dma_note d;
		nxp_ntff_semaphore_note s;
		nxp_ntff_throttle_note t;
		nxp_ntff_error_note e;
		nxp_ntff_execution_note x;
		nxp_ntff_tpb_note b;
	} n;
} fxn_rec;

#define FXN_MAX_QUEUES 64

typedef struct fxn_model {
	fxn_rec *r;
	size_t n, cap;
	nxp_ntff_queue q[FXN_MAX_QUEUES];
	size_t nq;
	uint32_t qcount[FXN_MAX_QUEUES];
	int64_t tpn;
	int pcores;
	int64_t str_in, str_thermal, str_desc, str_neff; /* string ids */
} fxn_model;

/* Write an NTFF at `path` following `spec`; fills `m` (aborts on failure). */
void fxn_write(const char *path, const fxn_spec *spec, fxn_model *m);
void fxn_model_free(fxn_model *m);
/* Records of `kind` in the reader's order (start tick, queue id, position);
 * `keep` (may be NULL) filters.  Caller frees. */
size_t fxn_sorted(const fxn_model *m, int kind, int (*keep)(const fxn_model *, const fxn_rec *, void *), void *arg,
		  fxn_rec **out);
/* A NEFF (the standard fixture's members) with `uuid`; caller frees. */
void *fxn_neff(const uint8_t uuid[16], size_t *len);

/* Source kinds for fxn_open. */
enum { FXN_SRC_MEMORY = 0, FXN_SRC_CHUNKY = 1, FXN_SRC_SEQUENTIAL = 2 };
typedef struct fxn_pair {
	nxp_source *neff, *ntff;
	nxp_profile *p;
} fxn_pair;
/* Open a profile over two images with sources of `kind`; returns the open's
 * result (sources are closed again on failure). */
int fxn_open(fxn_pair *o, const void *neff, size_t neff_len, const void *ntff, size_t ntff_len, int kind,
	     uint32_t flags, nxp_status *st);
void fxn_close(fxn_pair *o);

/* File surgery for corruption tests. */
typedef struct fxn_section {
	uint64_t offset;
	unsigned kind, queue;
	uint64_t stored_length;
} fxn_section;
/* Walk the section headers of an NTFF image; returns the count (up to max). */
size_t fxn_sections(const uint8_t *img, size_t len, fxn_section *out, size_t max);
/* Recompute the header CRC of the section at `off` after editing it. */
void fxn_fix_section_crc(uint8_t *img, uint64_t off);

#endif
