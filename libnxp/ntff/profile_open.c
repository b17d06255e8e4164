/* SPDX-License-Identifier: MIT */
/* nxp_profile: open a NEFF/NTFF pair, read the NTFF's index, string table,
 * queue table and metadata, check the pairing. */
#include "abi_struct.h"
#include "ntff_priv.h"
#include "source.h"
#include "status.h"

#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- profile-owned strings ------------------------------------------------- */
struct ntff_arena {
	struct ntff_arena *next;
	size_t used;
	char data[4096 - 2 * sizeof(void *)];
};

/* Cursors on several threads may share the profile: the arena and the
 * semaphore-name chunks are the only things they add to it, under p->lock. */
const char *ntff_hex_string(nxp_profile *p, uint64_t v)
{
	pthread_mutex_lock(&p->lock);
	struct ntff_arena *a = p->arena;
	if (!a || a->used + 19 > sizeof(a->data)) {
		a = calloc(1, sizeof(*a));
		if (!a) {
			pthread_mutex_unlock(&p->lock);
			return NULL;
		}
		a->next = p->arena;
		p->arena = a;
	}
	char *s = a->data + a->used;
	snprintf(s, 19, "0x%016llx", (unsigned long long)v);
	a->used += 19;
	pthread_mutex_unlock(&p->lock);
	return s;
}

#define SEM_NAME_LEN 10 /* "S[65535]" + NUL fits */

const char *ntff_semaphore_name(nxp_profile *p, unsigned idx)
{
	if (idx > 0xffff)
		return NULL;
	char *_Atomic *slot = &p->sem_names[idx >> 8];
	char *chunk = atomic_load_explicit(slot, memory_order_acquire); /* built once, then read-only */
	if (!chunk) {
		pthread_mutex_lock(&p->lock);
		chunk = atomic_load_explicit(slot, memory_order_relaxed);
		if (!chunk && (chunk = malloc(256 * SEM_NAME_LEN)) != NULL) {
			for (unsigned i = 0; i < 256; i++)
				snprintf(chunk + i * SEM_NAME_LEN, SEM_NAME_LEN, "S[%u]", (idx & ~0xffu) | i);
			atomic_store_explicit(slot, chunk, memory_order_release);
		}
		pthread_mutex_unlock(&p->lock);
		if (!chunk)
			return NULL;
	}
	return chunk + (idx & 0xff) * SEM_NAME_LEN;
}

/* ---- reading whole small sections ------------------------------------------ */

/* Read the section at `off` (header + payload, CRC checked, inflated) into a
 * malloc'ed buffer; the caller validates record sizes.  `limit` = end of the
 * region sections may occupy. */
static int read_section(nxp_profile *p, uint64_t off, uint64_t limit, unsigned want_kind, ntff_section_header *h,
			uint8_t **out, nxp_status *st)
{
	uint8_t hb[NTFF_SECTION_HEADER_SIZE];
	size_t got;
	*out = NULL;
	if (off > limit || limit - off < NTFF_SECTION_HEADER_SIZE)
		return nxp__error_set(st, NXP_E_FORMAT, (int64_t)off, "NTFF: section at offset %llu lies past the end of the file",
				(unsigned long long)off);
	int rc = nxp_src_pread(p->src, off, hb, sizeof(hb), &got);
	if (rc)
		return nxp__error_set(st, rc, (int64_t)off, "NTFF: read error at offset %llu", (unsigned long long)off);
	if (got < sizeof(hb))
		return nxp__error_set(st, NXP_E_TRUNCATED, (int64_t)off, "NTFF: section header at offset %llu truncated",
				(unsigned long long)off);
	if ((rc = ntff_section_header_decode(hb, h, off, st)) != 0)
		return rc;
	if (h->kind != want_kind)
		return nxp__error_set(st, NXP_E_FORMAT, (int64_t)off, "NTFF: section at offset %llu has kind %u, expected %u",
				(unsigned long long)off, h->kind, want_kind);
	uint64_t room = limit - off - NTFF_SECTION_HEADER_SIZE;
	if (h->stored_length > room)
		return nxp__error_set(st, NXP_E_FORMAT, (int64_t)off,
				"NTFF: section at offset %llu: length %llu runs past the end of the file",
				(unsigned long long)off, (unsigned long long)h->stored_length);
	if (h->raw_length > p->max_section || h->stored_length > p->max_section)
		return nxp__error_set(st, NXP_E_LIMIT, (int64_t)off,
				"NTFF: section at offset %llu: %llu bytes exceeds the limit of %llu",
				(unsigned long long)off, (unsigned long long)h->raw_length,
				(unsigned long long)p->max_section);
	if (!(h->flags & NTFF_SEC_ZLIB) && h->raw_length != h->stored_length)
		return nxp__error_set(st, NXP_E_FORMAT, (int64_t)off, "NTFF: section at offset %llu: raw and stored lengths differ",
				(unsigned long long)off);
	uint8_t *stored = malloc(h->stored_length ? (size_t)h->stored_length : 1);
	if (!stored)
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	uint64_t poff = off + NTFF_SECTION_HEADER_SIZE;
	rc = nxp_src_pread(p->src, poff, stored, (size_t)h->stored_length, &got);
	if (rc || got < h->stored_length) {
		free(stored);
		return nxp__error_set(st, rc ? rc : NXP_E_TRUNCATED, (int64_t)poff,
				"NTFF: section payload at offset %llu: %s", (unsigned long long)poff,
				rc ? "read error" : "truncated");
	}
	uint32_t crc = ntff_crc32(stored, (size_t)h->stored_length);
	if (crc != h->data_crc) {
		free(stored);
		return nxp__error_set(st, NXP_E_CRC, (int64_t)poff,
				"NTFF: section at offset %llu: CRC mismatch (stored %08x, computed %08x)",
				(unsigned long long)off, h->data_crc, crc);
	}
	if (h->flags & NTFF_SEC_ZLIB) {
		uint8_t *raw = malloc(h->raw_length ? (size_t)h->raw_length : 1);
		if (!raw) {
			free(stored);
			return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
		}
		rc = ntff_inflate(stored, (size_t)h->stored_length, raw, (size_t)h->raw_length);
		free(stored);
		if (rc) {
			free(raw);
			return nxp__error_set(st, rc, (int64_t)poff, "NTFF: section at offset %llu: bad zlib data",
					(unsigned long long)off);
		}
		stored = raw;
	}
	*out = stored;
	return NXP_OK;
}

