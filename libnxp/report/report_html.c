/* SPDX-License-Identifier: MIT */
/* The one-page HTML report (nxp_profile_write_report, nxp_capture_write_report):
 * one self-contained file, inline CSS and SVG, no script, nothing fetched.
 * Every string from a profile goes through nxp__rp_esc(). */
#include "report_priv.h"

#include "common/abi_struct.h"
#include "common/status.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char css[] =
	"body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:0;color:#1d232b;"
	"background:#fff}"
	"header{background:#1d2a3a;color:#fff;padding:18px 28px}header h1{margin:0;font-size:22px}"
	".sub{color:#c5d0dd;margin:4px 0 0}main{padding:8px 28px 28px;max-width:1180px}"
	"section{margin:22px 0}h2{font-size:17px;border-bottom:2px solid #e3e7ec;padding-bottom:4px}"
	".cards{display:flex;flex-wrap:wrap;gap:10px}.card{border:1px solid #dde2e8;border-radius:6px;"
	"padding:8px 12px;min-width:140px;background:#f9fafb}.card b{display:block;font-size:19px}"
	".card span{color:#5a6573;font-size:12px}"
	"table.t{border-collapse:collapse;font-size:13px}table.t th{text-align:left;background:#eef1f5}"
	"table.t td,table.t th{padding:3px 9px;border-bottom:1px solid #e6e9ee}td.n{text-align:right;"
	"font-variant-numeric:tabular-nums}svg.pic{display:block;max-width:100%;height:auto}"
	"svg text{font:11px system-ui,sans-serif;fill:#333}svg .ax{fill:#555}"
	".ins{border-left:5px solid #888;padding:6px 12px;margin:8px 0;background:#f9fafb}"
	".ins.critical{border-color:#c0262d}.ins.warning{border-color:#e08a00}.ins.info{border-color:#2f6fbf}"
	".sev{font-weight:bold;text-transform:uppercase;font-size:11px;margin-right:6px}"
	".rule{font-family:monospace;color:#5a6573}.rec{color:#33415c}.note{color:#6b7480;font-style:italic}"
	".ev{font-size:12px;color:#5a6573}footer{color:#6b7480;font-size:12px;padding:0 28px 20px}";

/* ---- summary figures ---- */

static int field(const nxp_summary *s, const char *name, double *v)
{
	nxp_summary_field f;
	memset(&f, 0, sizeof(f));
	f.struct_size = sizeof(f);
	if (nxp_summary_find(s, name, &f) || !f.present)
		return 0;
	*v = f.f;
	return 1;
}

static void card(FILE *f, const char *label, const char *value)
{
	fputs("<div class=\"card\"><b>", f);
	nxp__rp_esc(f, value);
	fputs("</b><span>", f);
	nxp__rp_esc(f, label);
	fputs("</span></div>\n", f);
}

static void card_field(FILE *f, const nxp_summary *s, const char *name, const char *label, char kind)
{
	double v;
	char b[48];
	if (!field(s, name, &v))
		snprintf(b, sizeof b, "n/a");
	else if (kind == 't')
		nxp__rp_dur(b, sizeof b, v * 1e9);
	else if (kind == '%')
		snprintf(b, sizeof b, "%.2f %%", v * 100);
	else if (kind == 'b')
		nxp__rp_bytes(b, sizeof b, v);
	else
		snprintf(b, sizeof b, "%.0f", v);
	card(f, label, b);
}

