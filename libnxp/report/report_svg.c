/* SPDX-License-Identifier: MIT */
/* The report's pictures: the activity of a profile read once into per-column
 * busy time (ActiveTime for the engines and DMA as a whole, DmaPacket per
 * queue), then drawn as inline SVG.  Memory and output are bounded by
 * rows x columns, never by the trace. */
#include "report_priv.h"

#include "common/status.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const engine_colors[NXP_ENGINE_COUNT] = {"#d9482b", "#2a9d8f", "#7b5ea7", "#e9a21a", "#5b7f3a"};

const char *nxp__rp_engine_color(int engine)
{
	return engine >= 0 && engine < NXP_ENGINE_COUNT ? engine_colors[engine] : "#2f6fbf";
}

static const char *row_color(const rp_row *r)
{
	switch (r->kind) {
	case RP_ROW_ENGINE:
		return nxp__rp_engine_color(r->engine);
	case RP_ROW_DMA_ALL:
		return "#1f4e8c";
	case RP_ROW_DMA_OTHER:
		return "#8a9bb0";
	default:
		return "#3d8fd6";
	}
}

void nxp__rp_esc(FILE *f, const char *s)
{
	if (!s)
		return;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				fputc(*p == '\t' || *p == '\n' ? ' ' : '?', f);
			else
				fputc(*p, f);
		}
	}
}

void nxp__rp_dur(char *buf, size_t n, double ns)
{
	double a = fabs(ns);
	if (a >= 1e9)
		snprintf(buf, n, "%.3f s", ns / 1e9);
	else if (a >= 1e6)
		snprintf(buf, n, "%.3f ms", ns / 1e6);
	else if (a >= 1e3)
		snprintf(buf, n, "%.3f \xc2\xb5s", ns / 1e3);
	else
		snprintf(buf, n, "%.0f ns", ns);
}

void nxp__rp_bytes(char *buf, size_t n, double b)
{
	if (b >= 1e9)
		snprintf(buf, n, "%.2f GB", b / 1e9);
	else if (b >= 1e6)
		snprintf(buf, n, "%.2f MB", b / 1e6);
	else if (b >= 1e3)
		snprintf(buf, n, "%.2f kB", b / 1e3);
	else
		snprintf(buf, n, "%.0f B", b);
}

void nxp__rp_bar(FILE *f, double frac, const char *color)
{
	if (!(frac > 0))
		frac = 0;
	if (frac > 1)
		frac = 1;
	fprintf(f, "<svg class=\"bar\" width=\"160\" height=\"10\"><rect width=\"160\" height=\"10\" fill=\"#eef1f5\"/>"
		   "<rect width=\"%.1f\" height=\"10\" fill=\"%s\"/></svg>",
		160 * frac, color);
}

/* ---- reading ---- */

static rp_row *add_row(rp_activity *a, int kind, int engine, int64_t pcore, const char *label)
{
	if (a->nrows == a->cap) {
		size_t nc = a->cap ? a->cap * 2 : 16;
		rp_row *r = realloc(a->rows, nc * sizeof(*r));
		if (!r)
			return NULL;
		a->rows = r;
		a->cap = nc;
	}
	rp_row *r = &a->rows[a->nrows];
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	r->engine = engine;
	r->pcore = pcore;
	r->label = strdup(label ? label : "");
	r->busy = calloc((size_t)a->columns, sizeof(double));
	r->last_end = INT64_MIN;
	if (!r->label || !r->busy) {
		free(r->label);
		free(r->busy);
		return NULL;
	}
	a->nrows++;
	return r;
}

/* Add [s, e) to a row's columns (clipped to the span). */
static void add_busy(const rp_activity *a, rp_row *r, int64_t s, int64_t e)
{
	if (s < a->t0)
		s = a->t0;
	if (e > a->t1)
		e = a->t1;
	if (e <= s)
		return;
	r->busy_ns += e - s;
	double x0 = (double)(s - a->t0) / a->col_ns, x1 = (double)(e - a->t0) / a->col_ns;
	int c0 = (int)x0, c1 = (int)x1;
	if (c0 >= a->columns)
		c0 = a->columns - 1;
	if (c1 >= a->columns)
		c1 = a->columns - 1;
	if (c0 == c1) {
		r->busy[c0] += (x1 - x0) * a->col_ns;
		return;
	}
	r->busy[c0] += (c0 + 1 - x0) * a->col_ns;
	for (int c = c0 + 1; c < c1; c++)
		r->busy[c] += a->col_ns;
	r->busy[c1] += (x1 - c1) * a->col_ns;
}

static void note_cursor(rp_activity *a, nxp_cursor *c, int rc)
{
	nxp_cursor_stats cs;
	memset(&cs, 0, sizeof(cs));
	cs.struct_size = sizeof(cs);
	if (nxp_cursor_get_stats(c, &cs) == 0)
		a->bad_records += cs.bad_records;
	if (rc < 0)
		a->read_errors++;
}

