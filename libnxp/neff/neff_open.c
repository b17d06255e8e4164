/* SPDX-License-Identifier: MIT */
/* The NEFF handle: open (header, archive walk, manifests), queries, engine names. */
#include "neff_priv.h"

#include "abi_struct.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- Engine names ---- */
static const struct {
	const char *name, *shortname, *alias;
} engines[NXP_ENGINE_COUNT] = {
	[NXP_ENGINE_TENSOR] = {"tensor", "pe", "pe"},
	[NXP_ENGINE_VECTOR] = {"vector", "dve", "dve"},
	[NXP_ENGINE_SCALAR] = {"scalar", "act", "activation"},
	[NXP_ENGINE_GPSIMD] = {"gpsimd", "pool", "pool"},
	[NXP_ENGINE_SYNC] = {"sync", "sp", "sp"},
};

const char *nxp_engine_name(int engine)
{
	return engine >= 0 && engine < NXP_ENGINE_COUNT ? engines[engine].name : NULL;
}

const char *nxp_engine_short_name(int engine)
{
	return engine >= 0 && engine < NXP_ENGINE_COUNT ? engines[engine].shortname : NULL;
}

int nxp_engine_from_name(const char *name)
{
	if (!name)
		return -1;
	for (int i = 0; i < NXP_ENGINE_COUNT; i++)
		if (!strcasecmp(name, engines[i].name) || !strcasecmp(name, engines[i].shortname) ||
		    !strcasecmp(name, engines[i].alias))
			return i;
	return -1;
}

/* ---- Arena for strings that live as long as the handle ---- */
struct neff_arena_block {
	struct neff_arena_block *next;
	size_t used, cap;
	char data[];
};

#define ARENA_BLOCK 16384

const char *neff_strndup(nxp_neff *n, const char *s, size_t len)
{
	struct neff_arena_block *b = n->arena;
	if (!b || b->cap - b->used < len + 1) {
		size_t cap = len + 1 > ARENA_BLOCK ? len + 1 : ARENA_BLOCK;
		b = malloc(sizeof(*b) + cap);
		if (!b)
			return NULL;
		b->used = 0;
		b->cap = cap;
		b->next = n->arena;
		n->arena = b;
	}
	char *p = b->data + b->used;
	memcpy(p, s, len);
	p[len] = '\0';
	b->used += len + 1;
	return p;
}

const char *neff_strdup(nxp_neff *n, const char *s)
{
	return neff_strndup(n, s, strlen(s));
}

int neff_fail(nxp_neff *n, int code, int64_t offset, const char *fmt, ...)
{
	nxp_status_init(&n->err);
	va_list ap;
	va_start(ap, fmt);
	nxp__error_setv(&n->err, code, offset, fmt, ap);
	va_end(ap);
	return code;
}

/* ---- Open / close ---- */
/* 0.1 accepted options as short as their `flags` field (below NXP_NEFF_OPTIONS_SIZE_V0_1); still does. */
#define NEFF_OPTIONS_MIN_SIZE (offsetof(nxp_neff_options, flags) + sizeof(((nxp_neff_options *)0)->flags))

static void resolve_limits(neff_limits *l, const nxp_neff_options *o)
{
	nxp_neff_options d;
	nxp_neff_options_init(&d);
	if (o) /* callers with a shorter (older) struct get defaults for the rest */
		NXP__STRUCT_IN_DEFAULTS(d, o, NEFF_OPTIONS_MIN_SIZE);
	l->flags = d.flags;
	l->max_member_size = d.max_member_size ? d.max_member_size : NEFF_DEFAULT_MAX_MEMBER_SIZE;
	l->max_total_inflated = d.max_total_inflated ? d.max_total_inflated : NEFF_DEFAULT_MAX_TOTAL_INFLATED;
	l->max_inflation_ratio = d.max_inflation_ratio ? d.max_inflation_ratio : NEFF_DEFAULT_MAX_INFLATION_RATIO;
	l->max_json_size = d.max_json_size ? d.max_json_size : NEFF_DEFAULT_MAX_JSON_SIZE;
	l->max_json_depth = d.max_json_depth ? d.max_json_depth : NEFF_DEFAULT_MAX_JSON_DEPTH;
	l->max_members = d.max_members ? d.max_members : NEFF_DEFAULT_MAX_MEMBERS;
}

