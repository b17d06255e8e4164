/* SPDX-License-Identifier: MIT */
/* NTFF writer: one buffer of records_per_section records per queue; a full
 * buffer becomes a DATA section (optionally zlib-compressed).  STRTAB, QUEUES,
 * META and INDEX sections and the footer are written by finish(). */
#include "abi_struct.h"
#include "ntff_layout.h"
#include "ntff_priv.h"
#include "status.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_RECORDS_PER_SECTION 8192u

struct wqueue {
	ntff_queue_entry e;
	size_t rsize;
	uint8_t *buf;
	uint32_t n;
	uint64_t first, last, max_end;
	uint64_t last_key;
	int has_last;
};

struct nxp_ntff_writer {
	FILE *f;
	uint64_t pos;
	nxp_status err;
	int failed, finished, unchecked;
	uint32_t flags, rps;
	int level;
	ntff_file_header hdr;
	ntff_meta_entry meta[NTFF_META_KEY_COUNT];
	size_t nmeta;
	/* string table + intern hash (offsets; 0 = empty slot) */
	char *str;
	size_t str_len, str_cap;
	uint32_t *slots;
	size_t nslots, nstrings;
	struct wqueue *q;
	size_t nq, capq;
	ntff_index_entry *idx;
	size_t nidx, capidx;
};

static int wfail(nxp_ntff_writer *w, int code, const char *fmt, const char *arg)
{
	nxp__error_set(&w->err, code, (int64_t)w->pos, fmt, arg);
	if (code == NXP_E_IO || code == NXP_E_NOMEM || code == NXP_E_COMPRESSION)
		w->failed = 1; /* the file is now unusable */
	return code;
}

static int wusable(nxp_ntff_writer *w)
{
	if (w->failed)
		return w->err.code;
	if (w->finished)
		return wfail(w, NXP_E_INVAL, "NTFF writer: already finished%s", "");
	return NXP_OK;
}

static uint32_t fnv1a(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (uint8_t)s[i]) * 16777619u;
	return h;
}

static int str_grow_slots(nxp_ntff_writer *w)
{
	size_t n = w->nslots ? w->nslots * 2 : 256;
	uint32_t *s = calloc(n, sizeof(*s));
	if (!s)
		return NXP_E_NOMEM;
	for (size_t i = 0; i < w->nslots; i++) {
		uint32_t off = w->slots[i];
		if (!off)
			continue;
		const char *t = w->str + off;
		size_t j = fnv1a(t, strlen(t)) & (n - 1);
		while (s[j])
			j = (j + 1) & (n - 1);
		s[j] = off;
	}
	free(w->slots);
	w->slots = s;
	w->nslots = n;
	return NXP_OK;
}

int64_t nxp_ntff_writer_string(nxp_ntff_writer *w, const char *s)
{
	if (!w || !s)
		return NXP_E_INVAL;
	int rc = wusable(w);
	if (rc)
		return rc;
	size_t n = strlen(s);
	if ((w->nstrings + 1) * 2 > w->nslots && str_grow_slots(w))
		return wfail(w, NXP_E_NOMEM, "NTFF writer: out of memory%s", "");
	size_t j = fnv1a(s, n) & (w->nslots - 1);
	while (w->slots[j]) {
		const char *t = w->str + w->slots[j];
		if (strncmp(t, s, n) == 0 && t[n] == '\0')
			return w->slots[j];
		j = (j + 1) & (w->nslots - 1);
	}
	if (w->str_len + n + 1 > UINT32_MAX)
		return wfail(w, NXP_E_LIMIT, "NTFF writer: string table exceeds 4 GiB%s", "");
	if (w->str_len + n + 1 > w->str_cap) {
		size_t cap = w->str_cap * 2;
		while (cap < w->str_len + n + 1)
			cap *= 2;
		char *p = realloc(w->str, cap);
		if (!p)
			return wfail(w, NXP_E_NOMEM, "NTFF writer: out of memory%s", "");
		w->str = p;
		w->str_cap = cap;
	}
	uint32_t off = (uint32_t)w->str_len;
	memcpy(w->str + off, s, n + 1);
	w->str_len += n + 1;
	w->slots[j] = off;
	w->nstrings++;
	return off;
}

