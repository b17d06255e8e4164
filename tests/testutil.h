/* SPDX-License-Identifier: MIT */
/* Shared test helpers. */
#ifndef NXP_TESTUTIL_H
#define NXP_TESTUTIL_H

#include <nxp/nxp.h>

#include "ntff_fixture.h"

#include <stddef.h>
#include <stdint.h>

/* A source over memory that hands out tiny, uneven chunks (1, 2, 3, 5, 7, 11, 13 bytes,
 * cycling) through the callback interface.  Seekable when `seekable` is set. */
nxp_source *tu_chunky_source(const void *data, size_t len, int seekable);
/* Read a whole file into malloc'ed memory (aborts the test on failure). */
void *tu_read_file(const char *path, size_t *len);
/* Write memory to a file; returns 0 on success. */
int tu_write_file(const char *path, const void *data, size_t len);
/* A fresh temporary directory (mkdtemp under $TMPDIR or /tmp); caller frees the string. */
char *tu_tmpdir(void);
/* Remove `dir` and everything below it (rm -rf); asserts it succeeded. */
void tu_rmtree(const char *dir);
/* path join into a static-per-call malloc'ed string (caller frees). */
char *tu_path(const char *dir, const char *name);
/* The optional ../shared corpus (NXP_SHARED_DIR, set by tests/meson.build only when
 * the folder exists), or NULL when it is absent: a test that needs it must then skip
 * visibly (a meson test exits 77).  Nothing in the project requires it. */
const char *tu_shared_dir(void);
/* Path of `name` under the project's tests/data (NXP_TEST_DATA, set by tests/meson.build);
 * caller frees.  Aborts with a message when NXP_TEST_DATA is unset. */
char *tu_data_path(const char *name);

/* The bundled demo pair (NXP_SAMPLES_DIR, else ./samples) opened from its files;
 * asserts the open succeeds. */
nxp_profile *tu_open_demo(void);

/* A synthetic profile: the NTFF `spec` describes (fxn_write) and a NEFF with its
 * UUID, written to a fresh temporary directory; the NTFF is also read back into
 * memory (for memory and callback sources, or file surgery). */
typedef struct tu_synth {
	char *dir, *ntff_path, *neff_path;
	fxn_model m;
	void *neff;
	size_t neff_len;
	uint8_t *ntff;
	size_t ntff_len;
} tu_synth;
void tu_synth_write(tu_synth *s, const fxn_spec *spec);
/* The pair opened from its files with `opts` (may be NULL); asserts the open succeeds. */
nxp_profile *tu_synth_open(const tu_synth *s, const nxp_profile_options *opts);
/* Frees the model and the images and removes the files and the directory. */
void tu_synth_free(tu_synth *s);

/* Asserts every figure of b equals a's, bit for bit: every Summary field, the
 * hardware, every OpcodeSummary and ThrottleSummary row; `label` leads each message. */
void tu_summary_same(const nxp_summary *a, const nxp_summary *b, const char *label);

#endif
