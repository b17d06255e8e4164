/* SPDX-License-Identifier: MIT */
/* Export: every table of a profile (or a system profile) to DIR/<Table>.parquet
 * through the columnar streams and nxp_parquet_write(). */
#include "columnar_priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "status.h"

static int want_table(const nxc_table *t, int system)
{
	if (t->kind == NXC_KIND_SCHEMA)
		return 1;
	return system ? t->kind == NXC_KIND_SYSTEM : t->kind != NXC_KIND_SYSTEM;
}

static int export_tables(nxp_profile *p, const char *path, const char *dir, const nxp_export_options *uo,
			 nxp_status *st)
{
	int system = p == NULL;
	nxp_export_options o;
	nxp_export_options_init(&o);
	if (uo) {
		if (uo->struct_size < offsetof(nxp_export_options, progress_user) + sizeof(void *))
			return nxp_fail(st, NXP_E_INVAL, -1, "nxp_export_options: struct_size too small");
		memcpy(&o, uo, sizeof(o));
	}
	if (!dir)
		return nxp_fail(st, NXP_E_INVAL, -1, "export: NULL directory");
	nxc_registry_init();
	/* the tables to write */
	const nxc_table *list[64];
	int n = 0;
	if (o.tables) {
		for (int i = 0; o.tables[i]; i++) {
			const nxc_table *t = nxc_find_table(o.tables[i]);
			if (!t || !want_table(t, system))
				return nxp_fail(st, NXP_E_INVAL, -1, "unknown %s table \"%s\"",
						system ? "system" : "profile", o.tables[i]);
			if (n < 64)
				list[n++] = t;
		}
	} else {
		for (int i = 0; nxc_tables[i] && n < 64; i++)
			if (want_table(nxc_tables[i], system))
				list[n++] = nxc_tables[i];
	}
	if (mkdir(dir, 0777) != 0 && errno != EEXIST)
		return nxp_fail(st, NXP_E_IO, -1, "%s: cannot create: %s", dir, strerror(errno));
	struct stat sb;
	if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
		return nxp_fail(st, NXP_E_IO, -1, "%s: not a directory", dir);
	size_t dl = strlen(dir);
	char *file = malloc(dl + 64);
	if (!file)
		return nxp_fail(st, NXP_E_NOMEM, -1, "out of memory");
	/* refuse before writing anything */
	if (!o.overwrite)
		for (int i = 0; i < n; i++) {
			snprintf(file, dl + 64, "%s/%s.parquet", dir, list[i]->name);
			if (access(file, F_OK) == 0) {
				int rc = nxp_fail(st, NXP_E_INVAL, -1, "%s exists (overwrite not allowed)", file);
				free(file);
				return rc;
			}
		}
	const char *kv[] = { "schema_version", "7.4.0", "libnxp_version", nxp_version_string(), "table", NULL,
			     NULL };
	int rc = 0;
	for (int i = 0; i < n && !rc; i++) {
		if (o.progress)
			o.progress(o.progress_user, list[i]->name, i, n);
		snprintf(file, dl + 64, "%s/%s.parquet", dir, list[i]->name);
		struct ArrowArrayStream as;
		rc = nxc_open_stream(&as, list[i], p, path, NULL, st);
		if (rc)
			break;
		nxp_parquet_options po;
		nxp_parquet_options_init(&po);
		po.codec = o.codec;
		po.level = o.level;
		po.overwrite = o.overwrite;
		kv[5] = list[i]->name;
		po.key_values = kv;
		rc = nxp_parquet_write(file, &as, &po, st); /* releases the stream */
	}
	if (!rc && o.progress)
		o.progress(o.progress_user, NULL, n, n);
	free(file);
	return rc;
}

NXP_API int nxp_profile_export_parquet(nxp_profile *p, const char *dir, const nxp_export_options *opts,
				       nxp_status *st)
{
	if (!p)
		return nxp_fail(st, NXP_E_INVAL, -1, "nxp_profile_export_parquet: NULL profile");
	return export_tables(p, NULL, dir, opts, st);
}

NXP_API int nxp_system_export_parquet(const char *path, const char *dir, const nxp_export_options *opts,
				      nxp_status *st)
{
	if (!path)
		return nxp_fail(st, NXP_E_INVAL, -1, "nxp_system_export_parquet: NULL path");
	return export_tables(NULL, path, dir, opts, st);
}
