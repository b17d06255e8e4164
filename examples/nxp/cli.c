/* SPDX-License-Identifier: MIT */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* cli_error with `hint` (what to do about it) at the end of the line, or none. */
static int error_hint(const char *cmd, const nxp_status *st, const char *hint)
{
	if (st->offset >= 0)
		fprintf(stderr, "nxp %s: error: %s (%s, byte offset %lld)%s\n", cmd, st->message, nxp_strerror(st->code),
			(long long)st->offset, hint);
	else
		fprintf(stderr, "nxp %s: error: %s (%s)%s\n", cmd, st->message, nxp_strerror(st->code), hint);
	return 1;
}

int cli_error(const char *cmd, const nxp_status *st)
{
	return error_hint(cmd, st, "");
}

int cli_error_output(const char *cmd, const nxp_status *st)
{
	/* the library's refusal to replace a file (NXP_E_INVAL, "... exists (overwrite not allowed)") */
	int exists = st->code == NXP_E_INVAL && strstr(st->message, " exists (overwrite not allowed)");
	return error_hint(cmd, st, exists ? "; --force replaces existing files" : "");
}

int cli_error_in(const char *cmd, const char *path, const nxp_status *st)
{
	/* Library messages about opening a file already start with its name. */
	size_t n = strlen(path);
	if (!strncmp(st->message, path, n) && st->message[n] == ':')
		return cli_error(cmd, st);
	fprintf(stderr, "nxp %s: error: %s: ", cmd, path);
	if (st->offset >= 0)
		fprintf(stderr, "%s (%s, byte offset %lld)\n", st->message, nxp_strerror(st->code), (long long)st->offset);
	else
		fprintf(stderr, "%s (%s)\n", st->message, nxp_strerror(st->code));
	return 1;
}

int cli_fail(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "nxp %s: error: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	putc('\n', stderr);
	return 1;
}

int cli_usage(const char *usage)
{
	fprintf(stderr, "usage: %s\n", usage);
	return 2;
}

int cli_bad_usage(const char *cmd, const char *usage, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "nxp %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	putc('\n', stderr);
	return cli_usage(usage);
}

int cli_help(const char *usage)
{
	printf("usage: %s\n", usage);
	return 0;
}

int cli_check_input(const char *cmd, const char *path, int want, const char *hint, int *kind)
{
	nxp_status st;
	nxp_status_init(&st);
	int k;
	if (nxp_file_kind_detect(path, &k, &st))
		return cli_fail(cmd, "%s", st.message); /* "path: reason" */
	if (kind)
		*kind = k;
	if (k == want || k == NXP_FILE_STREAM || k == NXP_FILE_UNKNOWN)
		return 0;
	if (k == NXP_FILE_DIRECTORY)
		return cli_fail(cmd, "%s: is a directory", path);
	if (k == NXP_FILE_EMPTY)
		return cli_fail(cmd, "%s: empty file", path);
	return cli_fail(cmd, "%s is %s, not %s%s", path, nxp_file_kind_name(k), nxp_file_kind_name(want),
			hint ? hint : "");
}

int cli_open_profile(const char *cmd, nxp_profile **out, const char *neff, const char *ntff,
		     const nxp_profile_options *po)
{
	const char *swapped = " (arguments swapped? the NEFF comes first)";
	if (cli_check_input(cmd, neff, NXP_FILE_NEFF, swapped, NULL) ||
	    cli_check_input(cmd, ntff, NXP_FILE_NTFF, swapped, NULL))
		return 1;
	nxp_status st;
	nxp_status_init(&st);
	if (nxp_profile_open_path(out, neff, ntff, po, &st) == NXP_OK)
		return 0;
	/* the message names the file (or both) */
	return error_hint(cmd, &st, st.code == NXP_E_MISMATCH ? "; --allow-mismatch reads them anyway" : "");
}

/* Sum record_count by category over one Warning batch (columns category, record_count). */
static void count_warnings(const struct ArrowArray *a, int64_t *recs, int64_t *secs, int64_t *tpb)
{
	if (a->n_children < 2)
		return;
	const struct ArrowArray *cat = a->children[0], *cnt = a->children[1];
	const struct ArrowArray *d = cat->dictionary;
	if (!d || cat->n_buffers < 2 || cnt->n_buffers < 2 || d->n_buffers < 3)
		return;
	const int32_t *idx = cat->buffers[1], *off = d->buffers[1];
	const char *chars = d->buffers[2];
	const int64_t *n = cnt->buffers[1];
	for (int64_t i = 0; idx && off && chars && n && i < a->length; i++) {
		int32_t k = idx[i + cat->offset];
		if (k < 0 || k >= d->length)
			continue;
		const char *c = chars + off[k];
		size_t len = (size_t)(off[k + 1] - off[k]);
		int64_t v = n[i + cnt->offset];
		if (len == 15 && !memcmp(c, "skipped_records", 15))
			*recs += v;
		else if (len == 16 && !memcmp(c, "skipped_sections", 16))
			*secs += v;
		else if (len == 11 && !memcmp(c, "damaged_tpb", 11))
			*tpb += v;
	}
}

