/* SPDX-License-Identifier: MIT */
/* nxp — command-line front end of libnxp. */
#include "cli.h"

#include <string.h>

static const struct {
	const char *name;
	int (*run)(int, char **);
	const char *help;
} commands[] = {
	{"info", cmd_info, "info FILE.neff [--json] [--verify]      header, subgraphs, tensors, queues"},
	{"synth", cmd_synth, "synth --workload W --arch A --seed N -o PREFIX   write a synthetic NEFF+NTFF"},
	{"dump", cmd_dump, "dump NEFF NTFF --table T [--format csv|jsonl] [--from NS --to NS] [--engine E]"},
	{"summary", cmd_summary, "summary NEFF NTFF [--json]             summary metrics"},
	{"capture", cmd_capture, "capture DIR                             system profile / capture directory overview"},
};

static int usage(FILE *f)
{
	fprintf(f, "nxp %s — read AWS Neuron profiles\nusage: nxp COMMAND ...\n", nxp_version_string());
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  nxp %s\n", commands[i].help);
	return f == stdout ? 0 : 2;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage(stderr);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help"))
		return usage(stdout);
	if (!strcmp(argv[1], "--version")) {
		printf("nxp %s\n", nxp_version_string());
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "nxp: unknown command '%s'\n", argv[1]);
	return usage(stderr);
}
