/* SPDX-License-Identifier: MIT */
/* trace.json / trace.json.gz (Chrome Trace Event format, as written by the
 * PyTorch profiler / Kineto and JAX).
 *
 * The document is never loaded whole.  A small tokenizer walks the top level
 * (an object with `traceEvents`, or a bare array), tracking string/escape state
 * and bracket depth; each event object's bytes (at most max_json_event) are
 * handed to jansson's json_loadb, converted to a row, and freed.  Other
 * top-level values (deviceProperties, ...) are skipped without being stored,
 * except baseTimeNanoseconds.  Since Kineto may write baseTimeNanoseconds after
 * traceEvents, a seekable input whose base has not been seen when traceEvents
 * starts is pre-scanned once (skipping the array) for it.
 *
 * Times (`ts`, `dur`, the base) are converted from the decimal text of the
 * number in the event's bytes, not from jansson's double: a double cannot hold
 * 1.7e18 ns exactly, the text can.  Valid JSON that is not a trace (no
 * traceEvents, no event at all) is NXP_E_FORMAT rather than zero rows. */
#include "source.h"
#include "status.h"
#include "system_priv.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KEY_MAX 64
#define BASE_TEXT_MAX 4096 /* longest baseTimeNanoseconds text */

enum { S_START, S_OBJ_KEY, S_OBJ_SEP, S_ARRAY, S_ARRAY_SEP, S_DRAIN, S_DONE };

/* One open B slice. */
typedef struct slice {
	char *name, *cat, *args;
	int64_t ts, id;
	uint64_t offset;
	int no_base;    /* ts was taken without baseTimeNanoseconds */
} slice;

/* Per-thread stack of open B slices, and M names, keyed by text. */
typedef struct tentry {
	char *key;      /* "p\x1f<pid>" (process name), "t\x1f<pid>\x1f<tid>" (thread name/stack) */
	char *name;     /* M name, or NULL */
	slice *stack;
	size_t depth, cap;
} tentry;

typedef struct json_reader {
	sysrd base;
	sysin in;
	sys_opts o;
	int state;
	int bare;              /* top level is an array */
	int have_base, prescanned;
	int have_events;       /* the top-level object has traceEvents */
	int any_event;         /* an element was an object with a `ph` string */
	int64_t top_at;        /* offset of the top-level value */
	int64_t base_ns;
	int64_t elem;          /* element index in traceEvents */
	size_t pending;        /* open B slices */
	tentry *tab;
	size_t tab_cap, tab_n;
	/* drain of open B slices at the end */
	size_t drain_i, drain_j;
	/* row storage */
	sbuf ev, key, pidt, tidt, flow, tkey;
	json_t *cur;
	char *cur_args;
	slice cur_slice;
	int have_cur_slice;
} json_reader;

/* The decimal text of a number, s[0..n) (JSON syntax; leading zeros and a '+'
 * on the mantissa tolerated), times 10^scale, rounded half to even to an
 * integer: exact for every digit given, however many, without a double.
 * 0 with *out set, 1 when the text is not a number, 2 when the result does not
 * fit int64 (*out unchanged). */
int sys_decimal_to_i64(const char *s, size_t n, int scale, int64_t *out)
{
	size_t i = 0;
	int neg = 0;
	if (i < n && (s[i] == '-' || s[i] == '+'))
		neg = s[i++] == '-';
	size_t i0 = i;
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	size_t i1 = i, f0 = i, f1 = i;
	if (i < n && s[i] == '.') {
		f0 = ++i;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
		f1 = i;
	}
	if (i1 == i0 && f1 == f0)
		return 1; /* no digit at all */
	int64_t exp = 0;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		int eneg = 0;
		i++;
		if (i < n && (s[i] == '-' || s[i] == '+'))
			eneg = s[i++] == '-';
		size_t e0 = i;
		for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			if (exp < ((int64_t)1 << 40)) /* far beyond any exponent that can matter */
				exp = exp * 10 + (s[i] - '0');
		if (i == e0)
			return 1;
		if (eneg)
			exp = -exp;
	}
	if (i != n)
		return 1;
	/* Digits D (integer then fraction digits, k of them); value = 0.D × 10^p. */
	size_t nint = i1 - i0, k = nint + (f1 - f0);
#define DIGIT(j) (s[(j) < nint ? i0 + (j) : f0 + (j) - nint] - '0')
	size_t z = 0;
	while (z < k && DIGIT(z) == 0)
		z++;
	if (z == k) {
		*out = 0;
		return 0;
	}
	/* Bounded: k <= n < 2^62, |exp| <= 2^40 + 9, |scale| small. */
	int64_t p = (int64_t)nint - (int64_t)z + exp + scale;
	if (p > 19)
		return 2; /* >= 10^19 > INT64_MAX */
	uint64_t mag = 0;
	size_t j = z;
	for (int64_t d = 0; d < p; d++, j++) {
		unsigned dig = j < k ? (unsigned)DIGIT(j) : 0;
		if (__builtin_mul_overflow(mag, 10u, &mag) || __builtin_add_overflow(mag, dig, &mag))
			return 2;
	}
	if (p < 0)
		j = k; /* below 0.1: rounds to 0 */
	else if (j < k) {
		/* Round half to even on the digits after the integer part. */
		unsigned r = (unsigned)DIGIT(j);
		int sticky = 0;
		for (size_t t = j + 1; t < k && !sticky; t++)
			sticky = DIGIT(t) != 0;
		if ((r > 5 || (r == 5 && (sticky || (mag & 1)))) && __builtin_add_overflow(mag, 1u, &mag))
			return 2;
	}
