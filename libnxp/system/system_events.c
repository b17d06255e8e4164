/* SPDX-License-Identifier: MIT */
/* The public system-event cursor: one source, or a list of files read in turn
 * (ntrace.pb and trace.json[.gz]), each through its per-file row reader. */
#include "abi_struct.h"
#include "source.h"
#include "status.h"
#include "system_priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct nxp_system_events {
	sys_opts o;
	nxp_status err;
	int failed;
	/* single-source mode */
	nxp_source *src;
	int kind;
	/* file-list mode */
	char **paths, **insts;
	size_t n_files, i_file;
	nxp_source *file_src;
	sysrd *rd;
	int started;
	nxp_system_stats stats;
	int64_t bytes_done; /* bytes of files already finished */
	const char *cur_file;
	const char *cur_inst;
};

int sys_sniff_kind(const sysin *in)
{
	for (size_t i = in->pos; i < in->len; i++) {
		uint8_t c = in->buf[i];
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
			continue;
		return (c == '{' || c == '[') ? NXP_SYSFILE_TRACE_JSON : NXP_SYSFILE_NTRACE;
	}
	return NXP_SYSFILE_NTRACE;
}

static int next_file(nxp_system_events *c);

static int open_reader(nxp_system_events *c, nxp_source *src, int kind, nxp_status *st)
{
	sysin in;
	int rc = sysin_open(&in, src, 1, st);
	if (rc) {
		sysin_close(&in);
		return rc;
	}
	if (kind == NXP_SYSFILE_AUTO) {
		rc = sysin_fill(&in, st); /* a gzip'd input has inflated nothing yet */
		if (rc < 0) {
			sysin_close(&in);
			return rc;
		}
		kind = sys_sniff_kind(&in);
	}
	sys_opts o = c->o;
	if (c->cur_inst && c->cur_inst[0] && !o.instance_id[0])
		o.instance_id = c->cur_inst;
	if (kind == NXP_SYSFILE_TRACE_JSON)
		return json_reader_open(&c->rd, &in, &o, st);
	return ntrace_reader_open(&c->rd, &in, &o, st);
}

static int valid_kind(int kind)
{
	return kind == NXP_SYSFILE_AUTO || kind == NXP_SYSFILE_NTRACE || kind == NXP_SYSFILE_TRACE_JSON;
}

static nxp_system_events *new_cursor(const nxp_system_options *opts, nxp_status *st, int *rc)
{
	nxp_system_events *c = calloc(1, sizeof(*c));
	if (!c) {
		*rc = nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
		return NULL;
	}
	nxp_status_init(&c->err);
	c->stats.struct_size = sizeof(c->stats);
	int r = sys_opts_resolve(&c->o, opts);
	if (r) {
		free(c);
		*rc = r == NXP_E_NOMEM ? nxp__error_set(st, r, -1, "out of memory")
				       : nxp__error_set(st, NXP_E_INVAL, -1, "nxp_system_options: bad struct_size");
		return NULL;
	}
	*rc = NXP_OK;
	return c;
}

int nxp_system_events_open(nxp_system_events **out, nxp_source *src, int kind, const nxp_system_options *opts,
			   nxp_status *st)
{
	if (!out || !src || !valid_kind(kind))
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_system_events_open: bad argument");
	*out = NULL;
	int rc;
	nxp_system_events *c = new_cursor(opts, st, &rc);
	if (!c)
		return rc;
	c->src = src;
	c->kind = kind;
	c->cur_file = "";
	rc = open_reader(c, src, kind, st);
	if (rc) {
		nxp_system_events_close(c);
		return rc;
	}
	c->stats.files = 1;
	*out = c;
	return NXP_OK;
}

int sys_events_open_files(nxp_system_events **out, const char *const *paths, const char *const *insts, size_t n,
			  const nxp_system_options *opts, nxp_status *st)
{
	int rc;
	nxp_system_events *c = new_cursor(opts, st, &rc);
	if (!c)
		return rc;
	c->paths = calloc(n ? n : 1, sizeof(char *));
	c->insts = calloc(n ? n : 1, sizeof(char *));
	if (!c->paths || !c->insts) {
		nxp_system_events_close(c);
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	}
	c->n_files = n;
	for (size_t i = 0; i < n; i++) {
		c->paths[i] = sys_strdup(paths[i]);
		c->insts[i] = sys_strdup(insts && insts[i] ? insts[i] : "");
		if (!c->paths[i] || !c->insts[i]) {
			nxp_system_events_close(c);
			return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
		}
	}
	/* Open the first file now so that a missing or unreadable file fails here. */
	if (n) {
		rc = next_file(c);
		if (rc) {
			nxp_status_copy(st, &c->err);
			nxp_system_events_close(c);
			return rc;
		}
	}
	*out = c;
	return NXP_OK;
}