static void figures(FILE *f, const nxp_summary *s)
{
	fputs("<section id=\"figures\"><h2>Key figures</h2><div class=\"cards\">\n", f);
	card_field(f, s, "total_time", "total time", 't');
	card_field(f, s, "total_exec_time", "execution time (no set-up)", 't');
	card_field(f, s, "mfu_estimated_percent", "MFU (estimated)", '%');
	card_field(f, s, "hfu_estimated_percent", "HFU (estimated)", '%');
	card_field(f, s, "mbu_estimated_percent", "MBU (estimated)", '%');
	card_field(f, s, "total_active_time_percent", "any engine active", '%');
	card_field(f, s, "tensor_engine_active_time_percent", "tensor engine active", '%');
	card_field(f, s, "vector_engine_active_time_percent", "vector engine active", '%');
	card_field(f, s, "scalar_engine_active_time_percent", "scalar engine active", '%');
	card_field(f, s, "gpsimd_engine_active_time_percent", "gpsimd engine active", '%');
	card_field(f, s, "sync_engine_active_time_percent", "sync engine active", '%');
	card_field(f, s, "dma_active_time_percent", "DMA active", '%');
	card_field(f, s, "dma_transfer_total_bytes", "DMA bytes", 'b');
	card_field(f, s, "dma_transfer_average_bytes", "average DMA transfer", 'b');
	card_field(f, s, "hbm_read_bytes", "HBM read", 'b');
	card_field(f, s, "hbm_write_bytes", "HBM write", 'b');
	card_field(f, s, "mm_arithmetic_intensity", "arithmetic intensity (FLOP/byte)", 'n');
	int64_t thr = 0;
	size_t nt = nxp_summary_throttle_count(s);
	for (size_t i = 0; i < nt; i++) {
		nxp_throttle_summary t;
		memset(&t, 0, sizeof(t));
		t.struct_size = sizeof(t);
		if (!nxp_summary_get_throttle(s, i, &t))
			thr += t.throttle_active_time_ns;
	}
	char b[48];
	nxp__rp_dur(b, sizeof b, (double)thr);
	card(f, "throttled (sum over cores)", b);
	fputs("</div></section>\n", f);
}

/* ---- top opcodes ---- */

typedef struct op_row {
	nxp_opcode_summary o;
} op_row;

static int cmp_ops(const void *x, const void *y)
{
	const op_row *a = x, *b = y;
	if (a->o.active_time_ns != b->o.active_time_ns)
		return a->o.active_time_ns > b->o.active_time_ns ? -1 : 1;
	return a->o.instruction_time_ns > b->o.instruction_time_ns ? -1 : a->o.instruction_time_ns < b->o.instruction_time_ns;
}

static int opcodes(FILE *f, const nxp_summary *s, int top, nxp_status *st)
{
	size_t n = nxp_summary_opcode_count(s);
	fputs("<section id=\"opcodes\"><h2>Top opcodes by time</h2>\n", f);
	if (!n) {
		fputs("<p class=\"note\">No instructions in the trace.</p></section>\n", f);
		return 0;
	}
	op_row *r = calloc(n, sizeof(*r));
	if (!r)
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		r[m].o.struct_size = sizeof(r[m].o);
		if (!nxp_summary_get_opcode(s, i, &r[m].o))
			m++;
	}
	qsort(r, m, sizeof(*r), cmp_ops);
	fputs("<table class=\"t\"><tr><th>engine</th><th>opcode</th><th>count</th><th>active time</th><th></th>"
	      "<th>% of total</th><th>instruction time</th></tr>\n",
	      f);
	int64_t maxa = m && r[0].o.active_time_ns > 0 ? r[0].o.active_time_ns : 1;
	for (size_t i = 0; i < m && i < (size_t)top; i++) {
		char a[32], t[32];
		nxp__rp_dur(a, sizeof a, (double)r[i].o.active_time_ns);
		nxp__rp_dur(t, sizeof t, (double)r[i].o.instruction_time_ns);
		fputs("<tr><td>", f);
		nxp__rp_esc(f, r[i].o.engine);
		fputs("</td><td>", f);
		nxp__rp_esc(f, r[i].o.opcode);
		fprintf(f, "</td><td class=\"n\">%lld</td><td class=\"n\">%s</td><td>", (long long)r[i].o.instruction_count,
			a);
		nxp__rp_bar(f, (double)r[i].o.active_time_ns / (double)maxa,
			    nxp__rp_engine_color(nxp_engine_from_name(r[i].o.engine ? r[i].o.engine : "")));
		fprintf(f, "</td><td class=\"n\">%.2f %%</td><td class=\"n\">%s</td></tr>\n",
			r[i].o.active_time_percent * 100, t);
	}
	fputs("</table>\n", f);
	if (m > (size_t)top)
		fprintf(f, "<p class=\"note\">%zu more opcodes not shown.</p>\n", m - (size_t)top);
	fputs("</section>\n", f);
	free(r);
	return 0;
}