void cli_warn_damage(const char *cmd, nxp_profile *p)
{
	const char *cols[] = {"category", "record_count", NULL};
	nxp_table_options o;
	nxp_table_options_init(&o);
	o.columns = cols;
	struct ArrowArrayStream s;
	nxp_status st;
	nxp_status_init(&st);
	if (nxp_profile_open_table(&s, p, "Warning", &o, &st))
		return; /* (the command's own reading said what it could) */
	int64_t recs = 0, secs = 0, tpb = 0;
	struct ArrowArray a;
	while (s.get_next(&s, &a) == 0 && a.release) {
		count_warnings(&a, &recs, &secs, &tpb);
		a.release(&a);
	}
	s.release(&s);
	if (!recs && !secs && !tpb)
		return;
	fprintf(stderr, "nxp %s: warning: damaged trace: %lld record%s and %lld section%s skipped", cmd, (long long)recs,
		recs == 1 ? "" : "s", (long long)secs, secs == 1 ? "" : "s");
	if (tpb)
		fprintf(stderr, ", %lld TPB start/stop record%s", (long long)tpb, tpb == 1 ? "" : "s");
	fputs(" (nxp dump lists them; nxp export writes them to Warning.parquet)\n", stderr);
}

int cli_finish_stdout(const char *cmd)
{
	errno = 0;
	int bad = fflush(stdout) != 0;
	int err = errno;
	if (!bad && ferror(stdout)) {
		bad = 1;
		err = 0; /* an earlier write failed; its errno is gone */
	}
	errno = 0;
	if (fclose(stdout) != 0 && !bad) {
		bad = 1;
		err = errno;
	}
	if (!bad)
		return 0;
	fprintf(stderr, "nxp%s%s: error: cannot write the output: %s\n", *cmd ? " " : "", cmd,
		err ? strerror(err) : "write error");
	return 1;
}

int cli_parse_time(const char *s, int64_t *ns, int *relative)
{
	if (s[0] != '+') {
		*relative = 0;
		return cli_parse_i64(s, ns);
	}
	const char *p = s + 1;
	int64_t whole = 0;
	const char *digits = p;
	while (*p >= '0' && *p <= '9') {
		if (whole > (INT64_MAX - 9) / 10)
			return -1;
		whole = whole * 10 + (*p++ - '0');
	}
	const char *frac = NULL;
	size_t nfrac = 0;
	if (*p == '.') {
		frac = ++p;
		while (*p >= '0' && *p <= '9')
			p++;
		nfrac = (size_t)(p - frac);
	}
	if (p == digits || (frac && p == digits + 1 && !nfrac))
		return -1; /* no digits at all */
	static const struct {
		const char *name;
		int64_t ns;
	} units[] = {{"ns", 1}, {"us", 1000}, {"ms", 1000000}, {"s", 1000000000}, {"", 1}};
	size_t u = 0;
	while (strcmp(p, units[u].name) && units[u].name[0])
		u++;
	if (strcmp(p, units[u].name))
		return -1;
	int64_t scale = units[u].ns;
	if (whole > INT64_MAX / scale)
		return -1;
	int64_t v = whole * scale, place = scale;
	for (size_t i = 0; i < nfrac; i++) {
		place /= 10;
		int d = frac[i] - '0';
		if (place == 0) {
			if (d)
				return -1; /* finer than 1 ns */
			continue;
		}
		v += d * place;
	}
	*ns = v;
	*relative = 1;
	return 0;
}

void cli_format_duration(int64_t ns, char *out, size_t n)
{
	double v = (double)ns;
	if (ns < 1000)
		snprintf(out, n, "%lld ns", (long long)ns);
	else if (ns < 1000000)
		snprintf(out, n, "%.3f us", v / 1e3);
	else if (ns < 1000000000)
		snprintf(out, n, "%.3f ms", v / 1e6);
	else
		snprintf(out, n, "%.6f s", v / 1e9);
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