/* Record size and count of a table section agree with its length. */
static int table_shape(const ntff_section_header *h, unsigned min_size, uint64_t off, nxp_status *st)
{
	if (h->record_size < min_size)
		return nxp__error_set(st, NXP_E_FORMAT, (int64_t)off, "NTFF: section at offset %llu: record size %u < %u",
				(unsigned long long)off, h->record_size, min_size);
	if (h->record_count > UINT64_MAX / h->record_size || h->record_count * h->record_size != h->raw_length)
		return nxp__error_set(st, NXP_E_FORMAT, (int64_t)off,
				"NTFF: section at offset %llu: %llu records of %u bytes do not fill %llu bytes",
				(unsigned long long)off, (unsigned long long)h->record_count, h->record_size,
				(unsigned long long)h->raw_length);
	return NXP_OK;
}

/* ---- locating sections ------------------------------------------------------ */

typedef struct entries {
	ntff_index_entry *e;
	size_t n, cap;
} entries;

static int entries_add(entries *v, const ntff_index_entry *e)
{
	if (v->n == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 64;
		ntff_index_entry *p = realloc(v->e, cap * sizeof(*p));
		if (!p)
			return NXP_E_NOMEM;
		v->e = p;
		v->cap = cap;
	}
	v->e[v->n++] = *e;
	return NXP_OK;
}

/* Footer → INDEX section.  Returns 0 with entries, 1 when there is no usable
 * index (the caller falls back to a linear walk), or a negative error (an
 * intact index that lists a section outside the file). */
static int load_index(nxp_profile *p, entries *v, uint64_t *data_end, nxp_status *st)
{
	uint64_t size = p->file_size;
	uint8_t fb[NTFF_FOOTER_SIZE];
	size_t got;
	ntff_footer ft;
	if (size < NTFF_FILE_HEADER_SIZE + NTFF_FOOTER_SIZE)
		return 1;
	if (nxp_src_pread(p->src, size - NTFF_FOOTER_SIZE, fb, sizeof(fb), &got) || got != sizeof(fb) ||
	    ntff_footer_decode(fb, &ft) || ft.file_length != size || ft.index_offset < NTFF_FILE_HEADER_SIZE)
		return 1;
	ntff_section_header h;
	uint8_t *raw;
	if (read_section(p, ft.index_offset, size - NTFF_FOOTER_SIZE, NTFF_SEC_INDEX, &h, &raw, NULL))
		return 1;
	if (table_shape(&h, NTFF_INDEX_ENTRY_SIZE, ft.index_offset, NULL) ||
	    ft.index_offset + NTFF_SECTION_HEADER_SIZE + h.stored_length != size - NTFF_FOOTER_SIZE) {
		free(raw);
		return 1;
	}
	for (uint64_t i = 0; i < h.record_count; i++) {
		ntff_index_entry e;
		ntff_index_entry_decode(raw + i * h.record_size, &e);
		if (e.offset < NTFF_FILE_HEADER_SIZE || e.offset > ft.index_offset ||
		    ft.index_offset - e.offset < NTFF_SECTION_HEADER_SIZE ||
		    e.stored_length > ft.index_offset - e.offset - NTFF_SECTION_HEADER_SIZE) {
			uint64_t at = ft.index_offset + NTFF_SECTION_HEADER_SIZE + i * h.record_size;
			free(raw);
			return nxp__error_set(st, NXP_E_FORMAT, (h.flags & NTFF_SEC_ZLIB) ? (int64_t)ft.index_offset : (int64_t)at,
					"NTFF: index entry %llu: section at offset %llu with length %llu runs past the end of the data",
					(unsigned long long)i, (unsigned long long)e.offset,
					(unsigned long long)e.stored_length);
		}
		if (entries_add(v, &e)) {
			free(raw);
			return NXP_E_NOMEM;
		}
	}
	free(raw);
	*data_end = ft.index_offset;
	return NXP_OK;
}