/* ---- critical path ---- */

static void status_note(FILE *f, const char *what, const nxp_status *st, int rc)
{
	fprintf(f, "<p class=\"note\">%s could not be computed: ", what);
	nxp__rp_esc(f, st->message[0] ? st->message : nxp_strerror(rc));
	fputs("</p>\n", f);
}

static int critical_path(rp_ctx *c, nxp_profile *p)
{
	FILE *f = c->f;
	fputs("<section id=\"critical-path\"><h2>Critical path</h2>\n", f);
	nxp_status st;
	nxp_status_init(&st);
	nxp_critical_path *cp = NULL;
	int rc = nxp_profile_critical_path(p, NULL, &cp, &st);
	c->stats.critical_path_status = rc;
	if (rc) {
		status_note(f, "The critical path", &st, rc);
		fputs("</section>\n", f);
		return rc == NXP_E_NOMEM ? rc : 0;
	}
	int64_t t0 = 0, t1 = 0, total = 0;
	nxp_critical_path_interval(cp, &t0, &t1, &total);
	size_t nr = nxp_critical_path_resource_count(cp);
	char d[32];
	nxp__rp_dur(d, sizeof d, (double)total);
	fprintf(f,
		"<p>Every nanosecond of the execution interval (%s, %zu steps on the path) charged to the resource "
		"the path was waiting on.</p>\n",
		d, nxp_critical_path_step_count(cp));
	/* a stacked bar of the breakdown */
	static const char *const pal[] = {"#d9482b", "#2f6fbf", "#2a9d8f", "#e9a21a", "#7b5ea7",
					  "#5b7f3a", "#c2527a", "#8a9bb0", "#b5651d", "#3b8686"};
	fputs("<svg id=\"cp-bar\" class=\"pic\" width=\"960\" height=\"26\" "
	      "viewBox=\"0 0 960 26\" role=\"img\" aria-label=\"critical path breakdown\">\n",
	      f);
	double x = 0;
	for (size_t i = 0; i < nr && total > 0; i++) {
		nxp_critical_resource r;
		memset(&r, 0, sizeof(r));
		r.struct_size = sizeof(r);
		if (nxp_critical_path_get_resource(cp, i, &r))
			continue;
		double w = 960.0 * (double)r.ns / (double)total;
		fprintf(f, "<rect x=\"%.2f\" y=\"0\" width=\"%.2f\" height=\"26\" fill=\"%s\"><title>", x, w,
			pal[i % (sizeof pal / sizeof pal[0])]);
		nxp__rp_esc(f, r.resource);
		fputs("</title></rect>\n", f);
		x += w;
	}
	fputs("</svg>\n<table class=\"t\"><tr><th></th><th>resource</th><th>on the path</th><th>share</th>"
	      "<th>busy in the interval</th><th>slack</th></tr>\n",
	      f);
	for (size_t i = 0; i < nr; i++) {
		nxp_critical_resource r;
		memset(&r, 0, sizeof(r));
		r.struct_size = sizeof(r);
		if (nxp_critical_path_get_resource(cp, i, &r))
			continue;
		char a[32], b[32], s[32];
		nxp__rp_dur(a, sizeof a, (double)r.ns);
		nxp__rp_dur(b, sizeof b, (double)r.busy_ns);
		nxp__rp_dur(s, sizeof s, (double)r.slack_ns);
		fprintf(f, "<tr><td><svg width=\"10\" height=\"10\"><rect width=\"10\" height=\"10\" fill=\"%s\"/></svg></td><td>",
			pal[i % (sizeof pal / sizeof pal[0])]);
		nxp__rp_esc(f, r.resource);
		fprintf(f, "</td><td class=\"n\">%s</td><td class=\"n\">%.1f %%</td><td class=\"n\">%s</td>"
			   "<td class=\"n\">%s</td></tr>\n",
			a, total > 0 ? 100.0 * (double)r.ns / (double)total : 0.0, r.busy_ns ? b : "", r.busy_ns ? s : "");
	}
	fputs("</table></section>\n", f);
	nxp_critical_path_close(cp);
	return 0;
}

