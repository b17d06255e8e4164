/* SPDX-License-Identifier: MIT */
/**
 * @file nxp/report.h
 * @brief A one-page HTML report of a device profile or of a whole capture
 *        (since 0.2).  Include <nxp/nxp.h>, not this file.
 *
 * The report is one self-contained HTML file: inline CSS and inline SVG
 * pictures, no script, nothing fetched from the network or the disk.  It
 * shows the key figures of the summary, an engine-activity timeline (busy
 * bands per engine and per DMA queue, downsampled to a fixed number of pixel
 * columns), utilisation over time, the top opcodes by time, DMA throughput
 * per queue, the critical-path breakdown and the insights; for a capture, the
 * rank comparison first, then the slowest profile's page.  Its size is bounded
 * by the number of columns and rows, never by the trace (a few hundred KB,
 * at most a few MB).  Every string taken from the profile is HTML-escaped.
 *
 * The file is written under a temporary name in the same directory and
 * renamed at the end: a failure never leaves a partial file at `path`.
 */
#ifndef NXP_REPORT_H
#define NXP_REPORT_H

#include <nxp/common.h>
#include <nxp/ntff.h>
#include <nxp/summary.h>
#include <nxp/system.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Options of the report writers. */
typedef struct nxp_report_options {
	size_t struct_size;      /**< sizeof(nxp_report_options) */
	const char *title;       /**< page title; NULL = from the profile / capture */
	const nxp_hardware *hw;  /**< NULL = each profile's arch */
	int32_t columns;         /**< pixel columns of the timeline pictures: 0 = 800; 100..4000 */
	int32_t max_dma_rows;    /**< DMA queue rows per physical core before "other queues": 0 = 16 */
	int32_t top_opcodes;     /**< opcodes listed: 0 = 15 */
	int32_t analysis;        /**< 1 (default): critical path and insights; 0: leave them out */
	int32_t overwrite;       /**< nonzero: replace an existing file; 0: NXP_E_INVAL if it exists */
} nxp_report_options;

static inline void nxp_report_options_init(nxp_report_options *o)
{
	o->struct_size = sizeof(*o);
	o->title = 0;
	o->hw = 0;
	o->columns = 0;
	o->max_dma_rows = 0;
	o->top_opcodes = 0;
	o->analysis = 1;
	o->overwrite = 0;
}

/** What a report holds. */
typedef struct nxp_report_stats {
	size_t struct_size;        /**< sizeof(nxp_report_stats) */
	int64_t bytes;             /**< size of the file */
	int32_t timeline_rows;     /**< rows of the activity picture */
	int32_t sections;          /**< sections written */
	/** 0, or the error of the part that could not be computed (the page then
	 *  says so in that section instead of failing). */
	int32_t critical_path_status;
	int32_t insights_status;
	int32_t comparison_status; /**< capture reports only */
	int32_t insight_count;
	int32_t read_errors;       /**< cursors that stopped on an error (the page says so) */
	int64_t bad_records;       /**< records the cursors skipped as damaged */
} nxp_report_stats;

/**
 * Write the report of profile `p` to `path` (NULL options = defaults; `stats`
 * may be NULL).  The summary is required; the critical path and insights are
 * shown when they can be computed, and their sections say why not otherwise.
 * Errors: NXP_E_INVAL (NULL profile or path, short struct, columns out of
 * range, an existing file without overwrite), NXP_E_IO (cannot create, write or
 * rename; the message has strerror's text), NXP_E_NOMEM, and the errors of
 * nxp_profile_summarize().
 */
NXP_API int nxp_profile_write_report(nxp_profile *p, const char *path, const nxp_report_options *opts,
				     nxp_report_stats *stats, nxp_status *st);

/**
 * Write the report of a capture: the rank comparison (nxp_capture_compare)
 * with its insights, then the page of the slowest device profile that opens.
 * Errors: those of nxp_profile_write_report(), NXP_E_NOT_FOUND (no device
 * profile in the capture).
 */
NXP_API int nxp_capture_write_report(const nxp_capture *c, const char *path, const nxp_report_options *opts,
				     nxp_report_stats *stats, nxp_status *st);

/** @name First published sizes (ABI), see doc/api.md "ABI rules" (since 0.2) */
/**@{*/
#define NXP_REPORT_OPTIONS_SIZE_V0_2 (offsetof(nxp_report_options, overwrite) + sizeof(((nxp_report_options *)0)->overwrite)) /**< 48 on LP64 */
#define NXP_REPORT_STATS_SIZE_V0_2 (offsetof(nxp_report_stats, bad_records) + sizeof(((nxp_report_stats *)0)->bad_records)) /**< 56 on LP64 */
/**@}*/

#ifdef __cplusplus
}
#endif

#endif /* NXP_REPORT_H */