/* Walk section headers from the file header on.  Stops at the footer, at the
 * end, or at the first header that is damaged or runs past the end (*stop
 * records why, for the error message if vital sections are then missing). */
static int walk_sections(nxp_profile *p, entries *v, uint64_t *data_end, nxp_status *stop)
{
	uint64_t off = NTFF_FILE_HEADER_SIZE, size = p->file_size;
	while (off < size) {
		uint8_t hb[NTFF_SECTION_HEADER_SIZE];
		size_t got;
		ntff_section_header h;
		if (size - off == NTFF_FOOTER_SIZE && nxp_src_pread(p->src, off, hb, 8, &got) == 0 && got == 8 &&
		    memcmp(hb, NTFF_FOOTER_MAGIC, 8) == 0)
			break;
		if (size - off < NTFF_SECTION_HEADER_SIZE) {
			nxp__error_set(stop, NXP_E_TRUNCATED, (int64_t)off, "NTFF: truncated section header at offset %llu",
				 (unsigned long long)off);
			break;
		}
		int rc = nxp_src_pread(p->src, off, hb, sizeof(hb), &got);
		if (rc)
			return nxp__error_set(stop, rc, (int64_t)off, "NTFF: read error at offset %llu", (unsigned long long)off);
		if (got < sizeof(hb)) {
			nxp__error_set(stop, NXP_E_TRUNCATED, (int64_t)off, "NTFF: truncated section header at offset %llu",
				 (unsigned long long)off);
			break;
		}
		if (ntff_section_header_decode(hb, &h, off, stop))
			break;
		if (h.stored_length > size - off - NTFF_SECTION_HEADER_SIZE) {
			nxp__error_set(stop, NXP_E_TRUNCATED, (int64_t)off,
				 "NTFF: section at offset %llu runs past the end of the file (truncated?)",
				 (unsigned long long)off);
			break;
		}
		ntff_index_entry e = {.offset = off, .kind = h.kind, .flags = h.flags, .queue = h.queue,
				      .count = h.record_count, .stored_length = h.stored_length, .first_ts = h.first_ts,
				      .last_ts = h.last_ts, .max_end_ts = h.max_end_ts};
		if (h.kind != NTFF_SEC_INDEX && entries_add(v, &e))
			return NXP_E_NOMEM;
		off += NTFF_SECTION_HEADER_SIZE + h.stored_length;
	}
	*data_end = off;
	return NXP_OK;
}

/* ---- tables ------------------------------------------------------------------ */

static int load_strtab(nxp_profile *p, uint64_t off, uint64_t limit, nxp_status *st)
{
	ntff_section_header h;
	uint8_t *raw;
	int rc = read_section(p, off, limit, NTFF_SEC_STRTAB, &h, &raw, st);
	if (rc)
		return rc;
	if (h.raw_length == 0 || raw[0] != 0 || raw[h.raw_length - 1] != 0) {
		free(raw);
		return nxp__error_set(st, NXP_E_FORMAT, (int64_t)off,
				"NTFF: string table at offset %llu must start and end with NUL", (unsigned long long)off);
	}
	p->strtab = (char *)raw;
	p->strtab_len = (size_t)h.raw_length;
	return NXP_OK;
}

