/* SPDX-License-Identifier: MIT */
/* PLACEHOLDER: replaced by the module that implements `nxp info`. */
#include "cli.h"

int cmd_info(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "nxp info: not built yet\n");
	return 1;
}