/* ---- insights ---- */

static void insight_list(FILE *f, const nxp_insights *in)
{
	size_t n = nxp_insights_count(in);
	if (!n) {
		fputs("<p class=\"note\">No rule fired: nothing stands out.</p>\n", f);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		nxp_insight it;
		memset(&it, 0, sizeof(it));
		it.struct_size = sizeof(it);
		if (nxp_insights_get(in, i, &it))
			continue;
		fputs("<div class=\"ins ", f);
		nxp__rp_esc(f, it.severity);
		fputs("\"><span class=\"sev\">", f);
		nxp__rp_esc(f, it.severity);
		fputs("</span><span class=\"rule\">", f);
		nxp__rp_esc(f, it.rule);
		fputs("</span><div>", f);
		nxp__rp_esc(f, it.message);
		fputs("</div><div class=\"rec\">", f);
		nxp__rp_esc(f, it.recommendation);
		fputs("</div>", f);
		if (it.evidence_count) {
			fputs("<div class=\"ev\">", f);
			for (size_t k = 0; k < it.evidence_count; k++) {
				fputs(k ? "; " : "", f);
				nxp__rp_esc(f, it.evidence[k].name);
				fprintf(f, " = %.6g ", it.evidence[k].value);
				nxp__rp_esc(f, it.evidence[k].unit);
			}
			fputs("</div>", f);
		}
		fputs("</div>\n", f);
	}
}

static int insights(rp_ctx *c, nxp_profile *p)
{
	FILE *f = c->f;
	fputs("<section id=\"insights\"><h2>Insights</h2>\n", f);
	nxp_status st;
	nxp_status_init(&st);
	nxp_insights *in = NULL;
	int rc = nxp_profile_insights(p, c->o.hw, &in, &st);
	c->stats.insights_status = rc;
	if (rc) {
		status_note(f, "The insights", &st, rc);
	} else {
		c->stats.insight_count = (int32_t)nxp_insights_count(in);
		insight_list(f, in);
	}
	nxp_insights_close(in);
	fputs("</section>\n", f);
	return rc == NXP_E_NOMEM ? rc : 0;
}

/* ---- one profile ---- */

static void header(FILE *f, const char *title, const char *sub1, const char *sub2)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
	      f);
	nxp__rp_esc(f, title);
	fprintf(f, "</title>\n<style>%s</style>\n</head><body>\n<header><h1>", css);
	nxp__rp_esc(f, title);
	fputs("</h1><p class=\"sub\">", f);
	nxp__rp_esc(f, sub1);
	fputs("</p><p class=\"sub\">", f);
	nxp__rp_esc(f, sub2);
	fputs("</p></header>\n<main>\n", f);
}

static void footer(FILE *f)
{
	fprintf(f, "</main>\n<footer>Written by libnxp %s (nxp report). Times are the device's nanoseconds; "
		   "metric names and formulas as in doc/metrics.md.</footer>\n</body></html>\n",
		nxp_version_string());
}