static int load_queues(nxp_profile *p, uint64_t off, uint64_t limit, nxp_status *st)
{
	ntff_section_header h;
	uint8_t *raw;
	int rc = read_section(p, off, limit, NTFF_SEC_QUEUES, &h, &raw, st);
	if (!rc)
		rc = table_shape(&h, NTFF_QUEUE_ENTRY_SIZE, off, st);
	if (!rc && h.record_count > UINT32_MAX - 1)
		rc = nxp__error_set(st, NXP_E_LIMIT, (int64_t)off, "NTFF: too many queues");
	if (!rc && !(p->queues = calloc(h.record_count ? (size_t)h.record_count : 1, sizeof(*p->queues))))
		rc = nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	for (uint64_t i = 0; !rc && i < h.record_count; i++) {
		ntff_queue_entry e;
		ntff_queue *q = &p->queues[i];
		uint64_t eoff = off + NTFF_SECTION_HEADER_SIZE + i * h.record_size;
		ntff_queue_entry_decode(raw + i * h.record_size, &e);
		if (e.kind < NXP_QUEUE_INSTRUCTION || e.kind > NXP_QUEUE_TPB)
			rc = nxp__error_set(st, NXP_E_FORMAT, (int64_t)eoff, "NTFF: queue %llu has unknown kind %u",
				      (unsigned long long)i, e.kind);
		else if (e.kind == NXP_QUEUE_INSTRUCTION && (e.engine < 0 || e.engine >= NXP_ENGINE_COUNT))
			rc = nxp__error_set(st, NXP_E_FORMAT, (int64_t)eoff, "NTFF: instruction queue %llu has engine %d",
				      (unsigned long long)i, e.engine);
		else if (e.pcore >= (uint32_t)p->hdr.num_physical_cores)
			rc = nxp__error_set(st, NXP_E_FORMAT, (int64_t)eoff,
				      "NTFF: queue %llu: pcore %u out of range (%d physical cores)",
				      (unsigned long long)i, e.pcore, p->hdr.num_physical_cores);
		else if (!ntff_str(p, e.name))
			rc = nxp__error_set(st, NXP_E_FORMAT, (int64_t)eoff,
				      "NTFF: queue %llu: name reference %u outside the string table",
				      (unsigned long long)i, e.name);
		if (rc)
			break;
		q->kind = e.kind;
		q->engine = e.kind == NXP_QUEUE_INSTRUCTION ? e.engine : -1;
		q->pcore = e.pcore;
		q->name = ntff_str(p, e.name);
		q->engine_name = q->engine >= 0 ? nxp_engine_name(q->engine) : "";
		if (!q->engine_name)
			q->engine_name = "unknown";
		q->queue_idx = e.queue_idx;
		q->engine_idx = e.engine_idx;
		if (e.kind == NXP_QUEUE_DMA && q->name[0])
			q->neff_queue = nxp_neff_find_queue(p->neff, q->pcore, q->name, q->queue_idx);
		if (e.kind == NXP_QUEUE_INSTRUCTION)
			q->si = nxp_neff_static_stream(p->neff, (size_t)q->pcore, q->engine, &q->nsi);
	}
	if (!rc)
		p->nqueues = (size_t)h.record_count;
	free(raw);
	return rc;
}

static double f64_of(uint64_t v)
{
	double d;
	memcpy(&d, &v, sizeof(d));
	return d;
}