static int wwrite(nxp_ntff_writer *w, const void *p, size_t n)
{
	if (n && fwrite(p, 1, n, w->f) != n)
		return wfail(w, NXP_E_IO, "NTFF writer: write failed: %s", strerror(errno));
	w->pos += n;
	return NXP_OK;
}

static int index_add(nxp_ntff_writer *w, const ntff_index_entry *e)
{
	if (w->nidx == w->capidx) {
		size_t cap = w->capidx ? w->capidx * 2 : 64;
		ntff_index_entry *p = realloc(w->idx, cap * sizeof(*p));
		if (!p)
			return wfail(w, NXP_E_NOMEM, "NTFF writer: out of memory%s", "");
		w->idx = p;
		w->capidx = cap;
	}
	w->idx[w->nidx++] = *e;
	return NXP_OK;
}

/* Write one section (header + payload) and record it in the index. */
static int emit(nxp_ntff_writer *w, ntff_section_header *h, const uint8_t *raw, size_t raw_len, int add_index)
{
	uint8_t hb[NTFF_SECTION_HEADER_SIZE];
	uint8_t *packed = NULL;
	const uint8_t *stored = raw;
	size_t stored_len = raw_len;
	h->flags = 0;
	if ((w->flags & NXP_NTFF_WRITE_COMPRESS) && raw_len) {
		int rc = ntff_deflate(raw, raw_len, w->level, &packed, &stored_len);
		if (rc)
			return wfail(w, rc, "NTFF writer: compression failed%s", "");
		stored = packed;
		h->flags |= NTFF_SEC_ZLIB;
	}
	h->raw_length = raw_len;
	h->stored_length = stored_len;
	h->data_crc = ntff_crc32(stored, stored_len);
	ntff_section_header_encode(h, hb);
	ntff_index_entry e = {.offset = w->pos, .kind = h->kind, .flags = h->flags, .queue = h->queue,
			      .count = h->record_count, .stored_length = stored_len, .first_ts = h->first_ts,
			      .last_ts = h->last_ts, .max_end_ts = h->max_end_ts};
	int rc = wwrite(w, hb, sizeof(hb));
	if (!rc)
		rc = wwrite(w, stored, stored_len);
	free(packed);
	if (!rc && add_index)
		rc = index_add(w, &e);
	return rc;
}

static int flush_queue(nxp_ntff_writer *w, uint32_t qi)
{
	struct wqueue *q = &w->q[qi];
	if (!q->n)
		return NXP_OK;
	ntff_section_header h;
	memset(&h, 0, sizeof(h));
	h.kind = NTFF_SEC_DATA;
	h.queue = qi;
	h.record_kind = q->e.kind;
	h.record_size = (uint16_t)q->rsize;
	h.record_count = q->n;
	h.first_ts = q->first;
	h.last_ts = q->last;
	h.max_end_ts = q->max_end;
	int rc = emit(w, &h, q->buf, (size_t)q->n * q->rsize, 1);
	q->n = 0;
	return rc;
}

static void put_meta(nxp_ntff_writer *w, unsigned key, unsigned type, uint64_t v)
{
	ntff_meta_entry m = {.key = (uint16_t)key, .type = (uint16_t)type, .value = v};
	w->meta[w->nmeta++] = m;
}

static void put_f64(nxp_ntff_writer *w, unsigned key, double d)
{
	uint64_t v;
	memcpy(&v, &d, sizeof(v));
	put_meta(w, key, NTFF_META_F64, v);
}

