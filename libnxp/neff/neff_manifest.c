/* SPDX-License-Identifier: MIT */
/*
 * The NEFF manifests, with jansson: kelf-*.json (the subgraphs), each
 * subgraph's def.json (tensors, DMA queue sets, engine files), neff.json
 * (sanity only) and hlo_stats.json (model FLOPs, libnxp's assumption).
 * Every error names the member and the key.
 */
#include "neff_priv.h"

#include <jansson.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* jansson limits nesting only at compile time, so scan the text first: the
 * parser never sees a document deeper than the caller allows. */
static int json_depth_ok(const uint8_t *p, size_t len, uint32_t max)
{
	uint32_t depth = 0;
	int in_str = 0, esc = 0;
	for (size_t i = 0; i < len; i++) {
		uint8_t c = p[i];
		if (in_str) {
			if (esc)
				esc = 0;
			else if (c == '\\')
				esc = 1;
			else if (c == '"')
				in_str = 0;
		} else if (c == '"') {
			in_str = 1;
		} else if (c == '[' || c == '{') {
			if (++depth > max)
				return 0;
		} else if ((c == ']' || c == '}') && depth) {
			depth--;
		}
	}
	return 1;
}

static int load_json(nxp_neff *n, const neff_member *m, json_t **out)
{
	*out = NULL;
	if (m->len > n->lim.max_json_size)
		return neff_fail(n, NXP_E_LIMIT, m->offset, "member %s is %zu bytes, over max_json_size (%llu)", m->name,
				 m->len, (unsigned long long)n->lim.max_json_size);
	if (!json_depth_ok(m->data, m->len, n->lim.max_json_depth))
		return neff_fail(n, NXP_E_LIMIT, m->offset, "member %s nests JSON deeper than max_json_depth (%u)",
				 m->name, n->lim.max_json_depth);
	json_error_t e;
	json_t *j = json_loadb((const char *)m->data, m->len, JSON_DECODE_ANY, &e);
	if (!j)
		return neff_fail(n, NXP_E_JSON, m->offset, "member %s: JSON syntax error at line %d column %d: %s",
				 m->name, e.line, e.column, e.text);
	if (!json_is_object(j)) {
		json_decref(j);
		return neff_fail(n, NXP_E_JSON, m->offset, "member %s: top level is not a JSON object", m->name);
	}
	*out = j;
	return NXP_OK;
}

/* Context of the JSON being read, for error messages. */
typedef struct jctx {
	nxp_neff *n;
	const neff_member *m;
} jctx;

static int shape_error(const jctx *c, const char *path, const char *what)
{
	return neff_fail(c->n, NXP_E_JSON, c->m->offset, "member %s: key \"%s\" %s", c->m->name, path, what);
}

static int get_str(const jctx *c, json_t *obj, const char *key, const char *path, const char **out)
{
	json_t *v = json_object_get(obj, key);
	if (!v || json_is_null(v)) {
		*out = "";
		return NXP_OK;
	}
	if (!json_is_string(v))
		return shape_error(c, path, "is not a string");
	*out = neff_strndup(c->n, json_string_value(v), json_string_length(v));
	return *out ? NXP_OK : neff_fail(c->n, NXP_E_NOMEM, -1, "out of memory");
}

static int get_int(const jctx *c, json_t *obj, const char *key, const char *path, int64_t dflt, int64_t *out)
{
	json_t *v = json_object_get(obj, key);
	*out = dflt;
	if (!v || json_is_null(v))
		return NXP_OK;
	if (json_is_integer(v)) {
		*out = (int64_t)json_integer_value(v);
		return NXP_OK;
	}
	if (json_is_real(v)) {
		double d = json_real_value(v);
		if (d > -9.2e18 && d < 9.2e18 && d == (double)(int64_t)d) { /* guard: the cast must not overflow */
			*out = (int64_t)d;
			return NXP_OK;
		}
	}
	return shape_error(c, path, "is not an integer");
}