static int cmp_rows(const void *x, const void *y)
{
	const rp_row *a = x, *b = y;
	if (a->pcore != b->pcore)
		return a->pcore < b->pcore ? -1 : 1;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if (a->kind == RP_ROW_ENGINE)
		return a->engine - b->engine;
	if (a->bytes != b->bytes)
		return a->bytes > b->bytes ? -1 : 1;
	return strcmp(a->label, b->label);
}

/* Keep the `max` queues of each pcore with the most bytes; fold the others
 * into one "other queues" row per pcore. */
static int fold_queues(rp_activity *a, int max)
{
	if (a->nrows) /* rows is NULL when there are none: qsort's argument is nonnull */
		qsort(a->rows, a->nrows, sizeof(*a->rows), cmp_rows);
	size_t out = 0;
	int64_t cur = INT64_MIN;
	int seen = 0;
	rp_row other;
	int have_other = 0;
	memset(&other, 0, sizeof(other));
	for (size_t i = 0; i <= a->nrows; i++) {
		int flush = i == a->nrows || a->rows[i].pcore != cur;
		if (flush && have_other) {
			for (int c = 0; c < a->columns; c++)
				if (other.busy[c] > a->col_ns)
					other.busy[c] = a->col_ns;
			a->rows[out++] = other;
			have_other = 0;
		}
		if (i == a->nrows)
			break;
		rp_row *r = &a->rows[i];
		if (r->pcore != cur) {
			cur = r->pcore;
			seen = 0;
		}
		if (r->kind != RP_ROW_DMA_QUEUE || seen++ < max) {
			a->rows[out++] = *r;
			continue;
		}
		if (!have_other) {
			/* the first folded row becomes the "other" row */
			other = *r;
			free(other.label);
			other.kind = RP_ROW_DMA_OTHER;
			other.label = strdup("other queues");
			if (!other.label) {
				free(other.busy);
				return NXP_E_NOMEM;
			}
			have_other = 1;
			continue;
		}
		for (int c = 0; c < a->columns; c++)
			other.busy[c] += r->busy[c];
		other.bytes += r->bytes;
		other.packets += r->packets;
		other.busy_ns += r->busy_ns;
		free(r->label);
		free(r->busy);
	}
	a->nrows = out;
	return 0;
}

int nxp__rp_activity_read(rp_activity *a, nxp_profile *p, int columns, int max_dma_rows, nxp_status *st)
{
	memset(a, 0, sizeof(*a));
	nxp_metadata md;
	memset(&md, 0, sizeof(md));
	md.struct_size = sizeof(md);
	nxp_profile_get_metadata(p, &md);
	a->t0 = md.first_hw_timestamp;
	a->t1 = md.last_hw_timestamp > a->t0 ? md.last_hw_timestamp : a->t0 + 1;
	a->columns = columns;
	a->col_ns = (double)(a->t1 - a->t0) / columns;

	nxp_cursor *c = NULL;
	int rc = nxp_cursor_open(&c, p, NXP_TABLE_ACTIVE_TIME, NULL, st);
	if (rc)
		return rc;
	nxp_active_time at;
	memset(&at, 0, sizeof(at));
	at.struct_size = sizeof(at);
	rp_row *last = NULL;
	while ((rc = nxp_cursor_next_active_time(c, &at)) == NXP_OK) {
		int kind = at.engine_id >= 0 ? RP_ROW_ENGINE : RP_ROW_DMA_ALL;
		if (!last || last->pcore != at.pcore_idx || last->engine != at.engine_id || last->kind != kind) {
			last = NULL;
			for (size_t i = 0; i < a->nrows; i++)
				if (a->rows[i].pcore == at.pcore_idx && a->rows[i].engine == at.engine_id &&
				    a->rows[i].kind == kind)
					last = &a->rows[i];
			if (!last && !(last = add_row(a, kind, at.engine_id, at.pcore_idx,
						      kind == RP_ROW_DMA_ALL ? "DMA (all queues)" : at.engine))) {
				nxp_cursor_close(c);
				return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
			}
		}
		add_busy(a, last, at.start_ts, at.end_ts);
	}
	note_cursor(a, c, rc);
	nxp_cursor_close(c);

	c = NULL;
	if ((rc = nxp_cursor_open(&c, p, NXP_TABLE_DMA_PACKET, NULL, st)))
		return rc;
	nxp_dma_packet d;
	memset(&d, 0, sizeof(d));
	d.struct_size = sizeof(d);
	last = NULL;
	while ((rc = nxp_cursor_next_dma_packet(c, &d)) == NXP_OK) {
		const char *qn = d.queue_name ? d.queue_name : "";
		if (!last || last->pcore != d.pcore_idx || strcmp(last->label, qn)) {
			last = NULL;
			for (size_t i = 0; i < a->nrows; i++)
				if (a->rows[i].kind == RP_ROW_DMA_QUEUE && a->rows[i].pcore == d.pcore_idx &&
				    !strcmp(a->rows[i].label, qn))
					last = &a->rows[i];
			if (!last) {
				if (!(last = add_row(a, RP_ROW_DMA_QUEUE, -1, d.pcore_idx, qn))) {
					nxp_cursor_close(c);
					return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
				}
				a->dma_queues++;
			}
		}
		last->bytes += d.transfer_bytes;
		last->packets++;
		/* the union of the queue's packets (they come in start order) */
		int64_t s = d.start_ts > last->last_end ? d.start_ts : last->last_end;
		if (d.end_ts > s)
			add_busy(a, last, s, d.end_ts);
		if (d.end_ts > last->last_end)
			last->last_end = d.end_ts;
	}
	note_cursor(a, c, rc);
	nxp_cursor_close(c);

	for (size_t i = 0; i < a->nrows; i++) {
		int64_t seen = 0;
		for (size_t j = 0; j < i; j++)
			seen |= a->rows[j].pcore == a->rows[i].pcore;
		a->npcores += !seen;
	}
	if (fold_queues(a, max_dma_rows))
		return nxp__error_set(st, NXP_E_NOMEM, -1, "out of memory");
	return 0;
}

