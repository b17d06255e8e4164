/* SPDX-License-Identifier: MIT */
/* Internal view of nxp_source: the one input layer every decoder reads through. */
#ifndef NXP_SOURCE_INTERNAL_H
#define NXP_SOURCE_INTERNAL_H

#include <nxp/nxp.h>

#include <pthread.h>
#include <stdint.h>

enum { NXP_SRC_FD = 1, NXP_SRC_MEMORY = 2, NXP_SRC_CALLBACKS = 3 };

struct nxp_source {
	int kind;
	int fd;
	int own_fd;
	const uint8_t *mem;
	nxp_source_callbacks cb;
	void *user;
	uint64_t pos;  /* next byte the source will deliver */
	int64_t size;  /* -1 when unknown */
	int seekable;
	/* Serialises nxp_src_pread on sources that have a position (callbacks, a
	 * sequential fd): cursors on several threads share the profile's source.
	 * Regular files and memory read at an offset and never take it. */
	pthread_mutex_t lock;
};

/* Read up to len bytes at the current position, looping over short reads until
 * len bytes or end of input.  *got = bytes read.  NXP_OK or NXP_E_IO. */
int nxp_src_read(nxp_source *src, void *buf, size_t len, size_t *got);
/* Move to absolute offset.  A sequential source can only move forward (it reads
 * and discards); backwards gives NXP_E_UNSUPPORTED. */
int nxp_src_seek(nxp_source *src, uint64_t off);
/* nxp_src_seek + nxp_src_read (moves the position: one reader at a time). */
int nxp_src_pread(nxp_source *src, uint64_t off, void *buf, size_t len, size_t *got);
/* Read up to len bytes at `off`, thread-safe: regular files use pread(2) and
 * memory a copy, neither touching the source's position (cursors on several
 * threads read one profile's NTFF through this); other sources seek + read
 * under the source's lock.  After open, a profile reads its NTFF only so.
 * NXP_OK (*got < len at the end of input), NXP_E_IO or a seek error. */
int nxp_src_read_at(nxp_source *src, uint64_t off, void *buf, size_t len, size_t *got);
/* For memory sources: pointer to [off, off+len) or NULL if the source is not
 * memory or the range is out of bounds.  Lets decoders avoid a copy. */
const uint8_t *nxp_src_map(const nxp_source *src, uint64_t off, size_t len);
/* Hint that [off, off+len) will be read soon: for regular files the kernel
 * starts reading it in the background (posix_fadvise WILLNEED); a no-op for
 * other sources.  Lets a reader that jumps between regions of a file overlap
 * its decoding with the disk. */
void nxp_src_will_need(const nxp_source *src, uint64_t off, uint64_t len);

#endif
