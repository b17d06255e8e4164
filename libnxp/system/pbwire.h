/* SPDX-License-Identifier: MIT */
/* A top-level protobuf wire-format walker for the system-profile .pb files.
 *
 * A .pb file is either one root message or a stream of length-delimited root
 * messages (varint length, then that many bytes).  The rule that tells them
 * apart looks at the file's first varint V: when V is one of the root
 * message's known tags (field number with its declared wire type) the file is
 * one message and V its first tag; otherwise the file is a stream and V the
 * length of its first message.  libnxp's writer pads a stream's first message
 * (field 15, bytes) so its length is never a known tag.  An empty file is an
 * empty message.
 *
 * The walker returns the root's fields one at a time across all messages of a
 * stream.  Length-delimited fields listed in `load_mask` are handed over whole
 * (at most max_len bytes, else NXP_E_LIMIT); all other fields are skipped
 * without being buffered, so memory stays bounded whatever the file size. */
#ifndef NXP_PBWIRE_H
#define NXP_PBWIRE_H

#include "system_priv.h"

#include <stdint.h>

enum { PB_VARINT = 0, PB_I64 = 1, PB_LEN = 2, PB_I32 = 5 };

#define PB_TAG(field, wire) ((uint32_t)(field) << 3 | (uint32_t)(wire))

typedef struct pbfield {
	uint32_t num;         /* field number */
	int wire;             /* PB_* */
	uint64_t v;           /* value of VARINT/I64/I32 fields, length of LEN fields */
	const uint8_t *data;  /* LEN field bytes when loaded (valid until the next call), else NULL */
	uint64_t offset;      /* offset of the field's tag */
} pbfield;

typedef struct pbwalk {
	sysin in;
	const uint32_t *known_tags;
	size_t n_known;
	uint64_t load_mask;   /* bit n: load LEN field n (n < 64) */
	uint64_t max_len;
	int mode;             /* 0 undecided, 1 single message, 2 stream */
	int in_msg;           /* stream: inside a message */
	uint64_t msg_end;     /* stream: logical offset where the current message ends */
	uint64_t msg_count;   /* root messages started */
	uint8_t *fbuf;
	size_t fcap;
} pbwalk;

/* Start walking an input already opened with sysin_open (moved into w). */
void pbwalk_init(pbwalk *w, sysin *in, const uint32_t *known_tags, size_t n_known, uint64_t load_mask,
		 uint64_t max_len);
/* sysin_open(src, gzip detected) + pbwalk_init.  On error w is still safe to
 * close.  Errors: NXP_E_NOMEM, NXP_E_IO. */
int pbwalk_open(pbwalk *w, nxp_source *src, const uint32_t *known_tags, size_t n_known, uint64_t load_mask,
		uint64_t max_len, nxp_status *st);
void pbwalk_close(pbwalk *w);
/* Next root field: 0, NXP_END, or NXP_E_PROTOBUF / NXP_E_TRUNCATED / NXP_E_LIMIT /
 * NXP_E_IO / NXP_E_NOMEM with the offset in st.  A new stream message is
 * signalled by w->msg_count changing. */
int pbwalk_next(pbwalk *w, pbfield *f, nxp_status *st);

/* Decode a varint from memory: bytes used, or 0 when malformed/incomplete. */
size_t pb_decode_varint(const uint8_t *p, size_t n, uint64_t *v);
/* Encode a varint into out (>= 10 bytes); returns bytes written. */
size_t pb_encode_varint(uint64_t v, uint8_t *out);

#endif