static int load_meta(nxp_profile *p, uint64_t off, uint64_t limit, nxp_status *st)
{
	ntff_section_header h;
	uint8_t *raw;
	nxp_metadata *m = &p->meta;
	int rc = read_section(p, off, limit, NTFF_SEC_META, &h, &raw, st);
	if (!rc)
		rc = table_shape(&h, NTFF_META_ENTRY_SIZE, off, st);
	for (uint64_t i = 0; !rc && i < h.record_count; i++) {
		ntff_meta_entry e;
		ntff_meta_entry_decode(raw + i * h.record_size, &e);
		int type = ntff_meta_key_type(e.key);
		if (!type || type != e.type)
			continue; /* a key of a newer writer, or a value of another type: ignored */
		const char *s = NULL;
		if (type == NTFF_META_STR && !(s = ntff_str(p, e.value))) {
			rc = nxp__error_set(st, NXP_E_FORMAT, (int64_t)(off + NTFF_SECTION_HEADER_SIZE + i * h.record_size),
				      "NTFF: metadata key %u: string reference outside the string table", e.key);
			break;
		}
		int64_t iv = (int64_t)e.value;
		double fv = f64_of(e.value);
		switch (e.key) {
		case NTFF_META_ARCH: m->arch = s; break;
		case NTFF_META_INSTANCE_TYPE: m->instance_type = s; break;
		case NTFF_META_RUNTIME_VERSION: m->runtime_version = s; break;
		case NTFF_META_COLLECTIVES_VERSION: m->collectives_version = s; break;
		case NTFF_META_DRIVER_VERSION: m->driver_version = s; break;
		case NTFF_META_COMPILER_VERSION: m->compiler_version = s; break;
		case NTFF_META_PROFILE_NAME: m->profile_name = s; break;
		case NTFF_META_TENSOR_CLOCK: m->tensor_engine_clock_freq = fv; break;
		case NTFF_META_VECTOR_CLOCK: m->vector_engine_clock_freq = fv; break;
		case NTFF_META_SCALAR_CLOCK: m->scalar_engine_clock_freq = fv; break;
		case NTFF_META_GPSIMD_CLOCK: m->gpsimd_engine_clock_freq = fv; break;
		case NTFF_META_NEURONCORE_CLOCK: m->neuroncore_clock_freq = fv; break;
		case NTFF_META_TE_ROWS: m->tensor_engine_num_rows = iv; break;
		case NTFF_META_TE_COLS: m->tensor_engine_num_cols = iv; break;
		case NTFF_META_VECTOR_CHANNELS: m->vector_engine_num_channels = iv; break;
		case NTFF_META_SCALAR_CHANNELS: m->scalar_engine_num_channels = iv; break;
		case NTFF_META_GPSIMD_CHANNELS: m->gpsimd_engine_num_channels = iv; break;
		case NTFF_META_DMA_ENGINES: m->num_dma_engines_per_neuroncore = (int32_t)iv; break;
		case NTFF_META_DMA_DDR_BW: m->dma_ddr_bandwidth = fv; break;
		case NTFF_META_HBM_DDR_BW: m->hbm_ddr_bandwidth = fv; break;
		case NTFF_META_NEURONCORE_IDX: m->neuroncore_idx = iv; break;
		case NTFF_META_DEVICE_IDX: m->neuron_device_idx = iv; break;
		case NTFF_META_CAPTURE_TIME: m->capture_time_ns = iv; break;
		case NTFF_META_IS_SIMULATION: m->is_simulation = iv != 0; break;
		default: break;
		}
	}
	free(raw);
	return rc;
}

/* Group the DATA sections by queue (file order kept within a queue). */
static int group_sections(nxp_profile *p, const entries *v, uint64_t data_end, nxp_status *st)
{
	size_t n = 0;
	for (size_t i = 0; i < v->n; i++) {
		const ntff_index_entry *e = &v->e[i];
		if (e->kind != NTFF_SEC_DATA)
			continue;
		if (e->queue >= p->nqueues)
			return nxp__error_set(st, NXP_E_FORMAT, (int64_t)e->offset,
					"NTFF: section at offset %llu: queue id %u outside the queue table (%zu queues)",
					(unsigned long long)e->offset, e->queue, p->nqueues);
		if (e->offset < NTFF_FILE_HEADER_SIZE || e->offset > data_end ||
		    data_end - e->offset < NTFF_SECTION_HEADER_SIZE ||
		    e->stored_length > data_end - e->offset - NTFF_SECTION_HEADER_SIZE)
			return nxp__error_set(st, NXP_E_FORMAT, (int64_t)e->offset,
					"NTFF: section at offset %llu: length %llu runs past the end of the data",
					(unsigned long long)e->offset, (unsigned long long)e->stored_length);
		/* A count no section could hold would only overflow the row numbers. */
		uint64_t rsz = ntff_record_size(p->queues[e->queue].kind);
		if (rsz == 0 || e->count > p->max_section / rsz)
			return nxp__error_set(st, NXP_E_FORMAT, (int64_t)e->offset,
					"NTFF: section at offset %llu: %llu records cannot fit in a section of at most "
					"%llu bytes",
					(unsigned long long)e->offset, (unsigned long long)e->count,
					(unsigned long long)p->max_section);
		p->queues[e->queue].nsecs++;
		n++;
	}
	p->secs = calloc(n ? n : 1, sizeof(*p->secs));
	p->crc_ok = calloc(n ? n : 1, sizeof(*p->crc_ok));
	if (!p->secs || !p->crc_ok)
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	p->nsecs = n;
	size_t at = 0;
	for (size_t q = 0; q < p->nqueues; q++) {
		p->queues[q].secs = p->secs + at;
		at += p->queues[q].nsecs;
		p->queues[q].nsecs = 0;
	}
	for (size_t i = 0; i < v->n; i++) {
		const ntff_index_entry *e = &v->e[i];
		if (e->kind != NTFF_SEC_DATA)
			continue;
		ntff_queue *q = &p->queues[e->queue];
		ntff_sec s = {.offset = e->offset, .stored_length = e->stored_length, .count = e->count,
			      .first_ts = e->first_ts, .last_ts = e->last_ts, .max_end_ts = e->max_end_ts};
		q->secs[q->nsecs++] = s;
		q->records += e->count;
		if (e->stored_length <= p->max_section && e->stored_length > q->max_stored)
			q->max_stored = e->stored_length;
	}
	return NXP_OK;
}

