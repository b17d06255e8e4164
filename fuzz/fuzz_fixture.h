/* SPDX-License-Identifier: MIT */
/*
 * A small, valid NEFF and matching NTFFs, built with the library's own writers.
 * Used by the NTFF-side fuzz harnesses (the fixed NEFF the fuzzed NTFF is
 * paired with), by the seed generator, and by the hostile-input tests.
 *
 * The NEFF: one subgraph "sg00", four tensors, DMA queue sets IN_QUE (2
 * instances), q_pe_in_w and q_act_out, and a few instructions on every engine
 * (FZ_FIXTURE_PCS[engine] each).
 */
#ifndef NXP_FUZZ_FIXTURE_H
#define NXP_FUZZ_FIXTURE_H

#include <nxp/nxp.h>

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The fixture NEFF's compilation UUID. */
extern const uint8_t FZ_FIXTURE_UUID[16];
/* Instructions per engine (indexed by nxp_engine). */
extern const unsigned FZ_FIXTURE_PCS[NXP_ENGINE_COUNT];

/*
 * Build the fixture NEFF into malloc'ed memory (caller frees).  `plain_tar`
 * stores an uncompressed payload (cheaper to open in a fuzz loop).
 * Returns 0 or a negative nxp_error.
 */
int fz_fixture_neff(int plain_tar, uint8_t **data, size_t *len);

/* The plain-tar fixture NEFF built once and kept for the process (NULL on failure). */
const uint8_t *fz_fixture_neff_cached(size_t *len);

/* NTFF variants the fixture can write. */
enum {
	FZ_NTFF_BASIC = 0,      /* every queue kind, default sections */
	FZ_NTFF_COMPRESSED = 1, /* zlib sections */
	FZ_NTFF_SMALL_SECTIONS = 2, /* 2 records per section: many sections, an index to seek in */
	FZ_NTFF_EMPTY = 3,      /* queues declared, no records */
	FZ_NTFF_VARIANT_COUNT = 4
};

/* Write fixture NTFF `variant` (paired with the fixture NEFF) to `path`.
 * Returns 0 or a negative nxp_error (st filled). */
int fz_fixture_ntff(const char *path, int variant, nxp_status *st);

/* Write NTFF `variant` to a temporary file and read it back into malloc'ed
 * memory (caller frees).  Returns 0 or a negative nxp_error. */
int fz_fixture_ntff_memory(int variant, uint8_t **data, size_t *len);

/*
 * Open a profile of the cached fixture NEFF (served from memory) with `ntff`.
 * On success *neff_src must be closed by the caller after the profile.
 */
int fz_fixture_profile_open(nxp_profile **out, nxp_source **neff_src, nxp_source *ntff,
			    const nxp_profile_options *opts, nxp_status *st);

#ifdef __cplusplus
}
#endif

#endif