#undef DIGIT
	if (mag > (uint64_t)INT64_MAX + (uint64_t)neg)
		return 2;
	*out = neg ? (mag ? -(int64_t)(mag - 1) - 1 : 0) : (int64_t)mag;
	return 0;
}

static int in_i64_range(double d)
{
	return isfinite(d) && d < 9.2e18 && d > -9.2e18;
}

/* ---- byte helpers ---- */
static int peekc(json_reader *r, nxp_status *st)
{
	int rc = sysin_fill(&r->in, st);
	if (rc == NXP_END)
		return NXP__EOF;
	if (rc)
		return rc;
	return r->in.buf[r->in.pos];
}

static int skip_ws(json_reader *r, nxp_status *st)
{
	for (;;) {
		int c = peekc(r, st);
		if (c < 0)
			return c;
		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			return c;
		r->in.pos++;
	}
}

static int64_t here(const json_reader *r)
{
	return (int64_t)sysin_tell(&r->in);
}

static int truncated(json_reader *r, nxp_status *st, const char *what)
{
	return nxp__error_set(st, NXP_E_TRUNCATED, here(r), "trace.json ends inside %s at offset %lld", what,
			      (long long)here(r));
}

/* Valid JSON, but not a trace: an object without traceEvents (a PyTorch
 * execution trace has `nodes`), an array without one event, a scalar. */
static int not_a_trace(json_reader *r, nxp_status *st, const char *what)
{
	return nxp__error_set(st, NXP_E_FORMAT, r->top_at,
			      "trace.json: no traceEvents: not a Chrome trace-event file (%s at offset %lld)", what,
			      (long long)r->top_at);
}

static int syntax(json_reader *r, nxp_status *st, const char *what)
{
	return nxp__error_set(st, NXP_E_JSON, here(r), "trace.json: %s at offset %lld", what, (long long)here(r));
}

/* Walk a string, an object or an array starting at the next byte, copying its
 * bytes into `out` when not NULL (at most `cap` bytes, else NXP_E_LIMIT) and
 * refusing nesting deeper than `max_depth` (0 = no limit: nothing is stored). */
static int walk_compound(json_reader *r, sbuf *out, uint64_t cap, uint32_t max_depth, nxp_status *st)
{
	int64_t start = here(r);
	uint64_t depth = 0, total = 0;
	int in_str = 0, esc = 0, done = 0;
	while (!done) {
		int rc = sysin_fill(&r->in, st);
		if (rc == NXP_END)
			return nxp__error_set(st, NXP_E_TRUNCATED, here(r),
					      "trace.json ends inside a value that starts at offset %lld",
					      (long long)start);
		if (rc)
			return rc;
		const uint8_t *p = r->in.buf + r->in.pos, *e = r->in.buf + r->in.len, *q = p;
		for (; q < e; q++) {
			uint8_t c = *q;
			if (in_str) {
				if (esc)
					esc = 0;
				else if (c == '\\')
					esc = 1;
				else if (c == '"') {
					in_str = 0;
					if (depth == 0) {
						q++;
						done = 1;
						break;
					}
				}
				continue;
			}
			if (c == '"') {
				in_str = 1;
			} else if (c == '{' || c == '[') {
				if (max_depth && depth + 1 > max_depth) {
					r->in.pos += (size_t)(q - p);
					return nxp__error_set(st, NXP_E_LIMIT, here(r),
							      "trace.json: nesting deeper than %u at offset %lld",
							      max_depth,
							      (long long)here(r));
				}
				depth++;
			} else if (c == '}' || c == ']') {
				if (depth == 0) {
					r->in.pos += (size_t)(q - p);
					return syntax(r, st, "unbalanced bracket");
				}
				if (--depth == 0) {
					q++;
					done = 1;
					break;
				}
			}
		}
		size_t n = (size_t)(q - p);
		total += n;
		if (out) {
			if (total > cap)
				return nxp__error_set(st, NXP_E_LIMIT, start,
						      "trace.json: event at offset %lld is larger than %llu bytes",
						      (long long)start, (unsigned long long)cap);
			sb_put(out, (const char *)p, n);
			if (out->oom)
				return nxp__error_set(st, NXP_E_NOMEM, start, "out of memory");
		}
		r->in.pos += n;
	}
	return NXP_OK;
}

/* Skip (or copy, up to cap) a scalar: number, true, false, null. */
static int walk_scalar(json_reader *r, sbuf *out, size_t cap, nxp_status *st)
{
	size_t n = 0;
	for (;;) {
		int c = peekc(r, st);
		if (c == NXP__EOF)
			return truncated(r, st, "a value");
		if (c < 0)
			return c;
		if (c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\n' || c == '\r')
			break;
		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || c == '-' || c == '+' || c == '.' ||
		      c == 'E'))
			return syntax(r, st, "unexpected character");
		if (out && n >= cap)
			return nxp__error_set(st, NXP_E_LIMIT, here(r),
					      "trace.json: a number longer than %zu bytes at offset %lld",
					      cap, (long long)here(r));
		if (out)
			sb_put(out, (const char *)&r->in.buf[r->in.pos], 1);
		n++;
		r->in.pos++;
	}
	if (out && out->oom)
		return nxp__error_set(st, NXP_E_NOMEM, here(r), "out of memory");
	return n ? NXP_OK : syntax(r, st, "missing value");
}

