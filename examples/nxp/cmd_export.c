/* SPDX-License-Identifier: MIT */
/* `nxp export NEFF NTFF -o DIR` / `nxp export --system PATH -o DIR`: every
 * table as DIR/<Table>.parquet (nxp_profile_export_parquet);
 * `nxp export --capture DIR -o OUT`: Hive partitions (nxp_capture_export_parquet). */
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define USAGE                                                                                         \
	"nxp export NEFF NTFF -o DIR [--tables T,...] [--compression zstd|gzip|none] [--force]\n"    \
	"      [--level N] [--threads N] [--quiet] [--allow-mismatch]\n"                            \
	"  nxp export --system DIR|FILE -o DIR [--tables T,...] [--compression ...] [--force]\n"      \
	"      [--threads N]\n"                                                                      \
	"  nxp export --capture DIR -o OUT [--tables T,...] [--compression ...] [--force]\n"       \
	"      [--threads N]\n"                                                                      \
	"      every table as DIR/<Table>.parquet (Instruction, DmaPacket, ..., SchemaFields);\n"    \
	"      --system FILE: the tables of the file's kind by its name (ntrace.pb, trace.json:\n"  \
	"      events; trace_info.pb, cpu_util.pb, host_mem.pb), the others with no rows;\n"       \
	"      --capture: OUT/<Table>/profile=<NTFF name>/part-0.parquet for every device\n"        \
	"      profile, OUT/<Table>/part-0.parquet for the system tables (Hive partitions);\n"      \
	"      --tables: names, 'default' (every table but Flow: what no --tables writes),\n"       \
	"      'all' (Flow too); a list starting with '+' adds to the default set (+Flow);\n"      \
	"      --level: the codec's level (zstd -7..22, default 1: lower is faster, higher\n"      \
	"      smaller; gzip 1..9, default 6);\n"                                                    \
	"      existing files are refused without --force; --threads: tables (--capture:\n"         \
	"      profiles) written at once (default 0 = all cores, 1 = one by one; the same\n"        \
	"      files either way)\n"

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
	const char *paths[2] = {NULL, NULL}, *out = NULL, *system = NULL, *tables = NULL, *capture = NULL;
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
		} else if (!strcmp(a, "--capture")) {
			if (!has)
				return cli_bad_usage("export", USAGE, "--capture needs a capture directory");
			capture = argv[++i];
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
		} else if (!strcmp(a, "--level")) {
			char *end = NULL;
			long n = has ? strtol(argv[i + 1], &end, 10) : 0;
			if (!has || !end || *end || end == argv[i + 1] || n < -7 || n > 22 || n == 0)
				return cli_bad_usage("export", USAGE, "--level needs a level (zstd -7..22 but 0, gzip 1..9)");
			i++;
			eo.level = (int32_t)n;
		} else if (!strcmp(a, "--threads")) {
			char *end = NULL;
			long n = i + 1 < argc ? strtol(argv[i + 1], &end, 10) : -1;
			if (i + 1 == argc || !end || *end || end == argv[i + 1] || n < 0 || n > 1024)
				return cli_bad_usage("export", USAGE, "--threads needs a count (0 = all cores)");
			i++;
			eo.threads = (int32_t)n;
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
	if (eo.level && eo.codec == NXP_PARQUET_NONE)
		return cli_bad_usage("export", USAGE, "--level needs a codec (--compression zstd or gzip)");
	if (eo.level && eo.codec == NXP_PARQUET_GZIP && (eo.level < 1 || eo.level > 9))
		return cli_bad_usage("export", USAGE, "gzip --level is 1..9");
	if (system && capture)
		return cli_bad_usage("export", USAGE, "--system and --capture exclude each other");
	if ((system || capture) && npaths)
		return cli_bad_usage("export", USAGE, "--%s takes no NEFF/NTFF ('%s')", system ? "system" : "capture",
				     paths[0]);
	if (!system && !capture && npaths != 2)
		return cli_bad_usage("export", USAGE, npaths ? "no NTFF given" : "no NEFF and NTFF given");

	/* --tables a,b,c -> NULL-terminated list; +a,b -> default,a,b */
	char *tcopy = NULL;
	const char **tlist = NULL;
	if (tables) {
		int plus = tables[0] == '+';
		tcopy = strdup(tables + plus);
		size_t n = 2;
		for (const char *c = tables; *c; c++)
			n += *c == ',';
		tlist = calloc(n + 1, sizeof(*tlist));
		if (!tcopy || !tlist) {
			free(tcopy);
			free(tlist);
			return cli_fail("export", "out of memory");
		}
		size_t k = 0;
		if (plus)
			tlist[k++] = "default";
		for (char *save = NULL, *t = strtok_r(tcopy, ",", &save); t; t = strtok_r(NULL, ",", &save))
			tlist[k++] = t;
		eo.tables = tlist;
	}
	if (!quiet && isatty(2))
		eo.progress = progress;

	nxp_export_report rep;
	rep.struct_size = sizeof(rep);
	eo.report = &rep;
	nxp_status st;
	nxp_status_init(&st);
	int rc;
	if (system) {
		rc = nxp_system_export_parquet(system, out, &eo, &st);
	} else if (capture) {
		rc = nxp_capture_export_parquet(capture, out, &eo, &st);
	} else {
		nxp_profile *p = NULL;
		if (cli_open_profile("export", &p, paths[0], paths[1], &po)) {
			free(tcopy);
			free(tlist);
			return 1;
		}
		rc = nxp_profile_export_parquet(p, out, &eo, &st);
		if (!rc) {
			/* damaged input: what was left out, as the written Warning rows count it
			 * (-1 when Warning was not among the tables) */
			int64_t recs = rep.skipped_records, secs = rep.skipped_sections;
			if (recs > 0 || secs > 0)
				fprintf(stderr,
					"nxp export: %lld damaged record%s and %lld section%s skipped "
					"(see Warning.parquet or `nxp dump`)\n",
					(long long)recs, recs == 1 ? "" : "s", (long long)secs, secs == 1 ? "" : "s");
			/* the TPB start/stop records are read at open, not by a table's pass */
			nxp_metadata md;
			md.struct_size = sizeof(md);
			if (nxp_profile_get_metadata(p, &md) == NXP_OK && md.tpb_damaged > 0)
				fprintf(stderr,
					"nxp export: %lld damaged TPB start/stop record%s or section%s skipped: "
					"tpb_start_ts / tpb_stop_ts may be missing (see Warning.parquet)\n",
					(long long)md.tpb_damaged, md.tpb_damaged == 1 ? "" : "s",
					md.tpb_damaged == 1 ? "" : "s");
		}
		nxp_profile_close(p);
	}
	free(tcopy);
	free(tlist);
	if (rc)
		return cli_error_output("export", &st);
	return 0;
}