static int64_t ns_of(const nxp_profile *p, uint64_t tick)
{
	return (int64_t)(tick / (uint64_t)p->hdr.ticks_per_nanosec);
}

static int is_tpb_queue(const ntff_queue *q, const void *arg)
{
	(void)arg;
	return q->kind == NXP_QUEUE_TPB;
}

static int fill_metadata(nxp_profile *p, nxp_status *st)
{
	nxp_metadata *m = &p->meta;
	m->struct_size = sizeof(*m);
	m->profile_schema_version = "7.4.0";
	m->ntff_version = p->hdr.ntff_version;
	m->layout_version = (int32_t)p->hdr.layout_version;
	m->num_physical_cores = p->hdr.num_physical_cores;
	m->vnc_enabled = p->hdr.num_physical_cores > 1;
	m->ticks_per_nanosec = p->hdr.ticks_per_nanosec;
	memcpy(m->neff_uuid, p->hdr.neff_uuid, 16);
	memcpy(m->neff_hash, p->hdr.neff_hash, 32);
	if (!m->arch)
		m->arch = "";
	const char **strs[] = {&m->instance_type, &m->runtime_version, &m->collectives_version, &m->driver_version,
			       &m->compiler_version, &m->profile_name};
	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		if (!*strs[i])
			*strs[i] = "";
	uint64_t first = UINT64_MAX, last = 0;
	for (size_t i = 0; i < p->nqueues; i++) {
		const ntff_queue *q = &p->queues[i];
		m->trace_count += (int64_t)q->records;
		if (q->kind != NXP_QUEUE_INSTRUCTION)
			m->event_count += (int64_t)q->records;
		for (size_t k = 0; k < q->nsecs; k++) {
			if (q->secs[k].first_ts < first)
				first = q->secs[k].first_ts;
			if (q->secs[k].max_end_ts > last)
				last = q->secs[k].max_end_ts;
		}
	}
	m->first_hw_timestamp = first == UINT64_MAX ? 0 : ns_of(p, first);
	m->last_hw_timestamp = first == UINT64_MAX ? 0 : ns_of(p, last);
	m->tpb_start_ts = INT64_MIN;
	m->tpb_stop_ts = INT64_MIN;

	/* TPB start/stop: a small queue, read like any other (queue readers and
	 * a merge); its damage is counted, not fatal. */
	ntff_scan sc;
	ntff_merge mg = {0};
	int rc = ntff_scan_open(&sc, p, is_tpb_queue, NULL, 0, UINT64_MAX);
	if (!rc)
		rc = ntff_merge_init(&mg, sc.nqr);
	if (rc) {
		ntff_scan_close(&sc);
		ntff_merge_free(&mg);
		return nxp__error_set(st, rc, -1, "out of memory");
	}
	rc = ntff_scan_seek(&sc, 0);
	for (size_t i = 0; rc >= 0 && i < sc.nqr; i++)
		if (!sc.qr[i].done)
			ntff_merge_push(&mg, &sc.qr[i]);
	ntff_qreader *qr;
	while (rc >= 0 && (qr = ntff_merge_top(&mg)) != NULL) {
		nxp_ntff_tpb_note n;
		ntff_decode_tpb(qr->rec, &n);
		if (n.is_stop == 0 && m->tpb_start_ts == INT64_MIN)
			m->tpb_start_ts = ns_of(p, n.tick);
		else if (n.is_stop == 1)
			m->tpb_stop_ts = ns_of(p, n.tick);
		rc = ntff_merge_advance_top(&sc, &mg);
	}
	if (rc < 0)
		nxp_status_copy(st, &sc.err);
	m->tpb_damaged = sc.stats.bad_records + sc.stats.skipped_sections;
	ntff_scan_close(&sc);
	ntff_merge_free(&mg);
	if (rc < 0)
		return rc;
	for (int d = 0; d < 256; d++)
		p->flops_mult[d] = nxp_adjusted_flops_multiplier(d, m->arch[0] ? m->arch : NULL);
	return NXP_OK;
}

