/* SPDX-License-Identifier: MIT */
/* PLACEHOLDER: replaced by the module that implements `nxp synth`. */
#include "cli.h"

int cmd_synth(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "nxp synth: not built yet\n");
	return 1;
}