static void profile_subtitle(nxp_profile *p, char *a, size_t na, char *b, size_t nb)
{
	nxp_metadata md;
	memset(&md, 0, sizeof(md));
	md.struct_size = sizeof(md);
	nxp_profile_get_metadata(p, &md);
	char span[32];
	nxp__rp_dur(span, sizeof span, (double)(md.last_hw_timestamp - md.first_hw_timestamp));
	snprintf(a, na, "%s %s, %d physical core%s, NeuronCore %lld, trace span %s", md.arch ? md.arch : "",
		 md.instance_type ? md.instance_type : "", (int)md.num_physical_cores, md.num_physical_cores == 1 ? "" : "s",
		 (long long)md.neuroncore_idx, span);
	snprintf(b, nb, "first timestamp %lld ns, last %lld ns; %lld notifications; compiler %s, runtime %s",
		 (long long)md.first_hw_timestamp, (long long)md.last_hw_timestamp, (long long)md.trace_count,
		 md.compiler_version && *md.compiler_version ? md.compiler_version : "?",
		 md.runtime_version && *md.runtime_version ? md.runtime_version : "?");
}

static int profile_body(rp_ctx *c, nxp_profile *p)
{
	FILE *f = c->f;
	nxp_summary *s = NULL;
	int rc = nxp_profile_summarize(p, c->o.hw, &s, c->st);
	if (rc)
		return rc;
	figures(f, s);
	c->stats.sections++;
	if (c->o.analysis) {
		if ((rc = insights(c, p)))
			goto out;
		c->stats.sections++;
	}
	rp_activity a;
	if ((rc = nxp__rp_activity_read(&a, p, c->o.columns, c->o.max_dma_rows, c->st))) {
		nxp__rp_activity_free(&a);
		goto out;
	}
	c->stats.timeline_rows += (int32_t)a.nrows;
	c->stats.read_errors += a.read_errors;
	c->stats.bad_records += a.bad_records;
	fprintf(f, "<section id=\"timeline\"><h2>Engine and DMA activity</h2>\n<p>Busy time of each engine and DMA "
		   "queue over the trace, in %d columns of %.0f ns (darker = busy for more of the column).</p>\n",
		a.columns, a.col_ns);
	if (a.read_errors || a.bad_records)
		fprintf(f, "<p class=\"note\">The trace is damaged: %d table(s) stopped on a read error, %lld record(s) "
			   "skipped. The pictures show what could be read.</p>\n",
			a.read_errors, (long long)a.bad_records);
	nxp__rp_svg_timeline(f, &a);
	fputs("</section>\n<section id=\"utilisation-over-time\"><h2>Utilisation over time</h2>\n", f);
	nxp__rp_svg_utilisation(f, &a);
	fputs("</section>\n", f);
	c->stats.sections += 2;
	if (c->o.analysis) {
		if ((rc = critical_path(c, p))) {
			nxp__rp_activity_free(&a);
			goto out;
		}
		c->stats.sections++;
	}
	if ((rc = opcodes(f, s, c->o.top_opcodes, c->st))) {
		nxp__rp_activity_free(&a);
		goto out;
	}
	fprintf(f, "<section id=\"dma\"><h2>DMA throughput per queue</h2>\n<p>%lld queue%s; bytes moved, time "
		   "busy (union of the queue's packets) and throughput.</p>\n",
		(long long)a.dma_queues, a.dma_queues == 1 ? "" : "s");
	nxp__rp_dma_table(f, &a);
	fputs("</section>\n", f);
	c->stats.sections += 2;
	nxp__rp_activity_free(&a);
out:
	nxp_summary_close(s);
	return rc;
}

/* ---- files ---- */

/* What a page is about: a profile or a capture. */
typedef struct rp_target {
	nxp_profile *p;
	const nxp_capture *cap;
} rp_target;

typedef int (*body_fn)(rp_ctx *c, const rp_target *t);