static int locate_and_load(nxp_profile *p, nxp_status *st)
{
	entries v = {0};
	uint64_t data_end = 0;
	nxp_status stop;
	nxp_status_init(&stop);
	int rc = load_index(p, &v, &data_end, st);
	if (rc == NXP_E_NOMEM)
		goto nomem;
	if (rc < 0) {
		free(v.e);
		return rc;
	}
	p->used_index = rc == 0;
	if (rc) {
		v.n = 0;
		if ((rc = walk_sections(p, &v, &data_end, &stop)) != 0) {
			free(v.e);
			return rc == NXP_E_NOMEM ? nxp__error_set(st, rc, -1, "out of memory") : nxp_status_copy(st, &stop);
		}
	}
	uint64_t str_off = 0, q_off = 0, m_off = 0;
	for (size_t i = 0; i < v.n; i++) {
		const ntff_index_entry *e = &v.e[i];
		uint64_t *slot = e->kind == NTFF_SEC_STRTAB ? &str_off
			       : e->kind == NTFF_SEC_QUEUES ? &q_off
			       : e->kind == NTFF_SEC_META   ? &m_off
							    : NULL;
		if (slot && *slot) {
			rc = nxp__error_set(st, NXP_E_FORMAT, (int64_t)e->offset, "NTFF: second section of kind %u at offset %llu",
				      e->kind, (unsigned long long)e->offset);
			free(v.e);
			return rc;
		}
		if (slot)
			*slot = e->offset;
		else if (e->kind != NTFF_SEC_DATA)
			p->meta.unknown_sections++;
	}
	if (!str_off || !q_off || !m_off) {
		const char *what = !str_off ? "string table" : !q_off ? "queue table" : "metadata section";
		free(v.e);
		if (stop.code)
			return nxp__error_set(st, stop.code, stop.offset,
					"NTFF has no %s (file truncated or not finished by its writer): %s", what,
					stop.message);
		return nxp__error_set(st, NXP_E_TRUNCATED, (int64_t)data_end,
				"NTFF has no %s (file truncated or not finished by its writer)", what);
	}
	rc = load_strtab(p, str_off, data_end, st);
	if (!rc)
		rc = load_queues(p, q_off, data_end, st);
	if (!rc)
		rc = load_meta(p, m_off, data_end, st);
	if (!rc)
		rc = group_sections(p, &v, data_end, st);
	free(v.e);
	return rc;
nomem:
	free(v.e);
	return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
}

/* Which input an open failed on, for nxp_profile_open_path's message. */
enum { IN_NONE, IN_NEFF, IN_NTFF, IN_BOTH };

static int profile_open(nxp_profile **out, nxp_source *neff, nxp_source *ntff, const nxp_profile_options *opts,
			nxp_status *st, int *culprit)
{
	*culprit = IN_NONE;
	if (!out || !neff || !ntff)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_profile_open: NULL argument");
	*out = NULL;
	if (opts && !nxp__struct_size_ok(opts, offsetof(nxp_profile_options, max_section_size) + sizeof(uint64_t)))
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_profile_open: short options struct");
	*culprit = IN_NTFF;
	if (!nxp_source_seekable(ntff))
		return nxp__error_set(st, NXP_E_UNSUPPORTED, -1,
				"nxp_profile_open: the NTFF source must be seekable (the reader seeks by its index)");
	if (nxp_source_size(ntff) < 0)
		return nxp__error_set(st, NXP_E_UNSUPPORTED, -1, "nxp_profile_open: the NTFF source has no known size");
	nxp_profile *p = calloc(1, sizeof(*p));
	if (!p)
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	if (pthread_mutex_init(&p->lock, NULL) != 0) {
		free(p);
		return nxp__error_set(st, NXP_E_NOMEM, -1, "cannot create the profile's lock");
	}
	nxp_status_init(&p->err);
	p->src = ntff;
	p->file_size = (uint64_t)nxp_source_size(ntff);
	p->flags = opts ? opts->flags : 0;
	p->max_section = opts && opts->max_section_size ? opts->max_section_size : NTFF_DEFAULT_MAX_SECTION;
	if (p->max_section > SIZE_MAX / 2)
		p->max_section = SIZE_MAX / 2;

	*culprit = IN_NEFF;
	int rc = nxp_neff_open(&p->neff, neff, opts ? opts->neff : NULL, st);
	if (rc)
		goto fail;
	*culprit = IN_NTFF;
	uint8_t hb[NTFF_FILE_HEADER_SIZE];
	size_t got;
	size_t want = p->file_size < sizeof(hb) ? (size_t)p->file_size : sizeof(hb);
	if ((rc = nxp_src_pread(ntff, 0, hb, want, &got)) != 0) {
		nxp__error_set(st, rc, 0, "NTFF: read error in the file header");
		goto fail;
	}
	if (p->file_size == 0) {
		rc = nxp__error_set(st, NXP_E_TRUNCATED, 0, "NTFF is empty (0 bytes: nothing was captured)");
		goto fail;
	}
	if ((rc = ntff_file_header_decode(hb, got, &p->hdr, st)) != 0)
		goto fail;
	nxp_neff_header nh;
	nh.struct_size = sizeof(nh);
	if ((rc = nxp_neff_get_header(p->neff, &nh)) != 0) {
		nxp__error_set(st, rc, -1, "cannot read the NEFF header");
		goto fail;
	}
	if (memcmp(nh.uuid, p->hdr.neff_uuid, 16) != 0 && !(p->flags & NXP_PROFILE_ALLOW_MISMATCH)) {
		*culprit = IN_BOTH;
		char a[33], b[33];
		nxp_hex(nh.uuid, 16, a);
		nxp_hex(p->hdr.neff_uuid, 16, b);
		rc = nxp__error_set(st, NXP_E_MISMATCH, NTFF_FH_NEFF_UUID,
			      "NEFF/NTFF UUID mismatch (files from different compilations): NEFF %s, NTFF %s", a, b);
		goto fail;
	}
	*culprit = IN_NTFF;
	if ((rc = locate_and_load(p, st)) != 0)
		goto fail;
	if ((rc = fill_metadata(p, st)) != 0)
		goto fail;
	*culprit = IN_NONE;
	*out = p;
	return NXP_OK;
fail:
	nxp_profile_close(p);
	return rc;
}

