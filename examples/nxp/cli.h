/* SPDX-License-Identifier: MIT */
/* Shared helpers of the `nxp` command-line tool. */
#ifndef NXP_CLI_H
#define NXP_CLI_H

#include <nxp/nxp.h>

#include <stdint.h>
#include <stdio.h>

/* Subcommands: each lives in cmd_<name>.c and returns the exit status. */
int cmd_info(int argc, char **argv);
int cmd_synth(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_summary(int argc, char **argv);
int cmd_capture(int argc, char **argv);
/* `nxp dump --system ...`: lives with the system-profile module (cmd_dump_system.c). */
int cmd_dump_system(int argc, char **argv);

/* Print "nxp <cmd>: error: <message> (byte offset N)" to stderr; returns exit status 1. */
int cli_error(const char *cmd, const nxp_status *st);
/* Print a usage error to stderr; returns exit status 2. */
int cli_usage(const char *usage);
/* Write s as a JSON string literal (with quotes); NULL writes null. */
void cli_json_string(FILE *f, const char *s);
/* Write s as one CSV field (quoted when needed). */
void cli_csv_field(FILE *f, const char *s);
/* Parse a whole decimal integer; 0 on success, -1 otherwise. */
int cli_parse_i64(const char *s, int64_t *out);
/* Lower-case hex of n bytes into out (2n+1 bytes). */
void cli_hex(const uint8_t *b, size_t n, char *out);

#endif
