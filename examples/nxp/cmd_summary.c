/* SPDX-License-Identifier: MIT */
/* PLACEHOLDER: replaced by the module that implements `nxp summary`. */
#include "cli.h"

int cmd_summary(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "nxp summary: not built yet\n");
	return 1;
}