static void free_members(nxp_neff *n)
{
	for (size_t i = 0; i < n->nmembers; i++) {
		free(n->members[i].name);
		free(n->members[i].data);
	}
	free(n->members);
	n->members = NULL;
	n->nmembers = n->members_cap = 0;
}

void nxp_neff_close(nxp_neff *n)
{
	if (!n)
		return;
	free_members(n);
	for (size_t i = 0; i < n->nsgs; i++)
		for (int e = 0; e < NXP_ENGINE_COUNT; e++) {
			free(n->sgs[i].eng[e].raw);
			free(n->sgs[i].eng[e].si);
			free(n->sgs[i].eng[e].text);
		}
	free(n->sgs);
	free(n->tensors);
	free(n->queues);
	while (n->arena) {
		struct neff_arena_block *next = n->arena->next;
		free(n->arena);
		n->arena = next;
	}
	if (n->own_src)
		nxp_source_close(n->src);
	free(n);
}

static int neff_load(nxp_neff *n)
{
	uint8_t hdr[NXP_NEFF_HEADER_SIZE];
	size_t got = 0;
	int rc = nxp_src_pread(n->src, 0, hdr, sizeof(hdr), &got);
	if (rc == NXP_E_UNSUPPORTED)
		return neff_fail(n, rc, 0, "the source has already been read past the NEFF header");
	if (rc)
		return neff_fail(n, rc, (int64_t)got, "read error in the NEFF header");
	n->hdr.struct_size = sizeof(n->hdr);
	rc = nxp_neff_parse_header(hdr, got, nxp_source_size(n->src), &n->hdr, &n->err);
	if (rc)
		return rc;
	rc = neff_archive_walk(n);
	if (!rc)
		rc = neff_manifest_load(n);
	free_members(n); /* the JSON is parsed; the instruction bytes moved to the streams */
	return rc;
}

int nxp_neff_open(nxp_neff **out, nxp_source *src, const nxp_neff_options *opts, nxp_status *st)
{
	if (out)
		*out = NULL;
	if (!out || !src || (opts && !nxp__struct_size_ok(opts, NEFF_OPTIONS_MIN_SIZE)))
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_neff_open: NULL argument or short options struct_size");
	nxp_neff *n = calloc(1, sizeof(*n));
	if (!n)
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	nxp_status_init(&n->err);
	n->src = src;
	n->model_flops = -1;
	resolve_limits(&n->lim, opts);
	int rc = neff_load(n);
	if (rc) {
		nxp_status_copy(st, &n->err);
		nxp_neff_close(n);
		return rc;
	}
	nxp_status_clear(st);
	*out = n;
	return NXP_OK;
}

int nxp_neff_open_path(nxp_neff **out, const char *path, const nxp_neff_options *opts, nxp_status *st)
{
	if (out)
		*out = NULL;
	if (!out || !path)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_neff_open_path: NULL argument");
	nxp_source *src;
	int rc = nxp_source_open_path(&src, path, st);
	if (rc)
		return rc;
	rc = nxp_neff_open(out, src, opts, st);
	if (rc) {
		nxp_source_close(src);
		return rc;
	}
	(*out)->own_src = 1;
	return NXP_OK;
}

int nxp_neff_error(const nxp_neff *n, nxp_status *st)
{
	if (!n)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_neff_error: NULL handle");
	return nxp_status_copy(st, &n->err);
}

uint64_t nxp_neff_warning_count(const nxp_neff *n)
{
	return n ? n->warnings : 0;
}