/* "shape": [d0, d1, ...] rendered as "[d0,d1,...]"; a string is kept as is. */
static int get_shape(const jctx *c, json_t *obj, const char *path, const char **out)
{
	json_t *v = json_object_get(obj, "shape");
	if (!v || json_is_null(v) || json_is_string(v))
		return get_str(c, obj, "shape", path, out);
	if (!json_is_array(v))
		return shape_error(c, path, "is not an array");
	size_t cap = 2 + json_array_size(v) * 21, used = 0;
	char *buf = malloc(cap + 1);
	if (!buf)
		return neff_fail(c->n, NXP_E_NOMEM, -1, "out of memory");
	buf[used++] = '[';
	size_t i;
	json_t *d;
	json_array_foreach(v, i, d)
	{
		if (!json_is_integer(d)) {
			free(buf);
			return shape_error(c, path, "has a non-integer dimension");
		}
		used += (size_t)snprintf(buf + used, cap + 1 - used, "%s%lld", i ? "," : "",
					 (long long)json_integer_value(d));
	}
	buf[used++] = ']';
	buf[used] = '\0';
	*out = neff_strdup(c->n, buf);
	free(buf);
	return *out ? NXP_OK : neff_fail(c->n, NXP_E_NOMEM, -1, "out of memory");
}

static int grow(nxp_neff *n, void **arr, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return NXP_OK;
	size_t ncap = *cap ? *cap * 2 : 16;
	while (ncap < need)
		ncap *= 2;
	void *t = realloc(*arr, ncap * elem);
	if (!t)
		return neff_fail(n, NXP_E_NOMEM, -1, "out of memory");
	*arr = t;
	*cap = ncap;
	return NXP_OK;
}

static int cmp_tensor(const void *a, const void *b)
{
	return strcmp(((const nxp_tensor_info *)a)->variable_name, ((const nxp_tensor_info *)b)->variable_name);
}

static int load_tensors(const jctx *c, json_t *def, int64_t pcore, neff_subgraph *sg)
{
	nxp_neff *n = c->n;
	sg->tensor_first = n->ntensors;
	json_t *var = json_object_get(def, "var");
	if (!var || json_is_null(var))
		return NXP_OK;
	if (!json_is_object(var))
		return shape_error(c, "var", "is not an object");
	const char *key;
	json_t *v;
	char path[512];
	json_object_foreach(var, key, v)
	{
		if (key[0] == '#')
			continue;
		snprintf(path, sizeof(path), "var.%s", key);
		if (!json_is_object(v))
			return shape_error(c, path, "is not an object");
		int rc = grow(n, (void **)&n->tensors, &n->tensors_cap, n->ntensors + 1, sizeof(*n->tensors));
		if (rc)
			return rc;
		nxp_tensor_info *t = &n->tensors[n->ntensors];
		memset(t, 0, sizeof(*t));
		t->struct_size = sizeof(*t);
		t->pcore_idx = pcore;
		t->variable_name = neff_strdup(n, key);
		if (!t->variable_name)
			return neff_fail(n, NXP_E_NOMEM, -1, "out of memory");
		char sub[600];
		const char *fmt_key = json_object_get(v, "dtype") ? "dtype" : "format";
		snprintf(sub, sizeof(sub), "%s.type", path);
		if ((rc = get_str(c, v, "type", sub, &t->type)))
			return rc;
		snprintf(sub, sizeof(sub), "%s.%s", path, fmt_key);
		if ((rc = get_str(c, v, fmt_key, sub, &t->format)))
			return rc;
		snprintf(sub, sizeof(sub), "%s.shape", path);
		if ((rc = get_shape(c, v, sub, &t->shape)))
			return rc;
		snprintf(sub, sizeof(sub), "%s.size", path);
		if ((rc = get_int(c, v, "size", sub, -1, &t->size)))
			return rc;
		snprintf(sub, sizeof(sub), "%s.var_id", path);
		if ((rc = get_int(c, v, "var_id", sub, -1, &t->node)))
			return rc;
		snprintf(sub, sizeof(sub), "%s.file_name", path);
		if ((rc = get_str(c, v, "file_name", sub, &t->file_name)))
			return rc;
		n->ntensors++;
	}
	sg->tensor_count = n->ntensors - sg->tensor_first;
	qsort(n->tensors + sg->tensor_first, sg->tensor_count, sizeof(*n->tensors), cmp_tensor);
	return NXP_OK;
}

