/* SPDX-License-Identifier: MIT */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>

int cli_error(const char *cmd, const nxp_status *st)
{
	if (st->offset >= 0)
		fprintf(stderr, "nxp %s: error: %s (%s, byte offset %lld)\n", cmd, st->message, nxp_strerror(st->code),
			(long long)st->offset);
	else
		fprintf(stderr, "nxp %s: error: %s (%s)\n", cmd, st->message, nxp_strerror(st->code));
	return 1;
}

int cli_usage(const char *usage)
{
	fprintf(stderr, "usage: %s\n", usage);
	return 2;
}

void cli_json_string(FILE *f, const char *s)
{
	if (!s) {
		fputs("null", f);
		return;
	}
	putc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				putc(*p, f);
		}
	}
	putc('"', f);
}

void cli_csv_field(FILE *f, const char *s)
{
	if (!s)
		return;
	int quote = 0;
	for (const char *p = s; *p; p++)
		if (*p == ',' || *p == '"' || *p == '\n' || *p == '\r')
			quote = 1;
	if (!quote) {
		fputs(s, f);
		return;
	}
	putc('"', f);
	for (const char *p = s; *p; p++) {
		if (*p == '"')
			putc('"', f);
		putc(*p, f);
	}
	putc('"', f);
}

int cli_parse_i64(const char *s, int64_t *out)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || end == s || *end)
		return -1;
	*out = v;
	return 0;
}

void cli_hex(const uint8_t *b, size_t n, char *out)
{
	static const char hx[] = "0123456789abcdef";
	for (size_t i = 0; i < n; i++) {
		out[2 * i] = hx[b[i] >> 4];
		out[2 * i + 1] = hx[b[i] & 15];
	}
	out[2 * n] = '\0';
}