static int put_str(nxp_ntff_writer *w, unsigned key, const char *s)
{
	if (!s)
		return NXP_OK;
	int64_t id = nxp_ntff_writer_string(w, s);
	if (id < 0)
		return (int)id;
	put_meta(w, key, NTFF_META_STR, (uint64_t)id);
	return NXP_OK;
}

int nxp_ntff_writer_open_path(nxp_ntff_writer **out, const char *path, const nxp_ntff_info *info,
			      const nxp_ntff_writer_options *opts, nxp_status *st)
{
	if (!out || !path || !nxp__struct_size_ok(info, offsetof(nxp_ntff_info, num_physical_cores) + sizeof(int32_t)))
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_ntff_writer_open_path: NULL argument or short struct");
	*out = NULL;
	if (opts && !nxp__struct_size_ok(opts, offsetof(nxp_ntff_writer_options, compression_level) + sizeof(int32_t)))
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_ntff_writer_open_path: short options struct");
	nxp_ntff_info in; /* fields an older caller's header lacks keep their defaults */
	nxp_ntff_info_init(&in);
	nxp__struct_in_defaults(&in, sizeof(in), info, sizeof(size_t));
	nxp_ntff_writer_options o;
	nxp_ntff_writer_options_init(&o);
	if (opts)
		nxp__struct_in_defaults(&o, sizeof(o), opts, sizeof(size_t));
	if (in.ticks_per_nanosec <= 0 || in.num_physical_cores <= 0 || in.num_physical_cores > 64)
		return nxp__error_set(st, NXP_E_INVAL, -1,
				"nxp_ntff_writer_open_path: ticks_per_nanosec must be > 0 and num_physical_cores 1..64");
	uint32_t rps = o.records_per_section ? o.records_per_section : DEFAULT_RECORDS_PER_SECTION;
	if ((uint64_t)rps * NTFF_REC_DMA_SIZE > NTFF_DEFAULT_MAX_SECTION)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_ntff_writer_open_path: records_per_section %u too large", rps);

	nxp_ntff_writer *w = calloc(1, sizeof(*w));
	if (!w || !(w->str = malloc(4096))) {
		free(w);
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	}
	nxp_status_init(&w->err);
	w->str_cap = 4096;
	w->str[0] = '\0';
	w->str_len = 1;
	w->flags = o.flags;
	w->level = o.compression_level;
	w->rps = rps;
	w->hdr.layout_version = NTFF_LAYOUT_VERSION;
	w->hdr.ntff_version = in.ntff_version ? in.ntff_version : 6;
	w->hdr.ticks_per_nanosec = in.ticks_per_nanosec;
	w->hdr.num_physical_cores = in.num_physical_cores;
	memcpy(w->hdr.neff_uuid, in.neff_uuid, 16);
	memcpy(w->hdr.neff_hash, in.neff_hash, 32);

	int rc = put_str(w, NTFF_META_ARCH, in.arch);
	if (!rc) rc = put_str(w, NTFF_META_INSTANCE_TYPE, in.instance_type);
	if (!rc) rc = put_str(w, NTFF_META_RUNTIME_VERSION, in.runtime_version);
	if (!rc) rc = put_str(w, NTFF_META_COLLECTIVES_VERSION, in.collectives_version);
	if (!rc) rc = put_str(w, NTFF_META_DRIVER_VERSION, in.driver_version);
	if (!rc) rc = put_str(w, NTFF_META_COMPILER_VERSION, in.compiler_version);
	if (!rc) rc = put_str(w, NTFF_META_PROFILE_NAME, in.profile_name);
	if (rc) {
		nxp_status_copy(st, &w->err);
		nxp_ntff_writer_close(w);
		return rc;
	}
	put_f64(w, NTFF_META_TENSOR_CLOCK, in.tensor_engine_clock_freq);
	put_f64(w, NTFF_META_VECTOR_CLOCK, in.vector_engine_clock_freq);
	put_f64(w, NTFF_META_SCALAR_CLOCK, in.scalar_engine_clock_freq);
	put_f64(w, NTFF_META_GPSIMD_CLOCK, in.gpsimd_engine_clock_freq);
	put_f64(w, NTFF_META_NEURONCORE_CLOCK, in.neuroncore_clock_freq);
	put_meta(w, NTFF_META_TE_ROWS, NTFF_META_I64, (uint64_t)in.tensor_engine_num_rows);
	put_meta(w, NTFF_META_TE_COLS, NTFF_META_I64, (uint64_t)in.tensor_engine_num_cols);
	put_meta(w, NTFF_META_VECTOR_CHANNELS, NTFF_META_I64, (uint64_t)in.vector_engine_num_channels);
	put_meta(w, NTFF_META_SCALAR_CHANNELS, NTFF_META_I64, (uint64_t)in.scalar_engine_num_channels);
	put_meta(w, NTFF_META_GPSIMD_CHANNELS, NTFF_META_I64, (uint64_t)in.gpsimd_engine_num_channels);
	put_meta(w, NTFF_META_DMA_ENGINES, NTFF_META_I64, (uint64_t)(int64_t)in.num_dma_engines_per_neuroncore);
	put_f64(w, NTFF_META_DMA_DDR_BW, in.dma_ddr_bandwidth);
	put_f64(w, NTFF_META_HBM_DDR_BW, in.hbm_ddr_bandwidth);
	put_meta(w, NTFF_META_NEURONCORE_IDX, NTFF_META_I64, (uint64_t)in.neuroncore_idx);
	put_meta(w, NTFF_META_DEVICE_IDX, NTFF_META_I64, (uint64_t)in.neuron_device_idx);
	put_meta(w, NTFF_META_CAPTURE_TIME, NTFF_META_I64, (uint64_t)in.capture_time_ns);
	put_meta(w, NTFF_META_IS_SIMULATION, NTFF_META_I64, (uint64_t)(int64_t)in.is_simulation);

	w->f = fopen(path, "wb");
	if (!w->f) {
		rc = nxp__error_set(st, NXP_E_IO, -1, "%s: %s", path, strerror(errno));
		nxp_ntff_writer_close(w);
		return rc;
	}
	uint8_t hb[NTFF_FILE_HEADER_SIZE];
	ntff_file_header_encode(&w->hdr, hb);
	if ((rc = wwrite(w, hb, sizeof(hb))) != 0) {
		nxp_status_copy(st, &w->err);
		nxp_ntff_writer_close(w);
		return rc;
	}
	*out = w;
	return NXP_OK;
}