int nxp_profile_open(nxp_profile **out, nxp_source *neff, nxp_source *ntff, const nxp_profile_options *opts,
		     nxp_status *st)
{
	int culprit;
	return profile_open(out, neff, ntff, opts, st, &culprit);
}

/* The open's error `in` with the file it concerns named first (and, where
 * that file is of the other kind, said so: arguments swapped). */
static int named_error(nxp_status *st, const nxp_status *in, int culprit, const char *neff_path,
		       const char *ntff_path)
{
	if (culprit == IN_BOTH)
		return nxp__error_set(st, in->code, in->offset, "%s and %s: %s", neff_path, ntff_path, in->message);
	const char *path = culprit == IN_NEFF ? neff_path : ntff_path;
	int want = culprit == IN_NEFF ? NXP_FILE_NEFF : NXP_FILE_NTFF;
	int other = culprit == IN_NEFF ? NXP_FILE_NTFF : NXP_FILE_NEFF;
	int kind = NXP_FILE_UNKNOWN;
	nxp_status ks;
	nxp_status_init(&ks);
	if (nxp_file_kind_detect(path, &kind, &ks) == NXP_OK && kind == other)
		return nxp__error_set(st, in->code, in->offset, "%s is %s, not %s (arguments swapped? the NEFF comes first): %s",
				      path, nxp_file_kind_name(kind), nxp_file_kind_name(want), in->message);
	return nxp__error_set(st, in->code, in->offset, "%s: %s", path, in->message);
}

int nxp_profile_open_path(nxp_profile **out, const char *neff_path, const char *ntff_path,
			  const nxp_profile_options *opts, nxp_status *st)
{
	if (!out || !neff_path || !ntff_path)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_profile_open_path: NULL argument");
	*out = NULL;
	nxp_source *a = NULL, *b = NULL;
	int rc = nxp_source_open_path(&a, neff_path, st); /* (its messages name the path) */
	if (!rc)
		rc = nxp_source_open_path(&b, ntff_path, st);
	if (!rc) {
		nxp_status in;
		nxp_status_init(&in);
		int culprit;
		rc = profile_open(out, a, b, opts, &in, &culprit);
		if (rc && culprit != IN_NONE)
			named_error(st, &in, culprit, neff_path, ntff_path);
		else if (rc)
			nxp_status_copy(st, &in);
	}
	if (rc) {
		nxp_source_close(a);
		nxp_source_close(b);
		return rc;
	}
	(*out)->own_neff_src = a;
	(*out)->own_ntff_src = b;
	return NXP_OK;
}

void nxp_profile_close(nxp_profile *p)
{
	if (!p)
		return;
	nxp_neff_close(p->neff);
	free(p->strtab);
	free(p->queues);
	free(p->secs);
	free((void *)p->crc_ok);
	for (size_t i = 0; i < 256; i++)
		free(p->sem_names[i]);
	while (p->arena) {
		struct ntff_arena *n = p->arena->next;
		free(p->arena);
		p->arena = n;
	}
	nxp_source_close(p->own_neff_src);
	nxp_source_close(p->own_ntff_src);
	pthread_mutex_destroy(&p->lock);
	free(p);
}

int nxp_profile_error(const nxp_profile *p, nxp_status *st)
{
	if (!p)
		return NXP_E_INVAL;
	return nxp_status_copy(st, &p->err);
}

const nxp_neff *nxp_profile_neff(const nxp_profile *p)
{
	return p ? p->neff : NULL;
}

int nxp_profile_get_metadata(const nxp_profile *p, nxp_metadata *out)
{
	if (!p)
		return NXP_E_INVAL;
	return NXP__STRUCT_OUT(out, p->meta, sizeof(size_t) + sizeof(void *));
}