static int skip_value(json_reader *r, nxp_status *st)
{
	int c = skip_ws(r, st);
	if (c == NXP__EOF)
		return truncated(r, st, "a value");
	if (c < 0)
		return c;
	if (c == '"' || c == '{' || c == '[')
		return walk_compound(r, NULL, 0, 0, st);
	return walk_scalar(r, NULL, 0, st);
}

/* Read a key string into r->key (truncated to KEY_MAX, escapes kept raw). */
static int read_key(json_reader *r, nxp_status *st)
{
	sb_reset(&r->key);
	r->in.pos++; /* opening quote */
	int esc = 0;
	size_t n = 0;
	for (;;) {
		int c = peekc(r, st);
		if (c == NXP__EOF)
			return truncated(r, st, "a key");
		if (c < 0)
			return c;
		r->in.pos++;
		if (esc)
			esc = 0;
		else if (c == '\\')
			esc = 1;
		else if (c == '"')
			break;
		if (n++ < KEY_MAX) {
			char ch = (char)c;
			sb_put(&r->key, &ch, 1);
		}
	}
	return r->key.oom ? NXP_E_NOMEM : NXP_OK;
}

/* baseTimeNanoseconds: a number (or a string holding one). */
static int read_base(json_reader *r, nxp_status *st)
{
	int c = skip_ws(r, st);
	if (c == NXP__EOF)
		return truncated(r, st, "a value");
	if (c < 0)
		return c;
	sbuf v = {0};
	int rc;
	int64_t at = here(r);
	if (c == '"') {
		rc = walk_compound(r, &v, BASE_TEXT_MAX, 1, st);
	} else if (c == '{' || c == '[') {
		sb_free(&v);
		return skip_value(r, st);
	} else {
		rc = walk_scalar(r, &v, BASE_TEXT_MAX, st);
	}
	if (!rc) {
		/* Exact, from the text (a string holding a number too); a value
		 * that is not a number is ignored, one outside int64 refused. */
		const char *s = sb_cstr(&v);
		size_t n = v.len;
		if (c == '"' && n >= 2) {
			s++;
			n -= 2;
		}
		int64_t x;
		int k = sys_decimal_to_i64(s, n, 0, &x);
		if (k == 0) {
			r->base_ns = x;
			r->have_base = 1;
		} else if (k == 2) {
			rc = nxp__error_set(st, NXP_E_RANGE, at,
					    "trace.json: baseTimeNanoseconds at offset %lld does not fit int64 ns",
					    (long long)at);
		}
	}
	sb_free(&v);
	return rc;
}

/* ---- thread/name table ---- */
static uint64_t fnv(const char *s)
{
	uint64_t h = 1469598103934665603ULL;
	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 1099511628211ULL;
	return h;
}

static tentry *tab_get(json_reader *r, const char *key, int create)
{
	if (r->tab_cap) {
		size_t j = fnv(key) & (r->tab_cap - 1);
		while (r->tab[j].key) {
			if (!strcmp(r->tab[j].key, key))
				return &r->tab[j];
			j = (j + 1) & (r->tab_cap - 1);
		}
	}
	if (!create || r->tab_n >= r->o.max_pending)
		return NULL;
	if ((r->tab_n + 1) * 2 > r->tab_cap) {
		size_t cap = r->tab_cap ? r->tab_cap * 2 : 64;
		tentry *t = calloc(cap, sizeof(*t));
		if (!t)
			return NULL;
		for (size_t i = 0; i < r->tab_cap; i++) {
			if (!r->tab[i].key)
				continue;
			size_t j = fnv(r->tab[i].key) & (cap - 1);
			while (t[j].key)
				j = (j + 1) & (cap - 1);
			t[j] = r->tab[i];
		}
		free(r->tab);
		r->tab = t;
		r->tab_cap = cap;
	}
	size_t j = fnv(key) & (r->tab_cap - 1);
	while (r->tab[j].key)
		j = (j + 1) & (r->tab_cap - 1);
	r->tab[j].key = sys_strdup(key);
	if (!r->tab[j].key)
		return NULL;
	r->tab_n++;
	return &r->tab[j];
}

static const char *thread_key(json_reader *r, char kind, const char *pid, const char *tid)
{
	sb_reset(&r->tkey);
	sb_put(&r->tkey, &kind, 1);
	sb_put(&r->tkey, "\x1f", 1);
	sb_puts(&r->tkey, pid);
	if (tid) {
		sb_put(&r->tkey, "\x1f", 1);
		sb_puts(&r->tkey, tid);
	}
	return sb_cstr(&r->tkey);
}

static void free_slice(slice *s)
{
	free(s->name);
	free(s->cat);
	free(s->args);
	memset(s, 0, sizeof(*s));
}

