/* SPDX-License-Identifier: MIT */
/* NEFF test fixtures: built from readable descriptions at test time. */
#ifndef NXP_NEFF_FIXTURE_H
#define NXP_NEFF_FIXTURE_H

#include <nxp/nxp.h>

#include <stddef.h>
#include <stdint.h>

typedef struct fx_member {
	const char *path;
	const void *data;
	size_t len; /* 0 with data != NULL: strlen(data) */
} fx_member;

/* A whole NEFF through nxp_neff_writer (aborts the test on failure). */
void *fx_neff(const fx_member *m, size_t count, uint32_t write_flags, uint64_t pkg_version, size_t *len);

/* Tar formats for fx_tar_neff: written by libarchive directly, i.e. by a tool
 * other than nxp_neff_writer. */
enum { FX_GNUTAR = 1, FX_PAX = 2, FX_USTAR = 3 };
/* A NEFF whose payload is a tar of `format`, gzip'd when `gzip`, member names
 * taken as given (no checks), and a header with the MD5 of the payload. */
void *fx_tar_neff(const fx_member *m, size_t count, int format, int gzip, size_t *len);

/* Write a 1024-byte header for `payload` (pkg 2: MD5, pkg 1: SHA-256). */
void fx_header(uint8_t out[1024], uint64_t pkg_version, const uint8_t *payload, size_t payload_len);

/* The standard two-subgraph NEFF's members (see neff_fixture.c). */
size_t fx_std_members(const fx_member **out);
/* One encoded instruction. */
void fx_instr(uint8_t out[64], unsigned opcode, uint16_t partitions, uint16_t active_cols, uint8_t flags,
	      uint8_t func);

#endif