static int is_dir(const char *path)
{
	struct stat sb;
	return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

int nxp_system_events_open_path(nxp_system_events **out, const char *path, const nxp_system_options *opts,
				nxp_status *st)
{
	if (!out || !path)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_system_events_open_path: NULL argument");
	*out = NULL;
	if (is_dir(path)) {
		nxp_capture *cap;
		int rc = nxp_capture_open(&cap, path, st);
		if (rc)
			return rc;
		rc = nxp_capture_open_events(cap, -1, opts, out, st);
		nxp_capture_close(cap);
		return rc;
	}
	const char *p = path;
	return sys_events_open_files(out, &p, NULL, 1, opts, st);
}

/* Advance to the next file of a list: NXP_END when none is left. */
static int next_file(nxp_system_events *c)
{
	if (c->rd) {
		c->bytes_done += c->rd->bytes_read;
		c->stats.skipped += c->rd->skipped;
		c->rd->free(c->rd);
		c->rd = NULL;
	}
	nxp_source_close(c->file_src);
	c->file_src = NULL;
	if (c->i_file >= c->n_files)
		return NXP_END;
	size_t i = c->i_file++;
	c->cur_file = c->paths[i];
	c->cur_inst = c->insts[i];
	int rc = nxp_source_open_path(&c->file_src, c->paths[i], &c->err);
	if (rc)
		return rc;
	rc = open_reader(c, c->file_src, NXP_SYSFILE_AUTO, &c->err);
	if (rc) {
		/* Name the file in the message. */
		char msg[NXP_STATUS_MESSAGE_MAX];
		snprintf(msg, sizeof(msg), "%s", c->err.message);
		nxp__error_set(&c->err, rc, c->err.offset, "%s: %s", c->paths[i], msg);
		return rc;
	}
	c->stats.files++;
	return NXP_OK;
}

static void add_file_to_error(nxp_system_events *c)
{
	if (!c->paths || !c->cur_file)
		return;
	char msg[NXP_STATUS_MESSAGE_MAX];
	snprintf(msg, sizeof(msg), "%s", c->err.message);
	nxp__error_set(&c->err, c->err.code, c->err.offset, "%s: %s", c->cur_file, msg);
}

int nxp_system_events_next(nxp_system_events *c, nxp_system_event *ev)
{
	if (!c || !nxp__struct_size_ok(ev, offsetof(nxp_system_event, name) + sizeof(ev->name)))
		return c ? nxp__error_set(&c->err, NXP_E_INVAL, -1, "nxp_system_events_next: short record struct")
			 : NXP_E_INVAL;
	if (c->failed)
		return c->err.code;
	for (;;) {
		if (!c->rd) {
			if (!c->paths)
				return NXP_END;
			int rc = next_file(c);
			if (rc == NXP_END)
				return NXP_END;
			if (rc) {
				c->failed = 1;
				return rc;
			}
		}
		nxp_system_event row;
		int rc = c->rd->next(c->rd, &row, &c->err);
		c->stats.bytes_read = c->bytes_done + c->rd->bytes_read;
		if (c->rd->base_time_ns)
			c->stats.base_time_ns = c->rd->base_time_ns;
		if (c->rd->peak_pending > c->stats.peak_pending)
			c->stats.peak_pending = c->rd->peak_pending;
		if (rc == NXP_END) {
			if (!c->paths) {
				c->stats.skipped += c->rd->skipped;
				c->rd->free(c->rd);
				c->rd = NULL;
				return NXP_END;
			}
			if ((rc = next_file(c)) == NXP_END)
				return NXP_END;
			if (rc) {
				c->failed = 1;
				return rc;
			}
			continue;
		}
		if (rc) {
			c->failed = 1;
			add_file_to_error(c);
			return rc;
		}
		row.file = c->cur_file ? c->cur_file : "";
		c->stats.events++;
		if (row.trace_event_source == sys_src_framework)
			c->stats.framework++;
		else if (row.trace_event_source == sys_src_hw)
			c->stats.neuron_hw++;
		else
			c->stats.neuron_rt++;
		if (row.flags & NXP_SYSEV_UNMATCHED_START)
			c->stats.unmatched_starts++;
		if (row.flags & NXP_SYSEV_UNMATCHED_STOP)
			c->stats.unmatched_stops++;
		NXP__STRUCT_OUT(ev, row, offsetof(nxp_system_event, name) + sizeof(ev->name));
		return NXP_OK;
	}
}

int nxp_system_events_get_stats(const nxp_system_events *c, nxp_system_stats *out)
{
	if (!c || !nxp__struct_size_ok(out, sizeof(size_t)))
		return NXP_E_INVAL;
	nxp_system_stats s = c->stats;
	if (c->rd)
		s.skipped += c->rd->skipped;
	NXP__STRUCT_OUT(out, s, sizeof(size_t));
	return NXP_OK;
}

int nxp_system_events_error(const nxp_system_events *c, nxp_status *st)
{
	if (!c)
		return NXP_E_INVAL;
	return nxp_status_copy(st, &c->err);
}

void nxp_system_events_close(nxp_system_events *c)
{
	if (!c)
		return;
	if (c->rd)
		c->rd->free(c->rd);
	nxp_source_close(c->file_src);
	for (size_t i = 0; i < c->n_files; i++) {
		if (c->paths)
			free(c->paths[i]);
		if (c->insts)
			free(c->insts[i]);
	}
	free(c->paths);
	free(c->insts);
	sys_opts_free(&c->o);
	free(c);
}