/* Misuse of a query is recorded as the handle's last error. */
static int query_fail(const nxp_neff *n, int code, const char *fmt, ...) NXP_PRINTF(3, 4);
static int query_fail(const nxp_neff *n, int code, const char *fmt, ...)
{
	if (!n)
		return code;
	nxp_neff *m = (nxp_neff *)n;
	nxp_status_init(&m->err);
	va_list ap;
	va_start(ap, fmt);
	nxp__error_setv(&m->err, code, -1, fmt, ap);
	va_end(ap);
	return code;
}

/* ---- Queries ---- */
int nxp_neff_get_header(const nxp_neff *n, nxp_neff_header *out)
{
	if (!n || !nxp__struct_size_ok(out, NXP_NEFF_HEADER_SIZE_V0_1))
		return query_fail(n, NXP_E_INVAL, "nxp_neff_get_header: NULL argument or short struct_size");
	NXP__STRUCT_OUT(out, n->hdr, NXP_NEFF_HEADER_SIZE_V0_1);
	return NXP_OK;
}

size_t nxp_neff_subgraph_count(const nxp_neff *n)
{
	return n ? n->nsgs : 0;
}

int nxp_neff_get_subgraph(const nxp_neff *n, size_t index, nxp_neff_subgraph *out)
{
	if (!n || !nxp__struct_size_ok(out, NXP_NEFF_SUBGRAPH_SIZE_V0_1))
		return query_fail(n, NXP_E_INVAL, "nxp_neff_get_subgraph: NULL argument or short struct_size");
	if (index >= n->nsgs)
		return query_fail(n, NXP_E_RANGE, "subgraph %zu out of range (%zu subgraphs)", index, n->nsgs);
	const neff_subgraph *sg = &n->sgs[index];
	nxp_neff_subgraph s;
	memset(&s, 0, sizeof(s));
	s.struct_size = sizeof(s);
	s.name = sg->name;
	s.definition = sg->definition;
	s.pcore_idx = (int64_t)index;
	s.tensor_count = sg->tensor_count;
	s.dma_queue_count = sg->queue_count;
	for (int e = 0; e < NXP_ENGINE_COUNT; e++)
		s.instruction_count[e] = sg->eng[e].count;
	NXP__STRUCT_OUT(out, s, NXP_NEFF_SUBGRAPH_SIZE_V0_1);
	return NXP_OK;
}

size_t nxp_neff_tensor_count(const nxp_neff *n)
{
	return n ? n->ntensors : 0;
}

int nxp_neff_get_tensor(const nxp_neff *n, size_t index, nxp_tensor_info *out)
{
	if (!n || !nxp__struct_size_ok(out, NXP_TENSOR_INFO_SIZE_V0_1))
		return query_fail(n, NXP_E_INVAL, "nxp_neff_get_tensor: NULL argument or short struct_size");
	if (index >= n->ntensors)
		return query_fail(n, NXP_E_RANGE, "tensor %zu out of range (%zu tensors)", index, n->ntensors);
	NXP__STRUCT_OUT(out, n->tensors[index], NXP_TENSOR_INFO_SIZE_V0_1);
	return NXP_OK;
}

size_t nxp_neff_dma_queue_count(const nxp_neff *n)
{
	return n ? n->nqueues : 0;
}

int nxp_neff_get_dma_queue(const nxp_neff *n, size_t index, nxp_dma_queue_info *out)
{
	if (!n || !nxp__struct_size_ok(out, NXP_DMA_QUEUE_INFO_SIZE_V0_1))
		return query_fail(n, NXP_E_INVAL, "nxp_neff_get_dma_queue: NULL argument or short struct_size");
	if (index >= n->nqueues)
		return query_fail(n, NXP_E_RANGE, "DMA queue %zu out of range (%zu queues)", index, n->nqueues);
	const nxp_neff_queue *q = &n->queues[index];
	nxp_dma_queue_info d = {
		.struct_size = sizeof(d),
		.name = q->name,
		.type = q->type,
		.neff_type = q->neff_type,
		.owner = q->owner,
		.pcore_idx = q->pcore_idx,
		.idx = q->idx,
		.engine_idx = q->engine_idx,
		.axi_port = q->axi_port,
		.dram_channel = q->dram_channel,
	};
	NXP__STRUCT_OUT(out, d, NXP_DMA_QUEUE_INFO_SIZE_V0_1);
	return NXP_OK;
}

