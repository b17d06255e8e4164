/* SPDX-License-Identifier: MIT */
/*
 * Plain main() driver for the fuzz harnesses: runs LLVMFuzzerTestOneInput on
 * every file named on the command line and on every file under every directory
 * named (recursively, in name order; dot files are skipped).  `meson test` uses
 * it to replay each seed corpus and each saved crash reproducer without
 * libFuzzer — under ASan+UBSan when the build is sanitized.
 *
 * A path that does not exist is reported and skipped (a harness need not have
 * saved reproducers), but the run fails if no input at all was replayed, so a
 * missing corpus cannot pass silently.
 */
#include "fuzz_common.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Optional in a harness. */
__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv);

static unsigned long replayed;
static int failed;

static void run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "replay: cannot open %s: %s\n", path, strerror(errno));
		failed = 1;
		return;
	}
	size_t cap = 4096, len = 0;
	uint8_t *buf = malloc(cap);
	for (;;) {
		if (!buf) {
			fprintf(stderr, "replay: out of memory reading %s\n", path);
			abort();
		}
		len += fread(buf + len, 1, cap - len, f);
		if (len < cap)
			break;
		cap *= 2;
		buf = realloc(buf, cap);
	}
	int err = ferror(f);
	fclose(f);
	if (err) {
		fprintf(stderr, "replay: read error on %s\n", path);
		free(buf);
		failed = 1;
		return;
	}
	/* Hand libFuzzer-like exact-size heap memory, so ASan sees reads past the end. */
	uint8_t *exact = malloc(len ? len : 1);
	if (!exact)
		abort();
	if (len)
		memcpy(exact, buf, len);
	free(buf);
	if (getenv("REPLAY_VERBOSE"))
		fprintf(stderr, "replay: %s (%zu bytes)\n", path, len);
	LLVMFuzzerTestOneInput(exact, len);
	free(exact);
	replayed++;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void run_path(const char *path)
{
	struct stat sb;
	if (stat(path, &sb) != 0) {
		fprintf(stderr, "replay: %s: %s (skipped)\n", path, strerror(errno));
		return;
	}
	if (!S_ISDIR(sb.st_mode)) {
		run_file(path);
		return;
	}
	DIR *d = opendir(path);
	if (!d) {
		fprintf(stderr, "replay: cannot open directory %s: %s\n", path, strerror(errno));
		failed = 1;
		return;
	}
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			names = realloc(names, cap * sizeof(*names));
			if (!names)
				abort();
		}
		size_t len = strlen(path) + strlen(e->d_name) + 2;
		names[n] = malloc(len);
		if (!names[n])
			abort();
		snprintf(names[n], len, "%s/%s", path, e->d_name);
		n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), by_name);
	for (size_t i = 0; i < n; i++) {
		run_path(names[i]);
		free(names[i]);
	}
	free(names);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
		return 2;
	}
	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++)
		run_path(argv[i]);
	printf("replayed %lu input(s)\n", replayed);
	if (replayed == 0) {
		fprintf(stderr, "replay: no inputs found\n");
		return 1;
	}
	return failed;
}