int32_t nxp_ntff_writer_add_queue(nxp_ntff_writer *w, const nxp_ntff_queue *q)
{
	if (!w || !nxp__struct_size_ok(q, offsetof(nxp_ntff_queue, engine_idx) + sizeof(int32_t)))
		return NXP_E_INVAL;
	int rc = wusable(w);
	if (rc)
		return rc;
	if (q->kind < NXP_QUEUE_INSTRUCTION || q->kind > NXP_QUEUE_TPB)
		return wfail(w, NXP_E_INVAL, "NTFF writer: unknown queue kind%s", "");
	if (q->kind == NXP_QUEUE_INSTRUCTION && (q->engine < 0 || q->engine >= NXP_ENGINE_COUNT))
		return wfail(w, NXP_E_INVAL, "NTFF writer: instruction queue needs an engine%s", "");
	if (q->pcore_idx < 0 || q->pcore_idx >= w->hdr.num_physical_cores)
		return wfail(w, NXP_E_INVAL, "NTFF writer: pcore_idx out of range%s", "");
	if (w->nq >= INT32_MAX - 1)
		return wfail(w, NXP_E_LIMIT, "NTFF writer: too many queues%s", "");
	uint32_t name = 0;
	if (q->name) {
		int64_t id = nxp_ntff_writer_string(w, q->name);
		if (id < 0)
			return (int32_t)id;
		name = (uint32_t)id;
	}
	if (w->nq == w->capq) {
		size_t cap = w->capq ? w->capq * 2 : 16;
		struct wqueue *p = realloc(w->q, cap * sizeof(*p));
		if (!p)
			return wfail(w, NXP_E_NOMEM, "NTFF writer: out of memory%s", "");
		w->q = p;
		w->capq = cap;
	}
	struct wqueue *wq = &w->q[w->nq];
	memset(wq, 0, sizeof(*wq));
	wq->e.kind = (uint16_t)q->kind;
	wq->e.engine = (int16_t)(q->kind == NXP_QUEUE_INSTRUCTION ? q->engine : -1);
	wq->e.pcore = (uint32_t)q->pcore_idx;
	wq->e.name = name;
	wq->e.queue_idx = q->queue_idx;
	wq->e.engine_idx = q->engine_idx;
	wq->rsize = ntff_record_size(q->kind);
	return (int32_t)w->nq++;
}