/* def.json queue-set types to the profile's DmaQueueType.  embedding_update
 * queues move data, so they count as "data" (libnxp's choice). */
static const char *queue_type(const char *neff_type)
{
	static const struct {
		const char *neff, *profile;
	} map[] = {
		{"in", "input"},   {"out", "output"},          {"data", "data"},
		{"dynamic", "software_dynamic"}, {"embedding_update", "data"},
	};
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(neff_type, map[i].neff))
			return map[i].profile;
	return "unknown";
}

#define QUEUES_PER_DMA_ENGINE 16 /* libnxp's model: instance k of the subgraph is on DMA engine k / 16 */
#define MAX_QUEUES_PER_SET 16

static int load_queues(const jctx *c, json_t *def, int64_t pcore, neff_subgraph *sg)
{
	nxp_neff *n = c->n;
	sg->queue_first = n->nqueues;
	json_t *dq = json_object_get(def, "dma_queue");
	if (!dq || json_is_null(dq))
		return NXP_OK;
	if (!json_is_object(dq))
		return shape_error(c, "dma_queue", "is not an object");
	const char *key;
	json_t *v;
	char path[512], sub[600];
	int64_t global = 0;
	json_object_foreach(dq, key, v)
	{
		if (key[0] == '#')
			continue;
		snprintf(path, sizeof(path), "dma_queue.%s", key);
		if (!json_is_object(v))
			return shape_error(c, path, "is not an object");
		const char *ntype, *owner, *name = neff_strdup(n, key);
		int64_t num, axi, dram;
		int rc;
		if (!name)
			return neff_fail(n, NXP_E_NOMEM, -1, "out of memory");
		snprintf(sub, sizeof(sub), "%s.type", path);
		if ((rc = get_str(c, v, "type", sub, &ntype)))
			return rc;
		snprintf(sub, sizeof(sub), "%s.owner", path);
		if ((rc = get_str(c, v, "owner", sub, &owner)))
			return rc;
		snprintf(sub, sizeof(sub), "%s.num_queues", path);
		if ((rc = get_int(c, v, "num_queues", sub, 1, &num)))
			return rc;
		if (num < 0 || num > MAX_QUEUES_PER_SET)
			return neff_fail(n, NXP_E_JSON, c->m->offset, "member %s: key \"%s\" is %lld, outside 0..%d",
					 c->m->name, sub, (long long)num, MAX_QUEUES_PER_SET);
		snprintf(sub, sizeof(sub), "%s.axi_port", path);
		if ((rc = get_int(c, v, "axi_port", sub, -1, &axi)))
			return rc;
		snprintf(sub, sizeof(sub), "%s.dram_channel", path);
		if ((rc = get_int(c, v, "dram_channel", sub, -1, &dram)))
			return rc;
		if ((rc = grow(n, (void **)&n->queues, &n->queues_cap, n->nqueues + (size_t)num, sizeof(*n->queues))))
			return rc;
		for (int64_t k = 0; k < num; k++, global++)
			n->queues[n->nqueues++] = (nxp_neff_queue){
				.name = name,
				.type = queue_type(ntype),
				.neff_type = ntype,
				.owner = owner,
				.pcore_idx = pcore,
				.idx = k,
				.engine_idx = global / QUEUES_PER_DMA_ENGINE,
				.axi_port = axi,
				.dram_channel = dram,
			};
	}
	sg->queue_count = n->nqueues - sg->queue_first;
	return NXP_OK;
}

/* A def.json file name resolved in def.json's own folder. */
static int resolve(const jctx *c, const char *folder, const char *base, const char *key, char **out)
{
	size_t fl = strlen(folder), bl = strlen(base);
	char *joined = malloc(fl + bl + 2);
	if (!joined)
		return neff_fail(c->n, NXP_E_NOMEM, -1, "out of memory");
	memcpy(joined, folder, fl);
	size_t at = fl;
	if (fl)
		joined[at++] = '/';
	memcpy(joined + at, base, bl + 1);
	int rc = neff_path_normalise(joined, out);
	free(joined);
	if (rc == NXP_E_UNSAFE_PATH)
		return neff_fail(c->n, rc, c->m->offset, "member %s: key \"%s\" names an unsafe path \"%s\"", c->m->name,
				 key, base);
	return rc ? neff_fail(c->n, rc, -1, "out of memory") : NXP_OK;
}