/* ---- conversion ---- */
static void release_row(json_reader *r)
{
	if (r->cur)
		json_decref(r->cur);
	r->cur = NULL;
	free(r->cur_args);
	r->cur_args = NULL;
	if (r->have_cur_slice)
		free_slice(&r->cur_slice);
	r->have_cur_slice = 0;
}

/* Text of a pid/tid/id value; numbers are formatted. */
static const char *id_text(sbuf *b, json_t *v, int64_t *num)
{
	sb_reset(b);
	if (num)
		*num = -1;
	if (json_is_integer(v)) {
		sb_printf(b, "%lld", (long long)json_integer_value(v));
		if (num)
			*num = json_integer_value(v);
	} else if (json_is_real(v)) {
		double d = json_real_value(v);
		sb_printf(b, "%.17g", d);
		if (num && in_i64_range(d) && d == (double)(int64_t)d)
			*num = (int64_t)d;
	} else if (json_is_string(v)) {
		sb_put(b, json_string_value(v), json_string_length(v));
	}
	return sb_cstr(b);
}

/* The text of a member's value in the event's own bytes. */
typedef struct span {
	const char *s;
	size_t n;
} span;

/* End of the JSON value starting at s[i] (the text is valid JSON: jansson
 * accepted it). */
static size_t value_end(const char *s, size_t n, size_t i)
{
	size_t depth = 0;
	int in_str = 0, esc = 0;
	if (i < n && s[i] != '"' && s[i] != '{' && s[i] != '[') {
		while (i < n && !strchr(",}] \t\n\r", s[i]))
			i++;
		return i;
	}
	for (; i < n; i++) {
		char c = s[i];
		if (in_str) {
			if (esc)
				esc = 0;
			else if (c == '\\')
				esc = 1;
			else if (c == '"') {
				in_str = 0;
				if (!depth)
					return i + 1;
			}
		} else if (c == '"') {
			in_str = 1;
		} else if (c == '{' || c == '[') {
			depth++;
		} else if ((c == '}' || c == ']') && --depth == 0) {
			return i + 1;
		}
	}
	return n;
}

static size_t skip_blank(const char *s, size_t n, size_t i)
{
	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
		i++;
	return i;
}

/* Is the key text k[0..kn) (between its quotes) `want`?  Keys with escapes
 * are decoded as jansson decodes them. */
static int key_is(const char *k, size_t kn, const char *want)
{
	if (!memchr(k, '\\', kn))
		return kn == strlen(want) && !memcmp(k, want, kn);
	json_t *v = json_loadb(k - 1, kn + 2, JSON_DECODE_ANY, NULL);
	int eq = json_is_string(v) && json_string_length(v) == strlen(want) && !strcmp(json_string_value(v), want);
	json_decref(v);
	return eq;
}

/* Text of the top-level members `ts` and `dur` of the event object in r->ev
 * (the last of duplicates, as jansson keeps); n = 0 when absent. */
static void time_texts(json_reader *r, span *ts, span *dur)
{
	const char *s = r->ev.s;
	size_t n = r->ev.len, i = skip_blank(s, n, 0);
	ts->s = dur->s = "";
	ts->n = dur->n = 0;
	if (i >= n || s[i] != '{')
		return;
	for (i++;;) {
		i = skip_blank(s, n, i);
		if (i >= n || s[i] != '"')
			return;
		size_t k0 = i + 1, k1 = value_end(s, n, i) - 1;
		i = skip_blank(s, n, k1 + 1);
		if (i >= n || s[i] != ':')
			return;
		i = skip_blank(s, n, i + 1);
		size_t v1 = value_end(s, n, i);
		span *dst = key_is(s + k0, k1 - k0, "ts") ? ts : key_is(s + k0, k1 - k0, "dur") ? dur : NULL;
		if (dst) {
			dst->s = s + i;
			dst->n = v1 - i;
		}
		i = skip_blank(s, n, v1);
		if (i >= n || s[i] != ',')
			return;
		i++;
	}
}

/* Microseconds (`ts`, `dur`) to ns from the number's own text, exactly: 0 with
 * *ns set (absent or not a number: 0), -1 when the value does not fit int64 ns. */
static int us_to_ns(json_t *v, span text, int64_t *ns)
{
	*ns = 0;
	if (!json_is_number(v))
		return 0;
	int rc = sys_decimal_to_i64(text.s, text.n, 3, ns);
	if (rc == 1) /* cannot happen: jansson accepted it as a number */
		return -1;
	return rc ? -1 : 0;
}

static const char *str_or(json_t *v, const char *dflt)
{
	return json_is_string(v) ? json_string_value(v) : dflt;
}

static void fill_common(json_reader *r, nxp_system_event *ev, const char *pid, const char *tid, int64_t pidn,
			int64_t tidn, uint64_t offset, int no_base)
{
	ev->struct_size = sizeof(*ev);
	ev->trace_event_source = sys_src_framework;
	ev->instance_id = r->o.instance_id;
	ev->pid = pid;
	ev->tid = tid;
	ev->process_id = pidn;
	ev->thread_id = tidn;
	ev->nc_idx = ev->pcore_idx = ev->worker_gid = -1;
	ev->tracking_id = ev->nrta_seq_id = ev->nd_idx = -1;
	if (!ev->flow_id)
		ev->flow_id = "";
	ev->framework_stream_id = "";
	ev->file = "";
	ev->offset = (int64_t)offset;
	tentry *pn = tab_get(r, thread_key(r, 'p', pid, NULL), 0);
	ev->process_name = pn && pn->name ? pn->name : "";
	tentry *tn = tab_get(r, thread_key(r, 't', pid, tid), 0);
	ev->thread_name = tn && tn->name ? tn->name : "";
	if (no_base)
		ev->flags |= NXP_SYSEV_NO_BASE_TIME;
}

