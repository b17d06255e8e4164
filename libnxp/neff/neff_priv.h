/* SPDX-License-Identifier: MIT */
/* Private to the NEFF module: the handle, the buffered members, and the hooks
 * between neff.c, neff_header.c, neff_archive.c, neff_manifest.c, neff_instr.c
 * and neff_writer.c. */
#ifndef NXP_NEFF_PRIV_H
#define NXP_NEFF_PRIV_H

#include "neff_internal.h"
#include "source.h"
#include "status.h"

#include <stdint.h>

/* Header field offsets (public layout, see doc/formats/neff.md). */
enum {
	NEFF_OFF_PKG_VERSION = 0x000,
	NEFF_OFF_HEADER_SIZE = 0x008,
	NEFF_OFF_DATA_SIZE = 0x010,
	NEFF_OFF_VERSION_MAJOR = 0x018,
	NEFF_OFF_VERSION_MINOR = 0x020,
	NEFF_OFF_BUILD_VERSION = 0x028, /* 128 bytes */
	NEFF_OFF_NUM_TPB = 0x0A8,
	NEFF_OFF_HASH = 0x0AC, /* 32 bytes */
	NEFF_OFF_UUID = 0x0CC, /* 16 bytes */
	NEFF_OFF_NAME = 0x0DC, /* 256 bytes */
	NEFF_OFF_REQUESTED_TPB = 0x1DC,
	NEFF_OFF_TPB_PER_NODE = 0x1E0, /* 64 bytes */
	NEFF_OFF_FEATURE_BITS = 0x220,
	NEFF_OFF_LNC_SIZE = 0x228,
};

/* Supported versions: the message of NXP_E_VERSION names these. */
#define NEFF_MAX_VERSION_MAJOR 2

/* Resolved limits (defaults filled in). */
typedef struct neff_limits {
	uint32_t flags;
	uint64_t max_member_size;
	uint64_t max_total_inflated;
	uint32_t max_inflation_ratio;
	uint64_t max_json_size;
	uint32_t max_json_depth;
	uint32_t max_members;
} neff_limits;

#define NEFF_DEFAULT_MAX_MEMBER_SIZE (256ull << 20)
#define NEFF_DEFAULT_MAX_TOTAL_INFLATED (4ull << 30)
#define NEFF_DEFAULT_MAX_INFLATION_RATIO 1000u
#define NEFF_RATIO_CHECK_AFTER (1ull << 20)
#define NEFF_DEFAULT_MAX_JSON_SIZE (64ull << 20)
#define NEFF_DEFAULT_MAX_JSON_DEPTH 64u
#define NEFF_DEFAULT_MAX_MEMBERS 1000000u

/* An archive member kept in memory during the walk. */
typedef struct neff_member {
	char *name;     /* normalised ("./" stripped) */
	uint8_t *data;  /* malloc'ed; NULL after ownership moved */
	size_t len;
	int64_t offset; /* file offset used in error messages */
} neff_member;

/* One engine's instruction stream of one subgraph. */
typedef struct neff_stream {
	uint8_t *raw;           /* count * 64 bytes, owned */
	uint64_t count;
	nxp_static_instr *si;   /* count entries, owned */
	char *text;             /* operand strings of all instructions, owned */
	const char *bin_path;   /* member name, arena */
	const char *json_path;  /* engine JSON member name, arena ("" if none) */
} neff_stream;

typedef struct neff_subgraph {
	const char *name;
	const char *definition;
	const char *def_name; /* "name" key of def.json, "" if absent */
	size_t tensor_first, tensor_count;
	size_t queue_first, queue_count;
	neff_stream eng[NXP_ENGINE_COUNT];
} neff_subgraph;

struct neff_arena_block;

struct nxp_neff {
	nxp_source *src;
	int own_src;
	nxp_status err;
	neff_limits lim;
	nxp_neff_header hdr;

	neff_member *members;
	size_t nmembers, members_cap;

	int has_kernel_debug_info;
	int has_neff_json;
	int64_t model_flops;
	uint64_t warnings;

	neff_subgraph *sgs;
	size_t nsgs;
	nxp_tensor_info *tensors;
	size_t ntensors, tensors_cap;
	nxp_neff_queue *queues;
	size_t nqueues, queues_cap;

	struct neff_arena_block *arena;
};

/* neff.c: record an error in the handle (and return its code). */
int neff_fail(nxp_neff *n, int code, int64_t offset, const char *fmt, ...) NXP_PRINTF(4, 5);
/* neff.c: copies that live as long as the handle; NULL when out of memory. */
const char *neff_strdup(nxp_neff *n, const char *s);
const char *neff_strndup(nxp_neff *n, const char *s, size_t len);

/* neff_header.c: encode a header (the writer's inverse of nxp_neff_parse_header). */
void neff_header_encode(const nxp_neff_header *h, uint8_t out[NXP_NEFF_HEADER_SIZE]);

/* neff_archive.c: normalise a member name: strip leading "./" (repeatedly) and
 * trailing "/".  Returns NXP_OK with a malloc'ed *out, NXP_E_UNSAFE_PATH
 * (absolute, or a ".." component) or NXP_E_NOMEM. */
int neff_path_normalise(const char *in, char **out);
/* neff_archive.c: walk the payload (the source is positioned right after the
 * header), buffer the members that matter, verify the digest on request. */
int neff_archive_walk(nxp_neff *n);
/* neff_archive.c: the buffered member called `name`, or NULL. */
neff_member *neff_member_find(nxp_neff *n, const char *name);

/* neff_manifest.c: build subgraphs, tensors, queues and streams from the members. */
int neff_manifest_load(nxp_neff *n);

/* neff_instr.c: the full decode behind nxp_instruction_decode.  `out` is a
 * library-size struct; `si` (optional) receives the static facts; `text` may be
 * NULL (operands = "").  Never fails: the caller validates the length. */
void neff_instr_decode(const uint8_t raw[NXP_NEFF_INSTRUCTION_SIZE], int engine, nxp_neff_instruction *out,
		       nxp_static_instr *si, char *text, size_t text_len);
/* neff_instr.c: precompute the static facts of a stream (raw and count set). */
int neff_stream_build(nxp_neff *n, neff_stream *s, int engine);

#endif
