/* SPDX-License-Identifier: MIT */
/* nxp_instruction_decode / nxp_instruction_encode: the pure 64-byte decoder.
 * Input: [engine] [text_len] [raw bytes...].  The operand text is written into
 * an exact-size heap buffer of the fuzzer-chosen length, so any write past
 * text_len is caught.  A decoded instruction is re-encoded and decoded again:
 * the fields the model defines must survive the round trip. */
#include "fuzz_common.h"

#include <stdlib.h>
#include <string.h>

static volatile size_t sink;

static void touch(const nxp_neff_instruction *d)
{
	sink += fz_touch(d->opcode) + fz_touch(d->operands) + fz_touch(d->tensor_instruction_type) +
		fz_touch(d->scalar_activation_fn) + fz_touch(d->performance_mode);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_input in = {data, size};
	int engine = (int)(int8_t)fz_take_u8(&in); /* mostly 0..4, sometimes out of range */
	uint8_t tl = fz_take_u8(&in);
	size_t text_len = tl >= 0xf0 ? 256 : tl; /* short buffers must truncate, not overflow */
	uint8_t *raw = malloc(in.size ? in.size : 1);
	char *text = malloc(text_len ? text_len : 1);
	if (!raw || !text)
		goto out;
	if (in.size)
		memcpy(raw, in.data, in.size);

	nxp_neff_instruction d;
	memset(&d, 0, sizeof(d));
	d.struct_size = sizeof(d);
	int rc = nxp_instruction_decode(raw, in.size, engine, &d, text_len ? text : NULL, text_len);
	if (rc != NXP_OK)
		goto out;
	touch(&d);
	if (d.operands && text_len && d.operands == text && !memchr(text, '\0', text_len))
		abort(); /* operand text not terminated inside the caller's buffer */
	sink += nxp_opcode_name(d.opcode_num) != NULL;
	sink += fz_touch(nxp_dtype_name(d.src.dtype)) + fz_touch(nxp_dtype_name(d.dst.dtype));

	/* Round trip through the encoder (only for full-size text buffers, where
	 * the decode is complete). */
	if (text_len >= 256 && engine >= 0 && engine < NXP_ENGINE_COUNT) {
		uint8_t enc[NXP_NEFF_INSTRUCTION_SIZE];
		if (nxp_instruction_encode(&d, enc) == NXP_OK) {
			nxp_neff_instruction d2;
			char text2[256];
			memset(&d2, 0, sizeof(d2));
			d2.struct_size = sizeof(d2);
			if (nxp_instruction_decode(enc, sizeof(enc), engine, &d2, text2, sizeof(text2)) != NXP_OK)
				abort(); /* the encoder produced something the decoder refuses */
			touch(&d2);
			if (d2.opcode_num != d.opcode_num || d2.wait_mode != d.wait_mode || d2.wait_idx != d.wait_idx ||
			    d2.update_mode != d.update_mode || d2.update_idx != d.update_idx ||
			    d2.semaphore_value != d.semaphore_value || strcmp(d2.opcode, d.opcode) != 0 ||
			    strcmp(d2.operands, d.operands) != 0)
				abort(); /* a model field did not survive encode(decode(x)) */
		}
	}
out:
	free(raw);
	free(text);
	return 0;
}
