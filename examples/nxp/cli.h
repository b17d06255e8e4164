/* SPDX-License-Identifier: MIT */
/* Shared helpers of the `nxp` command-line tool. */
#ifndef NXP_CLI_H
#define NXP_CLI_H

#include <nxp/nxp.h>

#include <stdint.h>
#include <stdio.h>

#if defined(__GNUC__)
#define CLI_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define CLI_PRINTF(a, b)
#endif

/* Subcommands: each lives in cmd_<name>.c and returns the exit status. */
int cmd_info(int argc, char **argv);
int cmd_synth(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_summary(int argc, char **argv);
int cmd_capture(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_critical_path(int argc, char **argv);
int cmd_insights(int argc, char **argv);
int cmd_compare(int argc, char **argv);
/* One insight as a JSON object / as indented text (cmd_insights.c). */
void cli_insight_json(FILE *f, const nxp_insight *x);
void cli_insight_text(FILE *f, const nxp_insight *x);
/* `nxp export ... --format perfetto|chrome-json` (cmd_export_timeline.c). */
int cmd_export_timeline(int argc, char **argv);
/* `nxp dump --system ...`: lives with the system-profile module (cmd_dump_system.c). */
int cmd_dump_system(int argc, char **argv);

/* Print "nxp <cmd>: error: <message> (byte offset N)" to stderr; returns exit status 1. */
int cli_error(const char *cmd, const nxp_status *st);
/* cli_error for a command that writes files: an existing output refused adds
 * "; --force replaces existing files". */
int cli_error_output(const char *cmd, const nxp_status *st);
/* The same, the message prefixed with "<path>: " (for a library message that does not name the file). */
int cli_error_in(const char *cmd, const char *path, const nxp_status *st);
/* A damaged trace said on stderr ("nxp <cmd>: warning: ... skipped"), from the
 * profile's Warning table (what export writes to Warning.parquet); nothing for
 * an intact one.  For commands whose output would otherwise not show that
 * records were left out. */
void cli_warn_damage(const char *cmd, nxp_profile *p);
/* Print "nxp <cmd>: error: <formatted>" to stderr; returns exit status 1. */
int cli_fail(const char *cmd, const char *fmt, ...) CLI_PRINTF(2, 3);
/* Print a usage error to stderr; returns exit status 2. */
int cli_usage(const char *usage);
/* A usage error that says what is wrong: "nxp <cmd>: <formatted>" on one line,
 * then the usage, both on stderr; returns exit status 2. */
int cli_bad_usage(const char *cmd, const char *usage, const char *fmt, ...) CLI_PRINTF(3, 4);
/* `--help`: the usage on stdout; returns exit status 0. */
int cli_help(const char *usage);

/* Check by content (nxp_file_kind_detect) that `path` can be what `want` (an
 * nxp_file_kind) says before a decoder sees it.  A pipe, the wanted kind, and
 * content nothing recognises (left to the decoder's own message) pass: returns
 * 0 and sets *kind when kind is not NULL.  A missing or unreadable path, a
 * directory, an empty file or a file of another kind: one line on stderr
 * naming the path ("x.ntff is an NTFF trace, not a NEFF<hint>") and returns 1. */
int cli_check_input(const char *cmd, const char *path, int want, const char *hint, int *kind);
/* Open a profile after checking both inputs; on failure prints one line and returns 1. */
int cli_open_profile(const char *cmd, nxp_profile **out, const char *neff, const char *ntff,
		     const nxp_profile_options *po);
/* Flush and close stdout.  A failed write (disk full, closed pipe, EIO) prints
 * "nxp <cmd>: error: cannot write the output: <reason>" and returns 1; else 0. */
int cli_finish_stdout(const char *cmd);
/* Once, first thing in main: the process heap on transparent huge pages
 * where the system allows (heap.c says how, and why).  1 when the heap was
 * advised; 0 when not (NXP_HUGEPAGES=0, not glibc's brk heap, refused). */
int cli_heap_setup(void);

/* A time for --from / --to: an integer number of ns (absolute, as in the
 * tables), or "+<number><unit>" relative to the trace start, unit ns, us, ms or
 * s, the number decimal with an optional fraction ("+1.5ms", "+200us").
 * Exact (no floating point); a relative time finer than 1 ns is refused.
 * 0 on success (*relative set), -1 otherwise. */
int cli_parse_time(const char *s, int64_t *ns, int *relative);
/* A duration in ns as text with a unit ("98.327 us"). */
void cli_format_duration(int64_t ns, char *out, size_t n);
/* Write s as a JSON string literal (with quotes); NULL writes null. */
void cli_json_string(FILE *f, const char *s);
/* Write s as one CSV field (quoted when needed). */
void cli_csv_field(FILE *f, const char *s);
/* Parse a whole decimal integer; 0 on success, -1 otherwise. */
int cli_parse_i64(const char *s, int64_t *out);
/* Lower-case hex of n bytes into out (2n+1 bytes). */
void cli_hex(const uint8_t *b, size_t n, char *out);

#endif