static int load_engines(const jctx *c, json_t *def, const char *folder, neff_subgraph *sg)
{
	nxp_neff *n = c->n;
	for (int e = 0; e < NXP_ENGINE_COUNT; e++) {
		const char *shortname = nxp_engine_short_name(e);
		char key[32];
		const char *val;
		char *path;
		int rc;
		neff_stream *s = &sg->eng[e];
		s->json_path = "";
		s->bin_path = "";
		if ((rc = get_str(c, def, shortname, shortname, &val)))
			return rc;
		if (val[0]) {
			if ((rc = resolve(c, folder, val, shortname, &path)))
				return rc;
			s->json_path = neff_strdup(n, path);
			free(path);
			if (!s->json_path)
				return neff_fail(n, NXP_E_NOMEM, -1, "out of memory");
		}
		snprintf(key, sizeof(key), "%s_instr", shortname);
		if ((rc = get_str(c, def, key, key, &val)))
			return rc;
		if (!val[0])
			continue;
		if ((rc = resolve(c, folder, val, key, &path)))
			return rc;
		neff_member *bin = neff_member_find(n, path);
		if (!bin) {
			rc = neff_fail(n, NXP_E_NOT_FOUND, c->m->offset, "instruction file %s named by %s (%s) is missing",
				       path, c->m->name, key);
			free(path);
			return rc;
		}
		free(path);
		s->bin_path = neff_strdup(n, bin->name);
		if (!s->bin_path)
			return neff_fail(n, NXP_E_NOMEM, -1, "out of memory");
		if (bin->len % NXP_NEFF_INSTRUCTION_SIZE)
			return neff_fail(n, NXP_E_FORMAT, bin->offset,
					 "member %s is %zu bytes, not a multiple of the %d-byte instruction", bin->name,
					 bin->len, NXP_NEFF_INSTRUCTION_SIZE);
		if (!bin->data && bin->len)
			return neff_fail(n, NXP_E_FORMAT, bin->offset, "member %s is used by two engines", bin->name);
		s->raw = bin->data; /* the stream owns the bytes now */
		s->count = bin->len / NXP_NEFF_INSTRUCTION_SIZE;
		bin->data = NULL;
		if ((rc = neff_stream_build(n, s, e)))
			return rc;
	}
	return NXP_OK;
}

static int load_subgraph(nxp_neff *n, const neff_member *kelf, json_t *g, size_t i)
{
	jctx kc = {n, kelf};
	char path[64];
	neff_subgraph *sg = &n->sgs[i];
	if (!json_is_object(g)) {
		snprintf(path, sizeof(path), "graphs[%zu]", i);
		return shape_error(&kc, path, "is not an object");
	}
	const char *defname, *name;
	int rc;
	snprintf(path, sizeof(path), "graphs[%zu].definition", i);
	if ((rc = get_str(&kc, g, "definition", path, &defname)))
		return rc;
	if (!defname[0])
		return shape_error(&kc, path, "is missing");
	snprintf(path, sizeof(path), "graphs[%zu].name", i);
	if ((rc = get_str(&kc, g, "name", path, &name)))
		return rc;
	char *def_path;
	if ((rc = resolve(&kc, "", defname, "definition", &def_path)))
		return rc;
	neff_member *dm = neff_member_find(n, def_path);
	if (!dm) {
		rc = neff_fail(n, NXP_E_NOT_FOUND, kelf->offset, "definition file %s named by %s is missing", def_path,
			       kelf->name);
		free(def_path);
		return rc;
	}
	free(def_path);
	sg->definition = neff_strdup(n, dm->name);
	const char *slash = strrchr(dm->name, '/');
	const char *folder = slash ? neff_strndup(n, dm->name, (size_t)(slash - dm->name)) : "";
	if (!sg->definition || !folder)
		return neff_fail(n, NXP_E_NOMEM, -1, "out of memory");
	if (!name[0]) {
		char dflt[32];
		snprintf(dflt, sizeof(dflt), "sg%02zu", i);
		name = folder[0] ? folder : neff_strdup(n, dflt);
		if (!name)
			return neff_fail(n, NXP_E_NOMEM, -1, "out of memory");
	}
	sg->name = name;
	json_t *def;
	if ((rc = load_json(n, dm, &def)))
		return rc;
	jctx dc = {n, dm};
	rc = get_str(&dc, def, "name", "name", &sg->def_name);
	if (!rc)
		rc = load_tensors(&dc, def, (int64_t)i, sg);
	if (!rc)
		rc = load_queues(&dc, def, (int64_t)i, sg);
	if (!rc)
		rc = load_engines(&dc, def, folder, sg);
	json_decref(def);
	return rc;
}