/* The slot for the next record of `queue` (checks kind and time order). */
static uint8_t *slot(nxp_ntff_writer *w, int32_t queue, unsigned kind, uint64_t key, int *rc)
{
	*rc = w ? wusable(w) : NXP_E_INVAL;
	if (*rc)
		return NULL;
	if (queue < 0 || (size_t)queue >= w->nq || w->q[queue].e.kind != kind) {
		*rc = wfail(w, NXP_E_INVAL, "NTFF writer: bad queue id or queue of another kind%s", "");
		return NULL;
	}
	struct wqueue *q = &w->q[queue];
	if (!w->unchecked && ((q->has_last && key < q->last_key) || key > (uint64_t)INT64_MAX)) {
		*rc = wfail(w, NXP_E_RANGE, "NTFF writer: notification goes back in time on its queue%s", "");
		return NULL;
	}
	if (!q->buf && !(q->buf = malloc((size_t)w->rps * q->rsize))) {
		*rc = wfail(w, NXP_E_NOMEM, "NTFF writer: out of memory%s", "");
		return NULL;
	}
	return q->buf + (size_t)q->n * q->rsize;
}

static int commit(nxp_ntff_writer *w, int32_t queue, uint64_t key)
{
	struct wqueue *q = &w->q[queue];
	const uint8_t *p = q->buf + (size_t)q->n * q->rsize;
	uint64_t end = ntff_record_end(q->e.kind, p);
	if (!q->n) {
		q->first = key;
		q->max_end = end;
	}
	if (end > q->max_end)
		q->max_end = end;
	q->last = key;
	q->last_key = key;
	q->has_last = 1;
	if (++q->n == w->rps)
		return flush_queue(w, (uint32_t)queue);
	return NXP_OK;
}

static int bad(nxp_ntff_writer *w, int code, const char *what)
{
	return w->unchecked ? NXP_OK : wfail(w, code, "NTFF writer: %s", what);
}

static int strref_ok(const nxp_ntff_writer *w, uint32_t id)
{
	return w->unchecked || id < w->str_len;
}

int nxp_ntff_writer_instruction(nxp_ntff_writer *w, int32_t queue, const nxp_ntff_instruction_note *n)
{
	int rc;
	if (!n)
		return NXP_E_INVAL;
	uint8_t *p = slot(w, queue, NXP_QUEUE_INSTRUCTION, n->start_tick, &rc);
	if (!p)
		return rc;
	if (n->end_tick < n->start_tick && (rc = bad(w, NXP_E_RANGE, "instruction ends before it starts")))
		return rc;
	ntff_encode_instruction(p, n);
	return commit(w, queue, n->start_tick);
}

