/* SPDX-License-Identifier: MIT */
/* PLACEHOLDER: replaced by the system-profile module (`nxp dump --system`). */
#include "cli.h"

int cmd_dump_system(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "nxp dump --system: not built yet\n");
	return 1;
}
