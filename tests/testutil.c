/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct chunky {
	const uint8_t *data;
	size_t len, pos;
	unsigned turn;
};

static int64_t chunky_read(void *user, void *buf, size_t len)
{
	static const size_t steps[] = {1, 2, 3, 5, 7, 11, 13};
	struct chunky *c = user;
	size_t n = steps[c->turn++ % (sizeof(steps) / sizeof(steps[0]))];
	if (n > len)
		n = len;
	if (n > c->len - c->pos)
		n = c->len - c->pos;
	memcpy(buf, c->data + c->pos, n);
	c->pos += n;
	return (int64_t)n;
}

static int chunky_seek(void *user, uint64_t off)
{
	struct chunky *c = user;
	if (off > c->len)
		return -1;
	c->pos = (size_t)off;
	return 0;
}

static int64_t chunky_size(void *user)
{
	return (int64_t)((struct chunky *)user)->len;
}

static void chunky_close(void *user)
{
	free(user);
}

nxp_source *tu_chunky_source(const void *data, size_t len, int seekable)
{
	struct chunky *c = calloc(1, sizeof(*c));
	c->data = data;
	c->len = len;
	nxp_source_callbacks cb;
	nxp_source_callbacks_init(&cb);
	cb.read = chunky_read;
	cb.seek = seekable ? chunky_seek : NULL;
	cb.get_size = chunky_size;
	cb.close = chunky_close;
	nxp_source *src = NULL;
	if (nxp_source_open_callbacks(&src, &cb, c, NULL) != NXP_OK) {
		free(c);
		return NULL;
	}
	return src;
}

void *tu_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "cannot open %s\n", path);
		abort();
	}
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	void *buf = malloc(n > 0 ? (size_t)n : 1);
	if (n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n)
		abort();
	fclose(f);
	*len = (size_t)n;
	return buf;
}

int tu_write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	int ok = fwrite(data, 1, len, f) == len;
	return (fclose(f) == 0 && ok) ? 0 : -1;
}

char *tu_tmpdir(void)
{
	const char *base = getenv("TMPDIR");
	char *tmpl;
	if (asprintf(&tmpl, "%s/nxp-test-XXXXXX", base ? base : "/tmp") < 0 || !mkdtemp(tmpl))
		abort();
	return tmpl;
}

char *tu_path(const char *dir, const char *name)
{
	char *p;
	if (asprintf(&p, "%s/%s", dir, name) < 0)
		abort();
	return p;
}

const char *tu_shared_dir(void)
{
	const char *d = getenv("NXP_SHARED_DIR");
	struct stat sb;
	return d && *d && stat(d, &sb) == 0 && S_ISDIR(sb.st_mode) ? d : NULL;
}

char *tu_data_path(const char *name)
{
	const char *d = getenv("NXP_TEST_DATA");
	if (!d || !*d) {
		fprintf(stderr, "NXP_TEST_DATA is not set (it names the project's tests/data; meson test sets it)\n");
		abort();
	}
	return tu_path(d, name);
}
