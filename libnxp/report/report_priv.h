/* SPDX-License-Identifier: MIT */
/* Internal: the HTML report.  report_html.c writes the page (the sections,
 * the summary figures, the critical path, the insights, the capture
 * comparison); report_svg.c reads the activity of a profile into fixed-size
 * per-column arrays and draws the pictures (activity timeline, utilisation over
 * time) and the DMA queue table from them. */
#ifndef NXP_REPORT_PRIV_H
#define NXP_REPORT_PRIV_H

#include "nxp/nxp.h"
#include "nxp/report.h"

#include <stdint.h>
#include <stdio.h>

/* One row of the activity picture: an engine or a DMA queue of a physical core. */
typedef struct rp_row {
	char *label;      /* engine name, queue name (owned) */
	int kind;         /* RP_ROW_* */
	int engine;       /* nxp_engine for engine rows, else -1 */
	int64_t pcore;
	double *busy;     /* ns busy in each column (columns entries) */
	int64_t last_end; /* DMA queues: end of the union so far (packets may overlap) */
	int64_t bytes, packets, busy_ns;
} rp_row;

enum { RP_ROW_ENGINE = 0, RP_ROW_DMA_ALL = 1, RP_ROW_DMA_QUEUE = 2, RP_ROW_DMA_OTHER = 3 };

typedef struct rp_activity {
	int64_t t0, t1;  /* the span drawn */
	int columns;
	double col_ns;   /* width of a column in ns */
	rp_row *rows;
	size_t nrows, cap;
	int64_t npcores; /* distinct physical cores seen */
	int read_errors;
	int64_t bad_records;
	int64_t dma_queues; /* distinct queues (before grouping into "other") */
} rp_activity;

/* Everything a page needs. */
typedef struct rp_ctx {
	FILE *f;
	nxp_report_options o;
	nxp_report_stats stats;
	nxp_status *st;
} rp_ctx;

/* Text for HTML (element content and quoted attribute values): & < > " '
 * escaped, control characters replaced.  NULL writes nothing. */
void nxp__rp_esc(FILE *f, const char *s);
/* "12.345 µs" style durations and "1.25 MB" style sizes. */
void nxp__rp_dur(char *buf, size_t n, double ns);
void nxp__rp_bytes(char *buf, size_t n, double bytes);

/* Read the ActiveTime and DmaPacket tables of `p` into `a` (span t0..t1 from
 * the Metadata).  0 or a negative nxp_error (NXP_E_NOMEM, cursor open). */
int nxp__rp_activity_read(rp_activity *a, nxp_profile *p, int columns, int max_dma_rows, nxp_status *st);
void nxp__rp_activity_free(rp_activity *a);
/* The sections drawn from it. */
void nxp__rp_svg_timeline(FILE *f, const rp_activity *a);
void nxp__rp_svg_utilisation(FILE *f, const rp_activity *a);
void nxp__rp_dma_table(FILE *f, const rp_activity *a);
/* A horizontal bar of `frac` (0..1) as inline SVG, `color` a CSS colour literal. */
void nxp__rp_bar(FILE *f, double frac, const char *color);
/* Colour of an engine (nxp_engine), or of DMA for -1. */
const char *nxp__rp_engine_color(int engine);

#endif