static int oom(nxp_status *st)
{
	return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
}

/* The event in r->ev parsed into r->cur, counted as an element; *ph its phase.
 * 0, NXP__NO_ROW (a phase this reader does not turn into rows: skipped), or
 * NXP_E_JSON. */
static int parse_event(json_reader *r, uint64_t offset, const char **ph, nxp_status *st)
{
	json_error_t jerr;
	json_t *o = json_loadb(r->ev.s, r->ev.len, 0, &jerr);
	if (!o)
		return nxp__error_set(st, NXP_E_JSON, (int64_t)offset + (jerr.position > 0 ? jerr.position : 0),
				      "trace.json event at offset %llu: %s", (unsigned long long)offset, jerr.text);
	r->cur = o;
	r->elem++;
	if (json_is_string(json_object_get(o, "ph")))
		r->any_event = 1;
	*ph = str_or(json_object_get(o, "ph"), "");
	if (!(*ph)[0] || !strchr("XBEiIMCstf", (*ph)[0]) || (*ph)[1]) {
		r->base.skipped++;
		return NXP__NO_ROW;
	}
	return NXP_OK;
}

/* Start (ts + base) and, for X, end of the event in ns.  An event whose ts
 * (+ base), end or duration does not fit int64 ns is a bad event, skipped and
 * counted like the other malformed ones: NXP__NO_ROW. */
static int event_times(json_reader *r, const char *ph, int64_t *ts, int64_t *end_ts)
{
	int64_t dur = 0;
	span ts_text, dur_text;
	time_texts(r, &ts_text, &dur_text);
	if (us_to_ns(json_object_get(r->cur, "ts"), ts_text, ts) ||
	    __builtin_add_overflow(*ts, r->have_base ? r->base_ns : 0, ts) ||
	    (ph[0] == 'X' &&
	     (us_to_ns(json_object_get(r->cur, "dur"), dur_text, &dur) || __builtin_add_overflow(*ts, dur, end_ts)))) {
		r->base.skipped++;
		return NXP__NO_ROW;
	}
	return NXP_OK;
}

/* B: push the slice on its thread's stack (NXP__NO_ROW: its row comes with
 * the E), or, over max_pending, give the row now flagged UNMATCHED_START (0). */
static int begin_slice(json_reader *r, nxp_system_event *ev, const char *pid, const char *tid, json_t *args,
		       uint64_t offset, int no_base, nxp_status *st)
{
	tentry *t = tab_get(r, thread_key(r, 't', pid, tid), 1);
	if (!t || r->pending >= r->o.max_pending) {
		/* Over the limit: return the slice now, flagged, rather than lose it. */
		ev->flags |= NXP_SYSEV_UNMATCHED_START;
		return NXP_OK;
	}
	if (t->depth == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 8;
		slice *s = realloc(t->stack, cap * sizeof(*s));
		if (!s)
			return oom(st);
		t->stack = s;
		t->cap = cap;
	}
	slice *s = &t->stack[t->depth];
	memset(s, 0, sizeof(*s));
	s->name = sys_strdup(ev->name);
	s->cat = sys_strdup(ev->category);
	s->args = args ? json_dumps(args, JSON_COMPACT) : sys_strdup("{}");
	s->ts = ev->start_ts;
	s->id = ev->id;
	s->offset = offset;
	s->no_base = no_base;
	if (!s->name || !s->cat || !s->args) {
		free_slice(s);
		return oom(st);
	}
	t->depth++;
	r->pending++;
	if ((int64_t)r->pending > r->base.peak_pending)
		r->base.peak_pending = (int64_t)r->pending;
	return NXP__NO_ROW;
}

/* E: close the thread's innermost open B into an X row (0), merging E's args
 * over B's; an E without a B is a row flagged UNMATCHED_STOP; an E whose
 * duration does not fit int64 is bad (NXP__NO_ROW, the B stays open). */
static int end_slice(json_reader *r, nxp_system_event *ev, const char *pid, const char *tid, json_t *args,
		     int *no_base, nxp_status *st)
{
	int64_t ts = ev->start_ts;
	tentry *t = tab_get(r, thread_key(r, 't', pid, tid), 0);
	if (!t || !t->depth) {
		ev->flags |= NXP_SYSEV_UNMATCHED_STOP;
		return NXP_OK;
	}
	int64_t dur;
	if (__builtin_sub_overflow(ts, t->stack[t->depth - 1].ts, &dur)) {
		r->base.skipped++;
		return NXP__NO_ROW;
	}
	r->cur_slice = t->stack[--t->depth];
	*no_base |= r->cur_slice.no_base;
	r->have_cur_slice = 1;
	r->pending--;
	ev->id = r->cur_slice.id;
	ev->name = r->cur_slice.name;
	ev->category = r->cur_slice.cat;
	ev->start_ts = r->cur_slice.ts;
	ev->end_ts = ts;
	ev->phase = "X";
	json_t *ba = json_loads(r->cur_slice.args, 0, NULL);
	if (ba && json_is_object(args))
		json_object_update(ba, args);
	r->cur_args = ba ? json_dumps(ba, JSON_COMPACT) : NULL;
	json_decref(ba);
	if (!r->cur_args)
		return oom(st);
	ev->extra_attributes_json = r->cur_args;
	return NXP_OK;
}

