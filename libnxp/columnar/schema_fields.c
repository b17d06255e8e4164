/* SPDX-License-Identifier: MIT */
/* SchemaFields: one row per table x column that libnxp writes, taken from the
 * same descriptors the streams are built from, so it lists exactly the
 * columns the other streams produce. */
#include "columnar_priv.h"

#include "status.h"

static const nxc_col sf_cols[] = {
	{ "table_name", NXC_DICT, 1, 0, 0, 0, 0, 0, "", "table the column belongs to" },
	{ "field_name", NXC_UTF8, 1, 0, 0, 0, 0, 0, "", "column name" },
	{ "type", NXC_DICT, 1, 0, 0, 0, 0, 0, "", "Arrow type written: int64, int32, float64, bool, utf8, dictionary<int32, utf8>" },
	{ "unit", NXC_DICT, 1, 0, 0, 0, 0, 0, "", "unit of the values (nanoseconds, bytes, ...), \"-\" when none" },
	{ "required", NXC_BOOL, 1, 0, 0, 0, 0, 0, "", "true: never null" },
	{ "description", NXC_UTF8, 1, 0, 0, 0, 0, 0, "", "what the column holds" },
	{ "extension", NXC_BOOL, 1, 1, 0, 0, 0, 0, "", "libnxp: true for a column libnxp adds to the public schema" },
};

static int sf_rows(nxc_stream *s, nxp_profile *p, const char *path, nxp_status *st)
{
	(void)p;
	(void)path;
	(void)st;
	nxc_builder *b = &s->b;
	nxc_registry_init();
	for (int t = 0; nxc_tables[t]; t++) {
		const nxc_table *tb = nxc_tables[t];
		for (int i = 0; i < tb->ncols; i++) {
			const nxc_col *c = &tb->cols[i];
			nxc_put_str(b, 0, tb->name);
			nxc_put_str(b, 1, c->name);
			nxc_put_str(b, 2, nxc_type_name(c->type));
			nxc_put_str(b, 3, c->unit && *c->unit ? c->unit : "-");
			nxc_put_bool(b, 4, c->required);
			nxc_put_str(b, 5, c->desc ? c->desc : "");
			nxc_put_bool(b, 6, c->extension);
			nxc_end_row(b);
		}
	}
	return 0;
}

static int sf_open(nxc_stream *s, nxp_profile *p, const char *path, nxp_status *st)
{
	return nxc_rows_open(s, sf_rows, p, path, st);
}

const nxc_table nxc_table_schema_fields = { "SchemaFields", NXC_KIND_SCHEMA, 0, 0, sf_cols,
					    (int)(sizeof(sf_cols) / sizeof(sf_cols[0])), sf_open };
