/* SPDX-License-Identifier: MIT */
/* A user's program, built outside the checkout against an installed libnxp
 * (pkg-config --cflags --libs libnxp): opens a NEFF + NTFF pair and prints
 * the library version, the instruction count, the sum of the instructions'
 * durations and the first start timestamp. */
#include <nxp/nxp.h>

#include <stdio.h>

int main(int argc, char **argv)
{
	nxp_status st;
	nxp_profile *p;
	nxp_cursor *c;
	nxp_instruction ins;
	long long count = 0, dur = 0, first = -1;
	int rc;

	if (argc != 3) {
		fprintf(stderr, "usage: use_libnxp NEFF NTFF\n");
		return 2;
	}
	nxp_status_init(&st);
	if (nxp_profile_open_path(&p, argv[1], argv[2], NULL, &st) != NXP_OK) {
		fprintf(stderr, "%s (byte offset %lld)\n", st.message, (long long)st.offset);
		return 1;
	}
	if (nxp_cursor_open(&c, p, NXP_TABLE_INSTRUCTION, NULL, &st) != NXP_OK) {
		fprintf(stderr, "%s\n", st.message);
		nxp_profile_close(p);
		return 1;
	}
	ins.struct_size = sizeof ins;
	while ((rc = nxp_cursor_next_instruction(c, &ins)) == NXP_OK) {
		if (count == 0)
			first = (long long)ins.start_ts;
		count++;
		dur += (long long)ins.duration_ns;
	}
	nxp_cursor_close(c);
	nxp_profile_close(p);
	if (rc != NXP_END) {
		fprintf(stderr, "cursor: %s\n", nxp_strerror(rc));
		return 1;
	}
	printf("version %s\n", nxp_version_string());
	printf("instructions %lld duration_ns %lld first_start_ts %lld\n", count, dur, first);
	return 0;
}