/* M process_name / thread_name: remember the name for the rows that follow. */
static int metadata_name(json_reader *r, const nxp_system_event *ev, const char *pid, const char *tid,
			 json_t *args, nxp_status *st)
{
	const char *v = str_or(json_object_get(args, "name"), NULL);
	if (!v || (strcmp(ev->name, "process_name") && strcmp(ev->name, "thread_name")))
		return NXP_OK;
	int proc = ev->name[0] == 'p';
	tentry *t = tab_get(r, thread_key(r, proc ? 'p' : 't', pid, proc ? NULL : tid), 1);
	if (t) {
		char *d = sys_strdup(v);
		if (!d)
			return oom(st);
		free(t->name);
		t->name = d;
	}
	return NXP_OK;
}

/* extra_attributes_json of a row that has none yet: the args, with a flow's
 * binding point (`bp`) or an instant's scope (`s`) kept among them. */
static int row_args(json_reader *r, nxp_system_event *ev, const char *ph, json_t *args, nxp_status *st)
{
	json_t *bp = json_object_get(r->cur, "bp");
	json_t *s = json_object_get(r->cur, "s");
	if ((json_is_string(bp) && strchr("stf", ph[0])) || (json_is_string(s) && strchr("iI", ph[0]))) {
		json_t *a = json_is_object(args) ? json_deep_copy(args) : json_object();
		if (!a)
			return oom(st);
		json_object_set(a, strchr("stf", ph[0]) ? "bp" : "s", strchr("stf", ph[0]) ? bp : s);
		r->cur_args = json_dumps(a, JSON_COMPACT);
		json_decref(a);
	} else {
		r->cur_args = args ? json_dumps(args, JSON_COMPACT | JSON_ENCODE_ANY) : sys_strdup("{}");
	}
	if (!r->cur_args)
		return oom(st);
	ev->extra_attributes_json = r->cur_args;
	return NXP_OK;
}

/* Convert the event in r->ev (at `offset`): 0 = row filled, NXP__NO_ROW (a B
 * now open, or a skipped event), or an error. */
static int convert(json_reader *r, uint64_t offset, nxp_system_event *ev, nxp_status *st)
{
	const char *ph = "";
	int rc = parse_event(r, offset, &ph, st);
	if (rc)
		return rc;
	int64_t row_id = r->elem - 1;
	int64_t pidn, tidn;
	const char *pid = id_text(&r->pidt, json_object_get(r->cur, "pid"), &pidn);
	const char *tid = id_text(&r->tidt, json_object_get(r->cur, "tid"), &tidn);
	if (r->pidt.oom || r->tidt.oom)
		return oom(st);
	int64_t ts, end_ts = 0;
	if ((rc = event_times(r, ph, &ts, &end_ts)))
		return rc;
	int no_base = !r->have_base;
	json_t *args = json_object_get(r->cur, "args");
	memset(ev, 0, sizeof(*ev));
	ev->id = row_id;
	ev->name = str_or(json_object_get(r->cur, "name"), "");
	ev->category = str_or(json_object_get(r->cur, "cat"), "");
	ev->start_ts = ev->end_ts = ts;
	switch (ph[0]) {
	case 'X':
		ev->end_ts = end_ts;
		break;
	case 'B':
		rc = begin_slice(r, ev, pid, tid, args, offset, no_base, st);
		break;
	case 'E':
		rc = end_slice(r, ev, pid, tid, args, &no_base, st);
		break;
	case 'M':
		rc = metadata_name(r, ev, pid, tid, args, st);
		break;
	case 's':
	case 't':
	case 'f':
		ev->flow_id = id_text(&r->flow, json_object_get(r->cur, "id"), NULL);
		if (r->flow.oom)
			return oom(st);
		break;
	default: /* i, I, C */
		break;
	}
	if (rc)
		return rc;
	if (!ev->phase)
		ev->phase = ph;
	if (!ev->extra_attributes_json && (rc = row_args(r, ev, ph, args, st)))
		return rc;
	ev->duration_ns = ev->end_ts - ev->start_ts; /* checked above for X and E; 0 otherwise */
	fill_common(r, ev, pid, tid, pidn, tidn, offset, no_base);
	return NXP_OK;
}

