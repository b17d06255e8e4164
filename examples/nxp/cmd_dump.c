/* SPDX-License-Identifier: MIT */
/* PLACEHOLDER: replaced by the module that implements `nxp dump`. */
#include "cli.h"

int cmd_dump(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "nxp dump: not built yet\n");
	return 1;
}