static int write_file(const char *path, const nxp_report_options *opts, nxp_report_stats *stats, nxp_status *st,
		      const char *fn, body_fn body, const rp_target *arg)
{
	rp_ctx c;
	memset(&c, 0, sizeof(c));
	nxp_report_options_init(&c.o);
	if (!path || !*path)
		return nxp__error_set(st, NXP_E_INVAL, -1, "%s: NULL path", fn);
	if (opts && NXP__STRUCT_IN_DEFAULTS(c.o, opts, NXP_REPORT_OPTIONS_SIZE_V0_2))
		return nxp__error_set(st, NXP_E_INVAL, -1, "%s: options struct_size too small", fn);
	if (stats && !nxp__struct_size_ok(stats, NXP_REPORT_STATS_SIZE_V0_2))
		return nxp__error_set(st, NXP_E_INVAL, -1, "%s: stats struct_size too small", fn);
	if (!c.o.columns)
		c.o.columns = 800;
	if (!c.o.max_dma_rows)
		c.o.max_dma_rows = 16;
	if (!c.o.top_opcodes)
		c.o.top_opcodes = 15;
	if (c.o.columns < 100 || c.o.columns > 4000 || c.o.max_dma_rows < 1 || c.o.max_dma_rows > 1000 ||
	    c.o.top_opcodes < 1)
		return nxp__error_set(st, NXP_E_INVAL, -1, "%s: columns must be 100..4000, max_dma_rows 1..1000, top_opcodes >= 1",
				fn);
	struct stat sb;
	if (!c.o.overwrite && stat(path, &sb) == 0)
		return nxp__error_set(st, NXP_E_INVAL, -1, "%s exists (overwrite not allowed)", path);
	size_t n = strlen(path);
	char *tmp = malloc(n + 16);
	if (!tmp)
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	snprintf(tmp, n + 16, "%s.tmp.XXXXXX", path);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		int e = errno;
		free(tmp);
		return nxp__error_set(st, NXP_E_IO, -1, "cannot create %s: %s", path, strerror(e));
	}
	(void)fchmod(fd, 0644);
	c.f = fdopen(fd, "w");
	if (!c.f) {
		int e = errno;
		close(fd);
		unlink(tmp);
		free(tmp);
		return nxp__error_set(st, NXP_E_IO, -1, "cannot write %s: %s", path, strerror(e));
	}
	c.st = st;
	c.stats.struct_size = sizeof(c.stats);
	int rc = body(&c, arg);
	if (!rc && fflush(c.f)) {
		int e = errno;
		rc = nxp__error_set(st, NXP_E_IO, -1, "cannot write %s: %s", path, strerror(e));
	}
	if (!rc && ferror(c.f))
		rc = nxp__error_set(st, NXP_E_IO, -1, "cannot write %s", path);
	if (!rc && fstat(fileno(c.f), &sb) == 0)
		c.stats.bytes = (int64_t)sb.st_size;
	if (fclose(c.f) && !rc) {
		int e = errno;
		rc = nxp__error_set(st, NXP_E_IO, -1, "cannot write %s: %s", path, strerror(e));
	}
	if (!rc && rename(tmp, path)) {
		int e = errno;
		rc = nxp__error_set(st, NXP_E_IO, -1, "cannot rename %s to %s: %s", tmp, path, strerror(e));
	}
	if (rc) {
		unlink(tmp);
		if (st && !st->code)
			nxp__error_set(st, rc, -1, "%s", nxp_strerror(rc));
	}
	free(tmp);
	if (!rc && stats)
		NXP__STRUCT_OUT(stats, c.stats, NXP_REPORT_STATS_SIZE_V0_2);
	return rc;
}

