/* SPDX-License-Identifier: MIT */
/* Version query and error strings. */
#include <nxp/nxp.h>

unsigned nxp_version_number(void)
{
	return NXP_VERSION_NUMBER;
}

const char *nxp_version_string(void)
{
	return NXP_VERSION_STRING;
}

const char *nxp_strerror(int code)
{
	switch (code) {
	case NXP_OK: return "success";
	case NXP_END: return "end of records";
	case NXP_E_INVAL: return "invalid argument";
	case NXP_E_NOMEM: return "out of memory";
	case NXP_E_IO: return "input/output error";
	case NXP_E_TRUNCATED: return "truncated input";
	case NXP_E_FORMAT: return "malformed input";
	case NXP_E_VERSION: return "unsupported version";
	case NXP_E_LIMIT: return "safety limit exceeded";
	case NXP_E_HASH: return "hash mismatch";
	case NXP_E_CRC: return "checksum mismatch";
	case NXP_E_MISMATCH: return "files do not belong together";
	case NXP_E_NOT_FOUND: return "not found";
	case NXP_E_UNSAFE_PATH: return "unsafe member name";
	case NXP_E_JSON: return "invalid JSON";
	case NXP_E_UNSUPPORTED: return "unsupported";
	case NXP_E_COMPRESSION: return "corrupt compressed data";
	case NXP_E_RANGE: return "out of range";
	case NXP_E_PROTOBUF: return "invalid protobuf";
	default: return "unknown error";
	}
}
