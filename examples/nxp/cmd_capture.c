/* SPDX-License-Identifier: MIT */
/* PLACEHOLDER: replaced by the module that implements `nxp capture`. */
#include "cli.h"

int cmd_capture(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "nxp capture: not built yet\n");
	return 1;
}