void nxp__rp_activity_free(rp_activity *a)
{
	for (size_t i = 0; i < a->nrows; i++) {
		free(a->rows[i].label);
		free(a->rows[i].busy);
	}
	free(a->rows);
	memset(a, 0, sizeof(*a));
}

/* ---- drawing ---- */

#define LABEL_W 190
#define ROW_H 14
#define AXIS_H 22

static void time_axis(FILE *f, const rp_activity *a, int x0, int y, int width)
{
	double span = (double)(a->t1 - a->t0);
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#555\"/>\n", x0, y, x0 + width, y);
	for (int k = 0; k <= 5; k++) {
		int x = x0 + width * k / 5;
		char t[32];
		nxp__rp_dur(t, sizeof t, span * k / 5);
		fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#555\"/>", x, y, x, y + 4);
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"%s\" class=\"ax\">+%s</text>\n", x, y + 15,
			k == 0 ? "start" : k == 5 ? "end" : "middle", t);
	}
}

/* Busy fraction of a column as one of 4 shades (0 = idle). */
static int level(double busy, double col_ns)
{
	double fr = col_ns > 0 ? busy / col_ns : 0;
	if (fr <= 0.005)
		return 0;
	int l = (int)ceil(fr * 4);
	return l < 1 ? 1 : l > 4 ? 4 : l;
}

void nxp__rp_svg_timeline(FILE *f, const rp_activity *a)
{
	int W = LABEL_W + a->columns + 10;
	int H = (int)a->nrows * ROW_H + AXIS_H + 6;
	fprintf(f,
		"<svg id=\"activity\" class=\"pic\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"engine and DMA queue activity over time\">\n",
		W, H, W, H);
	fprintf(f, "<rect x=\"%d\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#f7f8fa\"/>\n", LABEL_W, a->columns,
		(int)a->nrows * ROW_H);
	int64_t pc = INT64_MIN;
	for (size_t i = 0; i < a->nrows; i++) {
		const rp_row *r = &a->rows[i];
		int y = (int)i * ROW_H;
		if (r->pcore != pc && i)
			fprintf(f, "<line x1=\"0\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#bbb\"/>\n", y, W, y);
		pc = r->pcore;
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" class=\"lb\">", LABEL_W - 6, y + ROW_H - 3);
		if (a->npcores > 1)
			fprintf(f, "p%lld ", (long long)r->pcore);
		nxp__rp_esc(f, r->label);
		fputs("</text>\n", f);
		/* one path per shade, one "M x y h w v h h -w z" per run of equal shade */
		for (int l = 1; l <= 4; l++) {
			int open = 0;
			for (int c = 0; c < a->columns;) {
				if (level(r->busy[c], a->col_ns) != l) {
					c++;
					continue;
				}
				int e = c + 1;
				while (e < a->columns && level(r->busy[e], a->col_ns) == l)
					e++;
				if (!open) {
					fprintf(f, "<path fill=\"%s\" fill-opacity=\"%.2f\" d=\"", row_color(r), 0.25 * l);
					open = 1;
				}
				fprintf(f, "M%d %dh%dv%dh%dz", LABEL_W + c, y + 1, e - c, ROW_H - 2, c - e);
				c = e;
			}
			if (open)
				fputs("\"/>\n", f);
		}
	}
	time_axis(f, a, LABEL_W, (int)a->nrows * ROW_H + 2, a->columns);
	fputs("</svg>\n", f);
}

