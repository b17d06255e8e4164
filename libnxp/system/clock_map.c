/* SPDX-License-Identifier: MIT */
/* Device → host clock mapping from timestamp_sync_point events
 * (system-profile.md §3: host = sync_cpu + (t − sync_dev), using the sync point
 * of the same execution on the same core). */
#include "status.h"
#include "system_priv.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

typedef struct sync_point {
	int64_t nc_idx, dev, host;
} sync_point;

/* Points kept sorted by (nc_idx, dev) so a query is two binary searches. */
struct nxp_clock_map {
	sync_point *p;
	size_t n, cap;
	nxp_status err; /* last error of nxp_clock_map_add, for nxp_clock_map_error */
};

int nxp_clock_map_new(nxp_clock_map **out)
{
	if (!out)
		return NXP_E_INVAL;
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return NXP_E_NOMEM;
	nxp_status_init(&(*out)->err);
	return NXP_OK;
}

static int push(nxp_clock_map *m, int64_t nc_idx, int64_t device_ts, int64_t host_ts)
{
	if (m->n == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 64;
		sync_point *p = realloc(m->p, cap * sizeof(*p));
		if (!p)
			return NXP_E_NOMEM;
		m->p = p;
		m->cap = cap;
	}
	m->p[m->n++] = (sync_point){nc_idx, device_ts, host_ts};
	return NXP_OK;
}

static int cmp_point(const void *a, const void *b);

int nxp_clock_map_add(nxp_clock_map *m, int64_t nc_idx, int64_t device_ts, int64_t host_ts)
{
	if (!m)
		return NXP_E_INVAL;
	if (push(m, nc_idx, device_ts, host_ts))
		return nxp__error_set(&m->err, NXP_E_NOMEM, -1, "out of memory (%zu sync points kept)", m->n);
	/* Insertion: sync points arrive nearly in order. */
	sync_point x = m->p[m->n - 1];
	size_t i = m->n - 1;
	while (i > 0 && cmp_point(&m->p[i - 1], &x) > 0) {
		m->p[i] = m->p[i - 1];
		i--;
	}
	m->p[i] = x;
	return NXP_OK;
}

size_t nxp_clock_map_count(const nxp_clock_map *m)
{
	return m ? m->n : 0;
}

static int cmp_point(const void *a, const void *b)
{
	const sync_point *x = a, *y = b;
	if (x->nc_idx != y->nc_idx)
		return x->nc_idx < y->nc_idx ? -1 : 1;
	return x->dev < y->dev ? -1 : x->dev > y->dev;
}

/* Integer attribute of an extra_attributes_json object. */
static int attr_i64(json_t *o, const char *key, int64_t *v)
{
	json_t *x = json_object_get(o, key);
	if (json_is_integer(x)) {
		*v = json_integer_value(x);
		return 1;
	}
	if (json_is_string(x)) {
		char *end;
		const char *s = json_string_value(x);
		errno = 0;
		long long r = strtoll(s, &end, 10);
		if (*s && !*end && errno != ERANGE) {
			*v = r;
			return 1;
		}
	}
	return 0;
}

int nxp_clock_map_build(nxp_clock_map **out, nxp_system_events *events, uint32_t max_points, nxp_status *st)
{
	if (!out || !events)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_clock_map_build: NULL argument");
	*out = NULL;
	if (!max_points)
		max_points = SYS_DEFAULT_MAX_SYNC_POINTS;
	nxp_clock_map *m;
	if (nxp_clock_map_new(&m))
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	nxp_system_event ev;
	ev.struct_size = sizeof(ev);
	int rc;
	while ((rc = nxp_system_events_next(events, &ev)) == NXP_OK) {
		if (strcmp(ev.name, "timestamp_sync_point") != 0 || ev.nc_idx < 0)
			continue;
		json_t *a = json_loads(ev.extra_attributes_json, 0, NULL);
		int64_t cpu, dev;
		int ok = a && attr_i64(a, "cpu_timestamp_ns", &cpu) && attr_i64(a, "nc_timestamp_ns", &dev);
		json_decref(a);
		if (!ok)
			continue;
		if (m->n >= max_points) {
			nxp_clock_map_close(m);
			return nxp__error_set(st, NXP_E_LIMIT, ev.offset, "more than %u timestamp_sync_point events",
					      max_points);
		}
		if (push(m, ev.nc_idx, dev, cpu)) {
			nxp_clock_map_close(m);
			return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
		}
	}
	if (rc != NXP_END) {
		nxp_system_events_error(events, st);
		nxp_clock_map_close(m);
		return rc;
	}
	if (m->n) /* m->p is NULL when the file has no sync point */
		qsort(m->p, m->n, sizeof(*m->p), cmp_point);
	*out = m;
	return NXP_OK;
}

int nxp_clock_map_to_host(const nxp_clock_map *m, int64_t nc_idx, int64_t device_ts, int64_t *host_ts)
{
	if (!m || !host_ts)
		return NXP_E_INVAL;
	/* First point of the core, then the first with dev >= device_ts. */
	size_t lo = 0, hi = m->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->p[mid].nc_idx < nc_idx)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == m->n || m->p[lo].nc_idx != nc_idx)
		return NXP_E_NOT_FOUND;
	hi = m->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->p[mid].nc_idx < nc_idx || (m->p[mid].nc_idx == nc_idx && m->p[mid].dev < device_ts))
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t k = lo;
	if (k == m->n || m->p[k].nc_idx != nc_idx)
		k--; /* after the core's last sync point: use that one */
	/* host + (t − dev) without intermediate overflow: when the exact result
	 * fits int64, some pair of the three terms has a sum that fits (two of
	 * opposite signs, or all of one sign and each pair between 0 and the
	 * result), so trying the three orders finds it. */
	int64_t host = m->p[k].host, dev = m->p[k].dev, t, r = 0;
	if (!(!__builtin_sub_overflow(device_ts, dev, &t) && !__builtin_add_overflow(host, t, &r)) &&
	    !(!__builtin_add_overflow(host, device_ts, &t) && !__builtin_sub_overflow(t, dev, &r)) &&
	    !(!__builtin_sub_overflow(host, dev, &t) && !__builtin_add_overflow(t, device_ts, &r)))
		return NXP_E_RANGE;
	*host_ts = r;
	return NXP_OK;
}

void nxp_clock_map_close(nxp_clock_map *m)
{
	if (!m)
		return;
	free(m->p);
	free(m);
}

/* Only nxp_clock_map_add records here: nxp_clock_map_to_host takes a const
 * map and records nothing, so lookups stay safe from several threads. */
int nxp_clock_map_error(const nxp_clock_map *m, nxp_status *st)
{
	if (!m)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_clock_map_error: NULL handle");
	return nxp_status_copy(st, &m->err);
}

/* 0.2 name: a handle made by reading input is `_open`ed. */
int nxp_clock_map_open(nxp_clock_map **out, nxp_system_events *events, uint32_t max_points, nxp_status *st)
{
	return nxp_clock_map_build(out, events, max_points, st);
}