/* Row for an open B slice at the end of input. */
static int drain_one(json_reader *r, nxp_system_event *ev)
{
	for (; r->drain_i < r->tab_cap; r->drain_i++, r->drain_j = 0) {
		tentry *t = &r->tab[r->drain_i];
		if (!t->key || r->drain_j >= t->depth)
			continue;
		r->cur_slice = t->stack[r->drain_j];
		memset(&t->stack[r->drain_j], 0, sizeof(slice));
		r->drain_j++;
		r->have_cur_slice = 1;
		/* key = "t\x1fpid\x1ftid" */
		const char *k = t->key + 2, *sep = strchr(k, '\x1f');
		sb_reset(&r->pidt);
		sb_put(&r->pidt, k, sep ? (size_t)(sep - k) : strlen(k));
		sb_reset(&r->tidt);
		sb_puts(&r->tidt, sep ? sep + 1 : "");
		memset(ev, 0, sizeof(*ev));
		ev->id = r->cur_slice.id;
		ev->name = r->cur_slice.name;
		ev->category = r->cur_slice.cat;
		ev->start_ts = ev->end_ts = r->cur_slice.ts;
		ev->phase = "B";
		ev->flags = NXP_SYSEV_UNMATCHED_START;
		ev->extra_attributes_json = r->cur_slice.args;
		char *end;
		const char *p = sb_cstr(&r->pidt), *q = sb_cstr(&r->tidt);
		long long pn = strtoll(p, &end, 10);
		int64_t pidn = (*p && !*end) ? pn : -1;
		long long tn = strtoll(q, &end, 10);
		int64_t tidn = (*q && !*end) ? tn : -1;
		/* The flag follows the B's ts: a base seen after traceEvents (no
		 * prescan) did not apply to it. */
		fill_common(r, ev, p, q, pidn, tidn, r->cur_slice.offset, r->cur_slice.no_base);
		return 0;
	}
	return NXP_END;
}

/* Prescan: from just after "traceEvents": skip the array and the rest of the
 * object looking for baseTimeNanoseconds; then come back.  Errors during the
 * prescan are not reported here: the real pass meets them at their place. */
static int prescan(json_reader *r, nxp_status *st)
{
	uint64_t back = sysin_tell(&r->in);
	nxp_status tmp;
	nxp_status_init(&tmp);
	int rc = skip_value(r, &tmp);
	while (!rc && !r->have_base) {
		int c = skip_ws(r, &tmp);
		if (c == ',') {
			r->in.pos++;
			c = skip_ws(r, &tmp);
		}
		if (c != '"')
			break;
		if ((rc = read_key(r, &tmp)))
			break;
		c = skip_ws(r, &tmp);
		if (c != ':')
			break;
		r->in.pos++;
		if (!strcmp(sb_cstr(&r->key), "baseTimeNanoseconds"))
			rc = read_base(r, &tmp);
		else
			rc = skip_value(r, &tmp);
	}
	r->prescanned = 1;
	rc = sysin_rewind(&r->in, st);
	if (!rc)
		rc = sysin_skip(&r->in, back, st);
	return rc;
}

/* The next non-blank byte, left unconsumed, in *c: 0, or NXP_E_TRUNCATED
 * ("trace.json ends inside <inside>") at the end of input, or a read error.
 * The one end-of-input check of every state that needs more bytes. */
static int next_byte(json_reader *r, const char *inside, int *c, nxp_status *st)
{
	*c = skip_ws(r, st);
	if (*c == NXP__EOF)
		return truncated(r, st, inside);
	return *c < 0 ? *c : NXP_OK;
}

/* S_START: the top-level value must be an object or an array. */
static int step_start(json_reader *r, nxp_status *st)
{
	int c = skip_ws(r, st);
	if (c == NXP__EOF)
		return nxp__error_set(st, NXP_E_JSON, here(r), "trace.json is empty");
	if (c < 0)
		return c;
	r->top_at = here(r);
	if (c == '"' || c == '-' || (c >= '0' && c <= '9') || c == 't' || c == 'f' || c == 'n')
		return not_a_trace(r, st, "the top-level value is not an object or an array");
	if (c == '[') {
		r->bare = 1;
		r->state = S_ARRAY;
	} else if (c == '{') {
		r->state = S_OBJ_KEY;
	} else {
		return syntax(r, st, "expected '{' or '[' at the top level");
	}
	r->in.pos++;
	return NXP_OK;
}

/* The end of the top-level object: a trace only if it had traceEvents. */
static int object_end(json_reader *r, nxp_status *st)
{
	if (!r->have_events)
		return not_a_trace(r, st, "the top-level object has no traceEvents member");
	r->state = S_DRAIN;
	return NXP_OK;
}

/* traceEvents: (after ':') enter its array, pre-scanning for the base first
 * when it has not been seen and the input can come back. */
static int enter_trace_events(json_reader *r, nxp_status *st)
{
	int c, rc;
	if ((rc = next_byte(r, "traceEvents", &c, st)))
		return rc;
	if (c != '[')
		return syntax(r, st, "traceEvents is not an array");
	r->have_events = 1;
	if (!r->have_base && !r->prescanned && r->in.src->seekable && !(r->o.flags & NXP_SYSTEM_NO_PRESCAN) &&
	    (rc = prescan(r, st)))
		return rc;
	if ((rc = sysin_skip(&r->in, 1, st)))
		return rc;
	r->state = S_ARRAY;
	return NXP_OK;
}

