/* SPDX-License-Identifier: MIT */
/* `nxp export NEFF NTFF -o DIR` / `nxp export --system PATH -o DIR`: every
 * table as DIR/<Table>.parquet (nxp_profile_export_parquet). */
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define USAGE                                                                                         \
	"nxp export NEFF NTFF -o DIR [--tables T,...] [--compression zstd|gzip|none] [--force]\n"    \
	"      [--quiet] [--allow-mismatch]\n"                                                        \
	"  nxp export --system DIR|FILE -o DIR [--tables T,...] [--compression ...] [--force]\n"      \
	"      every table as DIR/<Table>.parquet (Instruction, DmaPacket, ..., SchemaFields);\n"    \
	"      existing files are refused without --force\n"

static void progress(void *user, const char *table, int done, int total)
{
	(void)user;
	if (table)
		fprintf(stderr, "\rnxp export: [%d/%d] %-24s", done + 1, total, table);
	else
		fprintf(stderr, "\rnxp export: %d tables written%-24s\n", total, "");
}

int cmd_export(int argc, char **argv)
{
	/* --format perfetto|chrome-json: a timeline file (cmd_export_timeline.c). */
	for (int i = 1; i + 1 < argc; i++)
		if (!strcmp(argv[i], "--format"))
			return cmd_export_timeline(argc, argv);
	const char *paths[2] = {NULL, NULL}, *out = NULL, *system = NULL, *tables = NULL;
	int npaths = 0, quiet = 0;
	nxp_export_options eo;
	nxp_export_options_init(&eo);
	nxp_profile_options po;
	nxp_profile_options_init(&po);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int has = i + 1 < argc;
		if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			if (!has)
				return cli_bad_usage("export", USAGE, "%s needs a directory", a);
			out = argv[++i];
		} else if (!strcmp(a, "--system")) {
			if (!has)
				return cli_bad_usage("export", USAGE, "--system needs a path");
			system = argv[++i];
		} else if (!strcmp(a, "--tables")) {
			if (!has)
				return cli_bad_usage("export", USAGE, "--tables needs a list of table names");
			tables = argv[++i];
		} else if (!strcmp(a, "--compression")) {
			if (!has)
				return cli_bad_usage("export", USAGE, "--compression needs zstd, gzip or none");
			const char *c = argv[++i];
			if (!strcmp(c, "zstd"))
				eo.codec = NXP_PARQUET_ZSTD;
			else if (!strcmp(c, "gzip"))
				eo.codec = NXP_PARQUET_GZIP;
			else if (!strcmp(c, "none"))
				eo.codec = NXP_PARQUET_NONE;
			else
				return cli_bad_usage("export", USAGE, "unknown --compression '%s' (zstd, gzip, none)", c);
		} else if (!strcmp(a, "--force")) {
			eo.overwrite = 1;
		} else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
			quiet = 1;
		} else if (!strcmp(a, "--allow-mismatch")) {
			po.flags |= NXP_PROFILE_ALLOW_MISMATCH;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			return cli_help(USAGE);
		} else if (a[0] == '-' && a[1]) {
			return cli_bad_usage("export", USAGE, "unknown option '%s'", a);
		} else if (npaths == 2) {
			return cli_bad_usage("export", USAGE, "a NEFF and an NTFF: '%s' is a third file", a);
		} else {
			paths[npaths++] = a;
		}
	}
	if (!out)
		return cli_bad_usage("export", USAGE, "no output directory (-o DIR)");
	if (system && npaths)
		return cli_bad_usage("export", USAGE, "--system takes no NEFF/NTFF ('%s')", paths[0]);
	if (!system && npaths != 2)
		return cli_bad_usage("export", USAGE, npaths ? "no NTFF given" : "no NEFF and NTFF given");

	/* --tables a,b,c -> NULL-terminated list */
	char *tcopy = NULL;
	const char **tlist = NULL;
	if (tables) {
		tcopy = strdup(tables);
		size_t n = 1;
		for (const char *c = tables; *c; c++)
			n += *c == ',';
		tlist = calloc(n + 1, sizeof(*tlist));
		if (!tcopy || !tlist) {
			free(tcopy);
			free(tlist);
			return cli_fail("export", "out of memory");
		}
		size_t k = 0;
		for (char *save = NULL, *t = strtok_r(tcopy, ",", &save); t; t = strtok_r(NULL, ",", &save))
			tlist[k++] = t;
		eo.tables = tlist;
	}
	if (!quiet && isatty(2))
		eo.progress = progress;

	nxp_status st;
	nxp_status_init(&st);
	int rc;
	if (system) {
		rc = nxp_system_export_parquet(system, out, &eo, &st);
	} else {
		nxp_profile *p = NULL;
		if (cli_open_profile("export", &p, paths[0], paths[1], &po)) {
			free(tcopy);
			free(tlist);
			return 1;
		}
		rc = nxp_profile_export_parquet(p, out, &eo, &st);
		nxp_profile_close(p);
	}
	free(tcopy);
	free(tlist);
	if (rc)
		return cli_error("export", &st);
	return 0;
}
