/* SPDX-License-Identifier: MIT */
/* Small helpers of the system-profile module: option defaults, a growable
 * string, JSON string quoting, ISO time, and the event-name group table. */
#include "abi_struct.h"
#include "status.h"
#include "system_priv.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int sys_opts_resolve(sys_opts *o, const nxp_system_options *in)
{
	memset(o, 0, sizeof(*o));
	nxp_system_options d;
	nxp_system_options_init(&d);
	/* 0.1 accepted options as short as `flags` (below NXP_SYSTEM_OPTIONS_SIZE_V0_1); still does. */
	if (in && NXP__STRUCT_IN_DEFAULTS(d, in, offsetof(nxp_system_options, flags) + sizeof(in->flags)) != NXP_OK)
		return NXP_E_INVAL;
	o->flags = d.flags;
	o->max_message = d.max_message_size ? d.max_message_size : SYS_DEFAULT_MAX_MESSAGE;
	o->max_json_event = d.max_json_event ? d.max_json_event : SYS_DEFAULT_MAX_JSON_EVENT;
	o->max_json_depth = d.max_json_depth ? d.max_json_depth : SYS_DEFAULT_MAX_JSON_DEPTH;
	o->max_pending = d.max_pending ? d.max_pending : SYS_DEFAULT_MAX_PENDING;
	o->instance_id = "";
	if (d.instance_id && d.instance_id[0]) {
		o->own = sys_strdup(d.instance_id);
		if (!o->own)
			return NXP_E_NOMEM;
		o->instance_id = o->own;
	}
	return NXP_OK;
}

void sys_opts_free(sys_opts *o)
{
	free(o->own);
	o->own = NULL;
	o->instance_id = "";
}

void sb_reset(sbuf *b)
{
	b->len = 0;
	if (b->s)
		b->s[0] = '\0';
}

void sb_free(sbuf *b)
{
	free(b->s);
	memset(b, 0, sizeof(*b));
}

static int sb_grow(sbuf *b, size_t more)
{
	if (b->oom)
		return -1;
	if (b->len + more + 1 <= b->cap)
		return 0;
	size_t cap = b->cap ? b->cap : 64;
	while (cap < b->len + more + 1)
		cap *= 2;
	char *s = realloc(b->s, cap);
	if (!s) {
		b->oom = 1;
		return -1;
	}
	b->s = s;
	b->cap = cap;
	return 0;
}

void sb_put(sbuf *b, const char *s, size_t n)
{
	if (sb_grow(b, n))
		return;
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void sb_puts(sbuf *b, const char *s)
{
	sb_put(b, s, strlen(s));
}

void sb_printf(sbuf *b, const char *fmt, ...)
{
	char tmp[128];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(tmp)) {
		sb_put(b, tmp, (size_t)n);
		return;
	}
	if (sb_grow(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

/* Bytes that need an escape inside a JSON string: controls, '"' and '\\'. */
static inline int json_esc(unsigned char c)
{
	return c < 0x20 || c == '"' || c == '\\';
}

void sb_json_str(sbuf *b, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	/* Worst case: every byte becomes \u00XX, plus the quotes. */
	if (n > (SIZE_MAX - 3) / 6 || sb_grow(b, 6 * n + 2))
		return;
	char *o = b->s + b->len;
	*o++ = '"';
	size_t run = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (!json_esc(c))
			continue;
		memcpy(o, s + run, i - run);
		o += i - run;
		run = i + 1;
		*o++ = '\\';
		switch (c) {
		case '"': *o++ = '"'; break;
		case '\\': *o++ = '\\'; break;
		case '\n': *o++ = 'n'; break;
		case '\t': *o++ = 't'; break;
		case '\r': *o++ = 'r'; break;
		default:
			*o++ = 'u';
			*o++ = '0';
			*o++ = '0';
			*o++ = hex[c >> 4];
			*o++ = hex[c & 15];
		}
	}
	memcpy(o, s + run, n - run);
	o += n - run;
	*o++ = '"';
	b->len = (size_t)(o - b->s);
	b->s[b->len] = '\0';
}

char *sb_u64(char *end, uint64_t v)
{
	*--end = '\0';
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

const char *sb_cstr(sbuf *b)
{
	return b->s && !b->oom ? b->s : "";
}

char *sys_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);
	if (d)
		memcpy(d, s, n);
	return d;
}

void sys_iso_time(int64_t ns, char *out, size_t size)
{
	int64_t sec = ns / 1000000000, frac = ns % 1000000000;
	if (frac < 0) {
		frac += 1000000000;
		sec--;
	}
	time_t t = (time_t)sec;
	struct tm tm;
	if (!gmtime_r(&t, &tm)) {
		snprintf(out, size, "%s", "");
		return;
	}
	snprintf(out, size, "%04d-%02d-%02dT%02d:%02d:%02d.%09lldZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
		 tm.tm_hour, tm.tm_min, tm.tm_sec, (long long)frac);
}

const char sys_src_framework[] = "framework";
const char sys_src_rt[] = "neuron_rt";
const char sys_src_hw[] = "neuron_hw";

/* Event-name groups as observed (system-profile.md §2).  Names not listed
 * (the observed list ends with "...") are classified by prefix: nrt_, kbl_,
 * kmgr_, dmem_ are runtime software; anything else is unknown (0).  Note
 * "nrt_model_switch" is a hardware name although it has the nrt_ prefix. */
static const char *const hardware_names[] = {
	"nc_exec_running", "cc_running", "cc_exec_barrier", "numerical_err",
	"nrt_model_switch", "timestamp_sync_point", "hw_notify",
};

uint32_t nxp_system_event_group(const char *name)
{
	if (!name)
		return 0;
	/* Every hardware name starts with c, h, n or t: others skip the list. */
	switch (name[0]) {
	case 'c':
	case 'h':
	case 'n':
	case 't':
		for (size_t i = 0; i < sizeof(hardware_names) / sizeof(hardware_names[0]); i++)
			if (!strcmp(name, hardware_names[i]))
				return NXP_SYSEV_HARDWARE;
		break;
	default:
		break;
	}
	if (!strncmp(name, "nrt_", 4) || !strncmp(name, "kbl_", 4) || !strncmp(name, "kmgr_", 5) ||
	    !strncmp(name, "dmem_", 5))
		return NXP_SYSEV_SOFTWARE;
	return 0;
}