/* S_OBJ_KEY: a member of the top-level object, or its end. */
static int step_object_key(json_reader *r, nxp_status *st)
{
	int c, rc;
	if ((rc = next_byte(r, "the top-level object", &c, st)))
		return rc;
	if (c == '}') {
		r->in.pos++;
		return object_end(r, st);
	}
	if (c != '"')
		return syntax(r, st, "expected a key");
	if ((rc = read_key(r, st)) || (rc = next_byte(r, "the top-level object", &c, st)))
		return rc;
	if (c != ':')
		return syntax(r, st, "expected ':'");
	r->in.pos++;
	if (!strcmp(sb_cstr(&r->key), "traceEvents"))
		return enter_trace_events(r, st);
	rc = !strcmp(sb_cstr(&r->key), "baseTimeNanoseconds") ? read_base(r, st) : skip_value(r, st);
	if (!rc)
		r->state = S_OBJ_SEP;
	return rc;
}

/* S_OBJ_SEP: ',' before the next member or '}'. */
static int step_object_sep(json_reader *r, nxp_status *st)
{
	int c, rc;
	if ((rc = next_byte(r, "the top-level object", &c, st)))
		return rc;
	if (c == ',') {
		r->in.pos++;
		r->state = S_OBJ_KEY;
		return NXP_OK;
	}
	if (c == '}') {
		r->in.pos++;
		return object_end(r, st);
	}
	return syntax(r, st, "expected ',' or '}'");
}

/* S_ARRAY / S_ARRAY_SEP: the next element of traceEvents (or the bare
 * array), or its end.  0 with a row in *ev, NXP__NO_ROW, or an error. */
static int step_array(json_reader *r, nxp_system_event *ev, nxp_status *st)
{
	int c, rc;
	if ((rc = next_byte(r, "traceEvents", &c, st)))
		return rc;
	if (c == ']') {
		r->in.pos++;
		/* A bare array is the JSON Array Format of Chrome traces
		 * (empty: an empty trace); elements but no event: not one. */
		if (r->bare && r->elem && !r->any_event)
			return not_a_trace(r, st, "a top-level array without any trace event");
		r->state = r->bare ? S_DRAIN : S_OBJ_SEP;
		return NXP__NO_ROW;
	}
	if (r->state == S_ARRAY_SEP) {
		if (c != ',')
			return syntax(r, st, "expected ',' or ']' in traceEvents");
		r->in.pos++;
		r->state = S_ARRAY;
		if ((rc = next_byte(r, "traceEvents", &c, st)))
			return rc;
	}
	r->state = S_ARRAY_SEP;
	uint64_t at = sysin_tell(&r->in);
	if (c != '{') {
		if ((rc = skip_value(r, st)))
			return rc;
		r->elem++;
		r->base.skipped++;
		return NXP__NO_ROW;
	}
	sb_reset(&r->ev);
	if ((rc = walk_compound(r, &r->ev, r->o.max_json_event, r->o.max_json_depth, st)))
		return rc;
	rc = convert(r, at, ev, st);
	if (rc == NXP__NO_ROW)
		release_row(r);
	return rc;
}

/* S_DONE: only blanks may follow the document. */
static int step_done(json_reader *r, nxp_status *st)
{
	int c = skip_ws(r, st);
	if (c == NXP__EOF)
		return NXP_END;
	if (c < 0)
		return c;
	return syntax(r, st, "data after the end of the document");
}

static int json_next(sysrd *base, nxp_system_event *ev, nxp_status *st)
{
	json_reader *r = (json_reader *)base;
	release_row(r);
	for (;;) {
		r->base.bytes_read = here(r);
		r->base.base_time_ns = r->have_base ? r->base_ns : 0;
		int rc;
		switch (r->state) {
		case S_START:
			rc = step_start(r, st);
			break;
		case S_OBJ_KEY:
			rc = step_object_key(r, st);
			break;
		case S_OBJ_SEP:
			rc = step_object_sep(r, st);
			break;
		case S_ARRAY:
		case S_ARRAY_SEP:
			if ((rc = step_array(r, ev, st)) == NXP_OK)
				return NXP_OK;
			break;
		case S_DRAIN:
			if (drain_one(r, ev) == 0)
				return NXP_OK;
			r->state = S_DONE;
			rc = NXP_OK;
			break;
		default: /* S_DONE */
			return step_done(r, st);
		}
		if (rc != NXP_OK && rc != NXP__NO_ROW)
			return rc;
	}
}

static void json_free(sysrd *base)
{
	json_reader *r = (json_reader *)base;
	release_row(r);
	for (size_t i = 0; i < r->tab_cap; i++) {
		tentry *t = &r->tab[i];
		if (!t->key)
			continue;
		for (size_t k = 0; k < t->depth; k++)
			free_slice(&t->stack[k]);
		free(t->stack);
		free(t->key);
		free(t->name);
	}
	free(r->tab);
	sysin_close(&r->in);
	sb_free(&r->ev);
	sb_free(&r->key);
	sb_free(&r->pidt);
	sb_free(&r->tidt);
	sb_free(&r->flow);
	sb_free(&r->tkey);
	free(r);
}

int json_reader_open(sysrd **out, sysin *in, const sys_opts *o, nxp_status *st)
{
	json_reader *r = calloc(1, sizeof(*r));
	if (!r) {
		sysin_close(in);
		return oom(st);
	}
	r->base.next = json_next;
	r->base.free = json_free;
	r->in = *in;
	memset(in, 0, sizeof(*in));
	r->o = *o;
	*out = &r->base;
	return NXP_OK;
}