void nxp__rp_svg_utilisation(FILE *f, const rp_activity *a)
{
	enum { BINS = 200, PH = 180, TOP = 8 };
	int W = LABEL_W + a->columns + 10, H = TOP + PH + AXIS_H + 6;
	int per = (a->columns + BINS - 1) / BINS;
	int bins = (a->columns + per - 1) / per;
	fprintf(f,
		"<svg id=\"utilisation\" class=\"pic\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"utilisation over time\">\n",
		W, H, W, H);
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#f7f8fa\"/>\n", LABEL_W, TOP, a->columns,
		PH);
	for (int k = 0; k <= 4; k++) {
		int y = TOP + PH - PH * k / 4;
		fprintf(f,
			"<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ccd\"/><text x=\"%d\" y=\"%d\" "
			"text-anchor=\"end\" class=\"ax\">%d%%</text>\n",
			LABEL_W, y, LABEL_W + a->columns, y, LABEL_W - 6, y + 4, 25 * k);
	}
	/* one line per engine and one for DMA as a whole, averaged over the cores */
	int ly = TOP + 12;
	for (int e = -1; e < NXP_ENGINE_COUNT; e++) {
		int kind = e < 0 ? RP_ROW_DMA_ALL : RP_ROW_ENGINE;
		int nr = 0;
		for (size_t i = 0; i < a->nrows; i++)
			nr += a->rows[i].kind == kind && a->rows[i].engine == e;
		if (!nr)
			continue;
		const char *col = e < 0 ? "#1f4e8c" : nxp__rp_engine_color(e);
		fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"", col);
		for (int b = 0; b < bins; b++) {
			double busy = 0, width = 0;
			for (int c = b * per; c < (b + 1) * per && c < a->columns; c++) {
				width += a->col_ns;
				for (size_t i = 0; i < a->nrows; i++)
					if (a->rows[i].kind == kind && a->rows[i].engine == e)
						busy += a->rows[i].busy[c];
			}
			double u = width > 0 ? busy / (width * (double)a->npcores) : 0;
			if (u > 1)
				u = 1;
			double x = LABEL_W + (b + 0.5) * per;
			if (x > LABEL_W + a->columns)
				x = LABEL_W + a->columns;
			fprintf(f, "%s%.1f,%.1f", b ? " " : "", x, TOP + PH - u * PH);
		}
		fputs("\"/>\n", f);
		fprintf(f,
			"<rect x=\"8\" y=\"%d\" width=\"12\" height=\"4\" fill=\"%s\"/><text x=\"26\" y=\"%d\" "
			"class=\"lb\">%s</text>\n",
			ly - 4, col, ly, e < 0 ? "DMA (any queue)" : nxp_engine_name(e));
		ly += 16;
	}
	time_axis(f, a, LABEL_W, TOP + PH + 2, a->columns);
	fputs("</svg>\n", f);
}

void nxp__rp_dma_table(FILE *f, const rp_activity *a)
{
	int64_t maxb = 1;
	size_t n = 0;
	for (size_t i = 0; i < a->nrows; i++)
		if (a->rows[i].kind >= RP_ROW_DMA_QUEUE) {
			n++;
			if (a->rows[i].bytes > maxb)
				maxb = a->rows[i].bytes;
		}
	if (!n) {
		fputs("<p class=\"note\">No DMA packets in the trace.</p>\n", f);
		return;
	}
	fputs("<table class=\"t\" id=\"dma-table\"><tr><th>queue</th><th>packets</th><th>bytes</th><th></th>"
	      "<th>busy</th><th>GB/s while busy</th><th>GB/s over the span</th></tr>\n",
	      f);
	double span = (double)(a->t1 - a->t0);
	for (size_t i = 0; i < a->nrows; i++) {
		const rp_row *r = &a->rows[i];
		if (r->kind < RP_ROW_DMA_QUEUE)
			continue;
		char b[32], d[32];
		nxp__rp_bytes(b, sizeof b, (double)r->bytes);
		nxp__rp_dur(d, sizeof d, (double)r->busy_ns);
		fputs("<tr><td>", f);
		if (a->npcores > 1)
			fprintf(f, "p%lld ", (long long)r->pcore);
		nxp__rp_esc(f, r->label);
		fprintf(f, "</td><td class=\"n\">%lld</td><td class=\"n\">%s</td><td>", (long long)r->packets, b);
		nxp__rp_bar(f, (double)r->bytes / (double)maxb, row_color(r));
		fprintf(f, "</td><td class=\"n\">%s</td><td class=\"n\">%.2f</td><td class=\"n\">%.2f</td></tr>\n", d,
			r->busy_ns > 0 ? (double)r->bytes / (double)r->busy_ns : 0.0,
			span > 0 ? (double)r->bytes / span : 0.0);
	}
	fputs("</table>\n", f);
}