static const neff_stream *stream_of(const nxp_neff *n, size_t sg, int engine)
{
	if (!n || sg >= n->nsgs || engine < 0 || engine >= NXP_ENGINE_COUNT)
		return NULL;
	return &n->sgs[sg].eng[engine];
}

int64_t nxp_neff_instruction_count(const nxp_neff *n, size_t sg, int engine)
{
	const neff_stream *s = stream_of(n, sg, engine);
	return s ? (int64_t)s->count : -1;
}

int nxp_neff_get_instruction(const nxp_neff *n, size_t sg, int engine, uint64_t pc, nxp_neff_instruction *out)
{
	if (!n || !nxp__struct_size_ok(out, NXP_NEFF_INSTRUCTION_MIN_SIZE))
		return query_fail(n, NXP_E_INVAL, "nxp_neff_get_instruction: NULL argument or short struct_size");
	const neff_stream *s = stream_of(n, sg, engine);
	if (!s || pc >= s->count)
		return query_fail(n, NXP_E_RANGE, "no instruction %llu on engine %d of subgraph %zu",
				  (unsigned long long)pc, engine, sg);
	nxp_neff_instruction full;
	neff_instr_decode(s->raw + pc * NXP_NEFF_INSTRUCTION_SIZE, engine, &full, NULL, NULL, 0);
	full.pc = (int64_t)pc;
	full.pcore_idx = (int64_t)sg;
	full.operands = s->si[pc].operands;
	NXP__STRUCT_OUT(out, full, NXP_NEFF_INSTRUCTION_MIN_SIZE);
	return NXP_OK;
}

const nxp_static_instr *nxp_neff_static_instr(const nxp_neff *n, size_t sg, int engine, uint64_t pc)
{
	const neff_stream *s = stream_of(n, sg, engine);
	return s && pc < s->count ? &s->si[pc] : NULL;
}

const nxp_static_instr *nxp_neff_static_stream(const nxp_neff *n, size_t sg, int engine, uint64_t *count)
{
	const neff_stream *s = stream_of(n, sg, engine);
	*count = s && s->si ? s->count : 0;
	return *count ? s->si : NULL;
}

int nxp_neff_has_kernel_debug_info(const nxp_neff *n)
{
	return n ? n->has_kernel_debug_info : 0;
}

const nxp_neff_queue *nxp_neff_find_queue(const nxp_neff *n, int64_t pcore, const char *name, int64_t idx)
{
	if (!n || !name || pcore < 0 || (uint64_t)pcore >= n->nsgs)
		return NULL;
	const neff_subgraph *sg = &n->sgs[pcore];
	for (size_t i = sg->queue_first; i < sg->queue_first + sg->queue_count; i++)
		if (n->queues[i].idx == idx && !strcmp(n->queues[i].name, name))
			return &n->queues[i];
	return NULL;
}

void nxp_neff_get_totals(const nxp_neff *n, nxp_neff_totals *out)
{
	out->weight_size_bytes = out->input_size_bytes = out->output_size_bytes = -1;
	out->model_flops = -1;
	out->dma_queue_count = 0;
	if (!n)
		return;
	static const char *const kinds[3] = {"file", "input", "output"};
	int64_t *slots[3] = {&out->weight_size_bytes, &out->input_size_bytes, &out->output_size_bytes};
	for (size_t i = 0; i < n->ntensors; i++) {
		const nxp_tensor_info *t = &n->tensors[i];
		if (t->size < 0)
			continue;
		for (int k = 0; k < 3; k++)
			if (!strcmp(t->type, kinds[k]))
				*slots[k] = (*slots[k] < 0 ? 0 : *slots[k]) + t->size;
	}
	out->model_flops = n->model_flops;
	out->dma_queue_count = (int64_t)n->nqueues;
}