int nxp_ntff_writer_dma(nxp_ntff_writer *w, int32_t queue, const nxp_ntff_dma_note *n)
{
	int rc;
	if (!n)
		return NXP_E_INVAL;
	uint8_t *p = slot(w, queue, NXP_QUEUE_DMA, n->start_tick, &rc);
	if (!p)
		return rc;
	if (n->end_tick < n->start_tick && (rc = bad(w, NXP_E_RANGE, "DMA packet ends before it starts")))
		return rc;
	if ((n->source > NXP_MEMORY_HBM || n->dest > NXP_MEMORY_HBM) && (rc = bad(w, NXP_E_INVAL, "bad memory kind")))
		return rc;
	if (!strref_ok(w, n->variable))
		return wfail(w, NXP_E_RANGE, "NTFF writer: %s", "variable is not a string id");
	ntff_encode_dma(p, n);
	return commit(w, queue, n->start_tick);
}

int nxp_ntff_writer_semaphore(nxp_ntff_writer *w, int32_t queue, const nxp_ntff_semaphore_note *n)
{
	int rc;
	if (!n)
		return NXP_E_INVAL;
	uint8_t *p = slot(w, queue, NXP_QUEUE_SEMAPHORE, n->tick, &rc);
	if (!p)
		return rc;
	if ((n->update_source >= NXP_ENGINE_COUNT || n->operation > 3 || n->trigger_complete > 1) &&
	    (rc = bad(w, NXP_E_INVAL, "bad semaphore update source, operation or trigger")))
		return rc;
	ntff_encode_semaphore(p, n);
	return commit(w, queue, n->tick);
}

int nxp_ntff_writer_throttle(nxp_ntff_writer *w, int32_t queue, const nxp_ntff_throttle_note *n)
{
	int rc;
	if (!n)
		return NXP_E_INVAL;
	uint8_t *p = slot(w, queue, NXP_QUEUE_THROTTLE, n->tick, &rc);
	if (!p)
		return rc;
	if (!strref_ok(w, n->type))
		return wfail(w, NXP_E_RANGE, "NTFF writer: %s", "throttle type is not a string id");
	ntff_encode_throttle(p, n);
	return commit(w, queue, n->tick);
}

int nxp_ntff_writer_error(nxp_ntff_writer *w, int32_t queue, const nxp_ntff_error_note *n)
{
	int rc;
	if (!n)
		return NXP_E_INVAL;
	uint8_t *p = slot(w, queue, NXP_QUEUE_ERROR, n->tick, &rc);
	if (!p)
		return rc;
	if (n->type > 2 && (rc = bad(w, NXP_E_INVAL, "error type must be 0, 1 or 2")))
		return rc;
	if (!strref_ok(w, n->description))
		return wfail(w, NXP_E_RANGE, "NTFF writer: %s", "error description is not a string id");
	ntff_encode_error(p, n);
	return commit(w, queue, n->tick);
}

int nxp_ntff_writer_execution(nxp_ntff_writer *w, int32_t queue, const nxp_ntff_execution_note *n)
{
	int rc;
	if (!n)
		return NXP_E_INVAL;
	uint8_t *p = slot(w, queue, NXP_QUEUE_EXECUTION, n->start_tick, &rc);
	if (!p)
		return rc;
	if (n->end_tick < n->start_tick && (rc = bad(w, NXP_E_RANGE, "execution ends before it starts")))
		return rc;
	if (!strref_ok(w, n->neff_name))
		return wfail(w, NXP_E_RANGE, "NTFF writer: %s", "neff_name is not a string id");
	ntff_encode_execution(p, n);
	return commit(w, queue, n->start_tick);
}

int nxp_ntff_writer_tpb(nxp_ntff_writer *w, int32_t queue, const nxp_ntff_tpb_note *n)
{
	int rc;
	if (!n)
		return NXP_E_INVAL;
	uint8_t *p = slot(w, queue, NXP_QUEUE_TPB, n->tick, &rc);
	if (!p)
		return rc;
	if (n->is_stop > 1 && (rc = bad(w, NXP_E_INVAL, "is_stop must be 0 or 1")))
		return rc;
	ntff_encode_tpb(p, n);
	return commit(w, queue, n->tick);
}

