/* SPDX-License-Identifier: MIT */
/* nxp — command-line front end of libnxp. */
#include "cli.h"

#include <string.h>

/* One entry per command: its name, its function, and its lines of `nxp --help`
 * (every option; `nxp COMMAND --help` gives the same for one command). */
static const struct {
	const char *name;
	int (*run)(int, char **);
	const char *help;
} commands[] = {
	{"info", cmd_info,
	 "info NEFF [NTFF] [--json] [--verify] [--allow-mismatch]\n"
	 "      header, subgraphs, tensors, DMA queues, instruction counts; with the NTFF,\n"
	 "      also the trace's first and last timestamps"},
	{"summary", cmd_summary,
	 "summary NEFF NTFF [--json] [--arch trn1|inf2|trn2|trn3] [--allow-mismatch] [--threads N]\n"
	 "      [--from T] [--to T] [--execution N] [--pcore N]\n"
	 "      summary metrics (MFU, HFU, MBU, engine active time, DMA, throttling) and the\n"
	 "      trace's first and last timestamps"},
	{"dump", cmd_dump,
	 "dump NEFF NTFF --table instruction|dma|semaphore|throttle|error|execution|active_time\n"
	 "      [--format csv|jsonl] [--from T] [--to T] [--engine E] [--pcore N] [--queue NAME]\n"
	 "      [--limit N] [--allow-mismatch]\n"
	 "      one profile table, time-ordered; T in ns, or relative to the trace start:\n"
	 "      +1.5ms, +200us, +10ns, +2s; --limit: at most N records\n"
	 "  nxp dump --system DIR|ntrace.pb|trace.json[.gz] [--format csv|jsonl] [--limit N]\n"
	 "      system-profile events (runtime, hardware, framework) in host time"},
	{"export", cmd_export,
	 "export NEFF NTFF -o DIR [--tables T,...] [--compression zstd|gzip|none] [--threads N]\n"
	 "      [--level N] [--force] [--quiet] [--allow-mismatch]\n"
	 "  nxp export --system DIR|FILE -o DIR ...  |  nxp export --capture DIR -o OUT ...\n"
	 "      every table as DIR/<Table>.parquet (Instruction, DmaPacket, ..., SchemaFields)\n"
	 "  nxp export NEFF NTFF --format perfetto|chrome-json -o FILE [--from T] [--to T]\n"
	 "      [--engine E] [--execution N] [--max-events N] [--window NS] [--no-flows] [--compress]\n"
	 "  nxp export --capture DIR --format perfetto -o OUTDIR [--combined] [--no-flows] [--compress]\n"
	 "      a timeline for ui.perfetto.dev or chrome://tracing (nxp export --format perfetto --help)"},
	{"report", cmd_report,
	 "report NEFF NTFF -o FILE.html [--title T] [--columns N] [--arch A] [--no-analysis] [--force]\n"
	 "  nxp report --capture DIR -o FILE.html [...]\n"
	 "      one self-contained HTML page: figures, activity timeline, critical path, insights"},
	{"critical-path", cmd_critical_path,
	 "critical-path NEFF NTFF [--execution N] [--pcore N] [--json] [--limit N] [--allow-mismatch]\n"
	 "      the critical path: time per engine / DMA queue / semaphore wait / idle, and its records"},
	{"insights", cmd_insights,
	 "insights NEFF NTFF [--json] [--arch A] [--allow-mismatch]\n"
	 "      rule-based findings (doc/insights.md), most severe first"},
	{"compare", cmd_compare,
	 "compare CAPTURE_DIR [--json] [--arch A] [--threads N]\n"
	 "      one row per device profile of a capture, slowest first, and the straggler"},
	{"capture", cmd_capture,
	 "capture DIR\n"
	 "      capture directory overview: processes, NeuronCores, device profiles, problems"},
	{"synth", cmd_synth,
	 "synth --workload matmul|mlp --arch trn1|inf2|trn2|trn3 --seed N -o PREFIX\n"
	 "      [--lnc 1|2] [--instructions N] [--m M --k K --n N] [--executions E] [--compress] [--quiet]\n"
	 "  nxp synth ... --capture DIR [--ranks R] [--force]\n"
	 "      a synthetic NEFF+NTFF pair, or a whole synthetic capture directory"},
};

static int usage(FILE *f)
{
	if (f == stdout)
		fprintf(f, "nxp %s — read AWS Neuron profiles\n", nxp_version_string());
	fputs("usage: nxp COMMAND ...  (nxp COMMAND --help: one command)\n", f);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  nxp %s\n", commands[i].help);
	fputs("  nxp --version\n", f);
	return f == stdout ? 0 : 2;
}

int main(int argc, char **argv)
{
	(void)cli_heap_setup();
	if (argc < 2) {
		fputs("nxp: no command given\n", stderr);
		return usage(stderr);
	}
	const char *cmd = argv[1];
	int status;
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		status = usage(stdout);
	} else if (!strcmp(cmd, "--version")) {
		printf("nxp %s\n", nxp_version_string());
		status = 0;
	} else {
		size_t i = 0, n = sizeof(commands) / sizeof(commands[0]);
		while (i < n && strcmp(cmd, commands[i].name))
			i++;
		if (i == n) {
			fprintf(stderr, "nxp: unknown command '%s'\n", cmd);
			return usage(stderr);
		}
		status = commands[i].run(argc - 1, argv + 1);
	}
	/* Every command's output is checked here, once: a full disk or a closed
	 * pipe is an error even when everything fitted in the stdio buffer. */
	int wrote = cli_finish_stdout(cmd[0] == '-' ? "" : cmd);
	return status ? status : wrote;
}