static int profile_page(rp_ctx *c, const rp_target *t)
{
	nxp_profile *p = t->p;
	nxp_metadata md;
	memset(&md, 0, sizeof(md));
	md.struct_size = sizeof(md);
	nxp_profile_get_metadata(p, &md);
	char title[512], a[512], b[512];
	snprintf(title, sizeof title, "Profile report: %s",
		 c->o.title ? c->o.title : md.profile_name && *md.profile_name ? md.profile_name : "device profile");
	profile_subtitle(p, a, sizeof a, b, sizeof b);
	header(c->f, title, a, b);
	int rc = profile_body(c, p);
	footer(c->f);
	return rc;
}

NXP_API int nxp_profile_write_report(nxp_profile *p, const char *path, const nxp_report_options *opts,
				     nxp_report_stats *stats, nxp_status *st)
{
	nxp_status local;
	nxp_status_init(&local);
	if (!st)
		st = &local;
	nxp_status_clear(st);
	if (!p)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_profile_write_report: NULL profile");
	rp_target t = {p, NULL};
	return write_file(path, opts, stats, st, "nxp_profile_write_report", profile_page, &t);
}

/* ---- capture ---- */

static int capture_page(rp_ctx *c, const rp_target *t)
{
	const nxp_capture *cap = t->cap;
	FILE *f = c->f;
	nxp_status st;
	nxp_status_init(&st);
	nxp_comparison *cmp = NULL;
	int rc = nxp_capture_compare(cap, c->o.hw, &cmp, &st);
	c->stats.comparison_status = rc;
	if (rc) {
		nxp_status_copy(c->st, &st);
		return rc;
	}
	size_t n = nxp_comparison_count(cmp);
	char title[512], a[256], b[64];
	snprintf(title, sizeof title, "Capture report: %s", c->o.title ? c->o.title : "capture");
	snprintf(a, sizeof a, "%zu device profile%s, %zu process%s", n, n == 1 ? "" : "s",
		 nxp_capture_process_count(cap), nxp_capture_process_count(cap) == 1 ? "" : "es");
	snprintf(b, sizeof b, "rows sorted slowest first");
	header(f, title, a, b);
	fputs("<section id=\"comparison\"><h2>Rank comparison</h2>\n<table class=\"t\"><tr><th>profile</th>"
	      "<th>instance</th><th>pid</th><th>nc</th><th>total time</th><th></th><th>gap to fastest</th><th>MFU</th>"
	      "<th>DMA bytes</th><th>throttled</th><th>nrt_execute (n, max)</th><th>start skew</th>"
	      "<th>explains the gap</th></tr>\n",
	      f);
	int64_t maxt = 1;
	size_t slowest = SIZE_MAX;
	for (size_t i = 0; i < n; i++) {
		nxp_comparison_row r;
		memset(&r, 0, sizeof(r));
		r.struct_size = sizeof(r);
		if (!nxp_comparison_get(cmp, i, &r) && r.total_ns > maxt)
			maxt = r.total_ns;
	}
	for (size_t i = 0; i < n; i++) {
		nxp_comparison_row r;
		memset(&r, 0, sizeof(r));
		r.struct_size = sizeof(r);
		if (nxp_comparison_get(cmp, i, &r))
			continue;
		if (!r.status && slowest == SIZE_MAX)
			slowest = (size_t)r.profile_index;
		const char *base = r.ntff_path ? strrchr(r.ntff_path, '/') : NULL;
		char t[32], g[32], db[32], th[32], hx[32], sk[32], ex[32];
		nxp__rp_dur(t, sizeof t, (double)r.total_ns);
		nxp__rp_dur(g, sizeof g, (double)r.gap_ns);
		nxp__rp_bytes(db, sizeof db, (double)r.dma_bytes);
		nxp__rp_dur(th, sizeof th, (double)r.throttle_ns);
		nxp__rp_dur(hx, sizeof hx, (double)r.host_execute_max_ns);
		nxp__rp_dur(sk, sizeof sk, (double)r.host_start_skew_ns);
		nxp__rp_dur(ex, sizeof ex, (double)r.explaining_delta_ns);
		fputs("<tr><td>", f);
		nxp__rp_esc(f, base ? base + 1 : r.ntff_path);
		fputs("</td><td>", f);
		nxp__rp_esc(f, r.instance_id);
		fprintf(f, "</td><td class=\"n\">%lld</td><td class=\"n\">%lld</td>", (long long)r.process_id,
			(long long)r.nc_idx);
		if (r.status) {
			fprintf(f, "<td colspan=\"9\" class=\"note\">could not be read: %s</td></tr>\n", nxp_strerror(r.status));
			continue;
		}
		fprintf(f, "<td class=\"n\">%s</td><td>", t);
		nxp__rp_bar(f, (double)r.total_ns / (double)maxt, i == 0 && n > 1 ? "#c0262d" : "#2f6fbf");
		fprintf(f, "</td><td class=\"n\">%s</td>", g);
		if (r.mfu_present)
			fprintf(f, "<td class=\"n\">%.2f %%</td>", r.mfu * 100);
		else
			fputs("<td class=\"n\">n/a</td>", f);
		fprintf(f, "<td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%lld, %s</td><td class=\"n\">%s</td><td>",
			db, th, (long long)r.host_execute_count, r.host_execute_count ? hx : "-",
			r.host_start_skew_ns >= 0 ? sk : "-");
		if (r.explaining_figure && *r.explaining_figure) {
			nxp__rp_esc(f, r.explaining_figure);
			fprintf(f, " (+%s)", ex);
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n<h2>Capture insights</h2>\n", f);
	const nxp_insights *ci = nxp_comparison_insights(cmp);
	c->stats.insight_count += (int32_t)nxp_insights_count(ci);
	insight_list(f, ci);
	fputs("</section>\n", f);
	c->stats.sections++;
	nxp_comparison_close(cmp);

	rc = 0;
	if (slowest != SIZE_MAX) {
		nxp_profile *p = NULL;
		nxp_status ps;
		nxp_status_init(&ps);
		if (nxp_capture_open_profile(cap, slowest, NULL, &p, &ps) == 0) {
			nxp_capture_profile cp;
			memset(&cp, 0, sizeof(cp));
			cp.struct_size = sizeof(cp);
			nxp_capture_file cf;
			memset(&cf, 0, sizeof(cf));
			cf.struct_size = sizeof(cf);
			const char *name = "";
			if (!nxp_capture_get_profile(cap, slowest, &cp) && cp.ntff >= 0 &&
			    !nxp_capture_get_file(cap, (size_t)cp.ntff, &cf) && cf.path)
				name = strrchr(cf.path, '/') ? strrchr(cf.path, '/') + 1 : cf.path;
			char s1[512], s2[512];
			profile_subtitle(p, s1, sizeof s1, s2, sizeof s2);
			fputs("<h2 style=\"margin-top:30px;font-size:20px\">Slowest profile: ", f);
			nxp__rp_esc(f, name);
			fputs("</h2><p class=\"note\">", f);
			nxp__rp_esc(f, s1);
			fputs("</p>\n", f);
			rc = profile_body(c, p);
			nxp_profile_close(p);
		} else {
			status_note(f, "The slowest profile's page", &ps, ps.code);
		}
	}
	footer(f);
	return rc;
}

NXP_API int nxp_capture_write_report(const nxp_capture *c, const char *path, const nxp_report_options *opts,
				     nxp_report_stats *stats, nxp_status *st)
{
	nxp_status local;
	nxp_status_init(&local);
	if (!st)
		st = &local;
	nxp_status_clear(st);
	if (!c)
		return nxp__error_set(st, NXP_E_INVAL, -1, "nxp_capture_write_report: NULL capture");
	if (!nxp_capture_profile_count(c))
		return nxp__error_set(st, NXP_E_NOT_FOUND, -1, "the capture has no device profile");
	rp_target t = {NULL, c};
	return write_file(path, opts, stats, st, "nxp_capture_write_report", capture_page, &t);
}