static int is_kelf(const char *name)
{
	size_t l = strlen(name);
	return !strchr(name, '/') && !strncmp(name, "kelf-", 5) && l > 10 && !strcmp(name + l - 5, ".json");
}

static int load_kelf(nxp_neff *n)
{
	neff_member *kelf = NULL;
	for (size_t i = 0; i < n->nmembers; i++)
		if (is_kelf(n->members[i].name) && (!kelf || strcmp(n->members[i].name, kelf->name) < 0))
			kelf = &n->members[i];
	if (!kelf && !n->nmembers) /* not one file a NEFF has: the payload itself is not one */
		return neff_fail(n, NXP_E_FORMAT, NXP_NEFF_HEADER_SIZE,
				 "the NEFF payload holds none of a NEFF's files (no kelf-*.json, no sgNN/def.json): "
				 "zeroed or not a NEFF archive");
	if (!kelf)
		return neff_fail(n, NXP_E_NOT_FOUND, -1, "the NEFF has no kelf-*.json manifest");
	json_t *root;
	int rc = load_json(n, kelf, &root);
	if (rc)
		return rc;
	jctx kc = {n, kelf};
	json_t *graphs = json_object_get(root, "graphs");
	if (!json_is_array(graphs)) {
		json_decref(root);
		return shape_error(&kc, "graphs", graphs ? "is not an array" : "is missing");
	}
	size_t count = json_array_size(graphs);
	n->sgs = calloc(count ? count : 1, sizeof(*n->sgs));
	if (!n->sgs) {
		json_decref(root);
		return neff_fail(n, NXP_E_NOMEM, -1, "out of memory");
	}
	n->nsgs = count;
	for (size_t i = 0; i < count && !rc; i++)
		rc = load_subgraph(n, kelf, json_array_get(graphs, i), i);
	json_decref(root);
	return rc;
}

static int load_optional(nxp_neff *n)
{
	neff_member *m = neff_member_find(n, "neff.json");
	json_t *j;
	int rc;
	if (m) {
		if ((rc = load_json(n, m, &j)))
			return rc;
		json_decref(j);
		n->has_neff_json = 1;
	}
	n->model_flops = -1;
	m = neff_member_find(n, "hlo_stats.json");
	if (m) {
		if ((rc = load_json(n, m, &j)))
			return rc;
		/* libnxp's assumption: the compiler's HLO statistics carry the model's
		 * FLOPs under one of these keys. */
		static const char *const keys[] = {"model_flops", "total_flops"};
		for (size_t i = 0; i < 2 && n->model_flops < 0; i++) {
			json_t *v = json_object_get(j, keys[i]);
			if (json_is_integer(v) && json_integer_value(v) >= 0)
				n->model_flops = (int64_t)json_integer_value(v);
			else if (json_is_real(v) && json_real_value(v) >= 0 && json_real_value(v) < 9.2e18)
				n->model_flops = (int64_t)(json_real_value(v) + 0.5);
		}
		json_decref(j);
	}
	return NXP_OK;
}

int neff_manifest_load(nxp_neff *n)
{
	int rc = load_kelf(n);
	return rc ? rc : load_optional(n);
}