static int emit_table(nxp_ntff_writer *w, unsigned kind, unsigned rsize, size_t count, const uint8_t *raw,
		      size_t len, int add_index)
{
	ntff_section_header h;
	memset(&h, 0, sizeof(h));
	h.kind = (uint16_t)kind;
	h.queue = NTFF_NO_QUEUE;
	h.record_size = (uint16_t)rsize;
	h.record_count = count;
	return emit(w, &h, raw, len, add_index);
}

int nxp_ntff_writer_finish(nxp_ntff_writer *w)
{
	if (!w)
		return NXP_E_INVAL;
	int rc = wusable(w);
	for (size_t i = 0; !rc && i < w->nq; i++)
		rc = flush_queue(w, (uint32_t)i);
	if (rc)
		return rc;
	size_t qlen = w->nq * NTFF_QUEUE_ENTRY_SIZE, mlen = w->nmeta * NTFF_META_ENTRY_SIZE;
	size_t big = qlen > mlen ? qlen : mlen;
	uint8_t *buf = malloc(big ? big : 1);
	if (!buf)
		return wfail(w, NXP_E_NOMEM, "NTFF writer: out of memory%s", "");
	rc = emit_table(w, NTFF_SEC_STRTAB, 1, w->str_len, (const uint8_t *)w->str, w->str_len, 1);
	for (size_t i = 0; i < w->nq; i++)
		ntff_queue_entry_encode(&w->q[i].e, buf + i * NTFF_QUEUE_ENTRY_SIZE);
	if (!rc)
		rc = emit_table(w, NTFF_SEC_QUEUES, NTFF_QUEUE_ENTRY_SIZE, w->nq, buf, qlen, 1);
	for (size_t i = 0; i < w->nmeta; i++)
		ntff_meta_entry_encode(&w->meta[i], buf + i * NTFF_META_ENTRY_SIZE);
	if (!rc)
		rc = emit_table(w, NTFF_SEC_META, NTFF_META_ENTRY_SIZE, w->nmeta, buf, mlen, 1);
	free(buf);
	if (rc)
		return rc;
	size_t ilen = w->nidx * NTFF_INDEX_ENTRY_SIZE;
	buf = malloc(ilen ? ilen : 1);
	if (!buf)
		return wfail(w, NXP_E_NOMEM, "NTFF writer: out of memory%s", "");
	for (size_t i = 0; i < w->nidx; i++)
		ntff_index_entry_encode(&w->idx[i], buf + i * NTFF_INDEX_ENTRY_SIZE);
	ntff_footer ft = {.index_offset = w->pos};
	rc = emit_table(w, NTFF_SEC_INDEX, NTFF_INDEX_ENTRY_SIZE, w->nidx, buf, ilen, 0);
	free(buf);
	if (rc)
		return rc;
	uint8_t fb[NTFF_FOOTER_SIZE];
	ft.file_length = w->pos + NTFF_FOOTER_SIZE;
	ntff_footer_encode(&ft, fb);
	if ((rc = wwrite(w, fb, sizeof(fb))) != 0)
		return rc;
	FILE *f = w->f;
	w->f = NULL;
	if (fclose(f) != 0)
		return wfail(w, NXP_E_IO, "NTFF writer: close failed: %s", strerror(errno));
	w->finished = 1;
	return NXP_OK;
}

void nxp_ntff_writer_close(nxp_ntff_writer *w)
{
	if (!w)
		return;
	if (w->f)
		fclose(w->f);
	for (size_t i = 0; i < w->nq; i++)
		free(w->q[i].buf);
	free(w->q);
	free(w->idx);
	free(w->str);
	free(w->slots);
	free(w);
}

int nxp_ntff_writer_error_status(const nxp_ntff_writer *w, nxp_status *st)
{
	if (!w)
		return NXP_E_INVAL;
	return nxp_status_copy(st, &w->err);
}

void ntff_writer_set_unchecked(nxp_ntff_writer *w, int on)
{
	if (w)
		w->unchecked = on;
}
