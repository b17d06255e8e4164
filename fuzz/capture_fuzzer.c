/* SPDX-License-Identifier: MIT */
/* Capture directories: nxp_capture_open over a directory tree built from the
 * input (file names from the layouts the runtime writes, plus fuzzed names and
 * a symlink loop), then every file, process and profile listed, every device
 * profile opened and every process's system events read.
 * Input: a run of entries [dir u8] [file u8] [len u16 LE] [content...]
 *   file 0xfe: a symlink named "loop" pointing at ".." (must not be followed)
 *   file 0xff: a name of `len` fuzzed bytes mapped to [A-Za-z0-9._-], empty file
 *   len 0xffff / 0xfffe: the fixture NEFF / NTFF (so pairing by UUID happens). */
#include "fuzz_common.h"
#include "fuzz_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static volatile size_t sink;
static char root[256];
static uint8_t *fix_ntff;
static size_t fix_ntff_len;

#define MAX_PATHS 64
static char *made[MAX_PATHS];
static size_t nmade;

static const char *const dirs[] = {"", "i-0abc_pid_42/", "i-0abc_pid_42/1700000000/", "out/i-1_pid_7/",
				   "neffs/", "x/y/z/"};
static const char *const files[] = {"ntrace.pb", "trace_info.pb", "cpu_util.pb", "host_mem.pb", "trace.json",
				    "trace.json.gz", "neff_395760075800974.neff", "395760075800974_instid_0_vnc_0.ntff",
				    "neff_77_vnc_0.neff", "77_vnc_0.ntff", "profile_nc_0_session_1.ntff",
				    "graph_5.neff"};

static void remove_root(void)
{
	rmdir(root);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	const char *tmp = getenv("TMPDIR");
	snprintf(root, sizeof(root), "%s/nxp-capture-fuzz-XXXXXX", tmp ? tmp : "/tmp");
	if (!mkdtemp(root))
		abort();
	atexit(remove_root);
	size_t len;
	if (!fz_fixture_neff_cached(&len) || fz_fixture_ntff_memory(FZ_NTFF_BASIC, &fix_ntff, &fix_ntff_len) != NXP_OK)
		abort();
	return 0;
}

static void remember(const char *p)
{
	if (nmade < MAX_PATHS)
		made[nmade++] = strdup(p);
}

/* mkdir -p of the directory part of root/rel, remembering what was made. */
static void make_dirs(const char *rel)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/%s", root, rel);
	for (char *s = p + strlen(root) + 1; (s = strchr(s, '/')) != NULL; s++) {
		*s = '\0';
		if (mkdir(p, 0700) == 0)
			remember(p);
		*s = '/';
	}
}

static void cleanup(void)
{
	while (nmade) {
		char *p = made[--nmade];
		if (unlink(p) != 0)
			rmdir(p);
		free(p);
	}
}

static void walk(nxp_capture *c)
{
	for (size_t i = 0; i < nxp_capture_file_count(c); i++) {
		nxp_capture_file f;
		f.struct_size = sizeof(f);
		FZ_CHECK(nxp_capture_get_file(c, i, &f) == NXP_OK, "file %zu", i);
		sink += fz_touch(f.path) + fz_touch(f.name_hash);
	}
	size_t np = nxp_capture_process_count(c);
	for (size_t i = 0; i < np; i++) {
		nxp_capture_process pr;
		pr.struct_size = sizeof(pr);
		FZ_CHECK(nxp_capture_get_process(c, i, &pr) == NXP_OK, "process %zu", i);
		sink += fz_touch(pr.dir) + fz_touch(pr.instance_id) + fz_touch(pr.timestamp);
	}
	for (size_t i = 0; i < nxp_capture_problem_count(c); i++)
		sink += fz_touch(nxp_capture_problem(c, i));
	for (size_t i = 0; i < nxp_capture_profile_count(c); i++) {
		nxp_capture_profile cp;
		cp.struct_size = sizeof(cp);
		FZ_CHECK(nxp_capture_get_profile(c, i, &cp) == NXP_OK, "profile %zu", i);
		nxp_profile *p = NULL;
		nxp_status st;
		nxp_status_init(&st);
		int rc = nxp_capture_open_profile(c, i, NULL, &p, &st);
		if (rc == NXP_OK) {
			nxp_metadata md;
			md.struct_size = sizeof(md);
			FZ_CHECK(nxp_profile_get_metadata(p, &md) == NXP_OK, "metadata");
			nxp_profile_close(p);
		} else {
			FZ_CHECK(p == NULL && rc < 0 && st.code == rc && st.message[0], "open_profile %zu: %d", i, rc);
		}
	}
	for (int64_t i = -1; i < (int64_t)np; i++) {
		nxp_system_events *ev = NULL;
		if (nxp_capture_open_events(c, i, NULL, &ev, NULL) == NXP_OK) {
			nxp_system_event e;
			e.struct_size = sizeof(e);
			while (nxp_system_events_next(ev, &e) == NXP_OK)
				sink += fz_touch(e.name) + fz_touch(e.instance_id) + fz_touch(e.file);
		}
		nxp_system_events_close(ev);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_input in = {data, size};
	while (in.size >= 4 && nmade < MAX_PATHS - 8) {
		const char *dir = dirs[fz_take_u8(&in) % (sizeof(dirs) / sizeof(dirs[0]))];
		uint8_t sel = fz_take_u8(&in);
		uint16_t len = (uint16_t)(fz_take_u8(&in) | fz_take_u8(&in) << 8);
		char rel[400];
		if (sel == 0xfe) {
			snprintf(rel, sizeof(rel), "%sloop", dir);
			make_dirs(rel);
			char p[700];
			snprintf(p, sizeof(p), "%s/%s", root, rel);
			if (symlink("..", p) == 0)
				remember(p);
			continue;
		}
		const uint8_t *content = NULL;
		size_t clen = 0;
		if (sel == 0xff) {
			static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789._-ABCDEFGHIJKLMNOPQRSTUVWXYZ";
			size_t n = len % 48 + 1, k = strlen(dir);
			memcpy(rel, dir, k);
			for (size_t i = 0; i < n; i++)
				rel[k++] = alphabet[fz_take_u8(&in) % (sizeof(alphabet) - 1)];
			rel[k] = '\0';
			if (strcmp(rel + strlen(dir), ".") == 0 || strcmp(rel + strlen(dir), "..") == 0)
				continue;
		} else {
			snprintf(rel, sizeof(rel), "%s%s", dir, files[sel % (sizeof(files) / sizeof(files[0]))]);
			if (len == 0xffff) {
				content = fz_fixture_neff_cached(&clen);
			} else if (len == 0xfffe) {
				content = fix_ntff;
				clen = fix_ntff_len;
			} else {
				clen = len < in.size ? len : in.size;
				content = in.data;
				in.data += clen;
				in.size -= clen;
			}
		}
		make_dirs(rel);
		char p[700];
		snprintf(p, sizeof(p), "%s/%s", root, rel);
		FILE *f = fopen(p, "wb");
		if (!f)
			continue;
		if (clen)
			fwrite(content, 1, clen, f);
		fclose(f);
		remember(p);
	}
	nxp_capture *c = NULL;
	nxp_status st;
	nxp_status_init(&st);
	int rc = nxp_capture_open(&c, root, &st);
	if (rc == NXP_OK)
		walk(c);
	else
		FZ_CHECK(c == NULL && rc < 0 && st.code == rc && st.message[0], "nxp_capture_open: %d", rc);
	nxp_capture_close(c);
	cleanup();
	return 0;
}
