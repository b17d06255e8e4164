/* SPDX-License-Identifier: MIT */
/* `nxp info NEFF [NTFF] [--json] [--verify] [--allow-mismatch]`: header,
 * subgraphs, tensors, DMA queues and per-engine instruction counts of a NEFF;
 * given its NTFF too, the trace's time span (first and last timestamps, which
 * --from/--to of `nxp dump` take) and cores.  Public API only. */
#include "cli.h"

#include <inttypes.h>
#include <string.h>

#define USAGE                                                                                         \
	"nxp info NEFF [NTFF] [--json] [--verify] [--allow-mismatch]\n"                                \
	"  the NEFF's header, subgraphs, tensors, DMA queues and instruction counts;\n"                 \
	"  with its NTFF, also the trace's first and last timestamps (ns) and cores;\n"               \
	"  --verify: check the NEFF's payload digest and, with the NTFF, every section and\n"         \
	"  record (a damaged trace is said on stderr)"

static void json_kv_u64(FILE *f, const char *k, uint64_t v, int comma)
{
	fprintf(f, "\"%s\":%" PRIu64 "%s", k, v, comma ? "," : "");
}

static void json_kv_i64(FILE *f, const char *k, int64_t v, int comma)
{
	fprintf(f, "\"%s\":%" PRId64 "%s", k, v, comma ? "," : "");
}

static void json_kv_str(FILE *f, const char *k, const char *v, int comma)
{
	fprintf(f, "\"%s\":", k);
	cli_json_string(f, v);
	if (comma)
		putc(',', f);
}

static void print_json(const nxp_neff *neff, const nxp_neff_header *h, const nxp_metadata *md)
{
	FILE *f = stdout;
	char hash[65], uuid[33];
	cli_hex(h->hash, sizeof(h->hash), hash);
	cli_hex(h->uuid, sizeof(h->uuid), uuid);
	fputs("{\"header\":{", f);
	json_kv_u64(f, "pkg_version", h->pkg_version, 1);
	json_kv_u64(f, "header_size", h->header_size, 1);
	json_kv_u64(f, "data_size", h->data_size, 1);
	json_kv_u64(f, "neff_version_major", h->neff_version_major, 1);
	json_kv_u64(f, "neff_version_minor", h->neff_version_minor, 1);
	json_kv_str(f, "build_version", h->build_version, 1);
	json_kv_u64(f, "num_tpb", h->num_tpb, 1);
	json_kv_str(f, "hash", hash, 1);
	json_kv_str(f, "uuid", uuid, 1);
	json_kv_str(f, "name", h->name, 1);
	json_kv_u64(f, "requested_tpb_count", h->requested_tpb_count, 1);
	json_kv_u64(f, "feature_bits", h->feature_bits, 1);
	json_kv_u64(f, "lnc_size", h->lnc_size, 1);
	fprintf(f, "\"hash_verified\":%s,\"payload_gzip\":%s},", h->hash_verified ? "true" : "false",
		h->payload_gzip ? "true" : "false");
	fprintf(f, "\"kernel_debug_info\":%s,", nxp_neff_has_kernel_debug_info(neff) ? "true" : "false");

	uint64_t totals[NXP_ENGINE_COUNT] = {0};
	fputs("\"subgraphs\":[", f);
	for (size_t i = 0; i < nxp_neff_subgraph_count(neff); i++) {
		nxp_neff_subgraph sg = {.struct_size = sizeof(sg)};
		if (nxp_neff_get_subgraph(neff, i, &sg))
			continue;
		fputs(i ? ",{" : "{", f);
		json_kv_str(f, "name", sg.name, 1);
		json_kv_str(f, "definition", sg.definition, 1);
		json_kv_i64(f, "pcore_idx", sg.pcore_idx, 1);
		json_kv_u64(f, "tensor_count", sg.tensor_count, 1);
		json_kv_u64(f, "dma_queue_count", sg.dma_queue_count, 1);
		fputs("\"instruction_count\":{", f);
		for (int e = 0; e < NXP_ENGINE_COUNT; e++) {
			json_kv_u64(f, nxp_engine_name(e), sg.instruction_count[e], e + 1 < NXP_ENGINE_COUNT);
			totals[e] += sg.instruction_count[e];
		}
		fputs("}}", f);
	}
	fputs("],\"tensors\":[", f);
	for (size_t i = 0; i < nxp_neff_tensor_count(neff); i++) {
		nxp_tensor_info t = {.struct_size = sizeof(t)};
		if (nxp_neff_get_tensor(neff, i, &t))
			continue;
		fputs(i ? ",{" : "{", f);
		json_kv_str(f, "variable_name", t.variable_name, 1);
		json_kv_str(f, "type", t.type, 1);
		json_kv_str(f, "format", t.format, 1);
		json_kv_str(f, "shape", t.shape, 1);
		json_kv_i64(f, "size", t.size, 1);
		json_kv_i64(f, "node", t.node, 1);
		json_kv_i64(f, "pcore_idx", t.pcore_idx, 1);
		json_kv_str(f, "file_name", t.file_name, 0);
		putc('}', f);
	}
	fputs("],\"dma_queues\":[", f);
	for (size_t i = 0; i < nxp_neff_dma_queue_count(neff); i++) {
		nxp_dma_queue_info q = {.struct_size = sizeof(q)};
		if (nxp_neff_get_dma_queue(neff, i, &q))
			continue;
		fputs(i ? ",{" : "{", f);
		json_kv_str(f, "name", q.name, 1);
		json_kv_str(f, "type", q.type, 1);
		json_kv_str(f, "neff_type", q.neff_type, 1);
		json_kv_str(f, "owner", q.owner, 1);
		json_kv_i64(f, "pcore_idx", q.pcore_idx, 1);
		json_kv_i64(f, "idx", q.idx, 1);
		json_kv_i64(f, "engine_idx", q.engine_idx, 1);
		json_kv_i64(f, "axi_port", q.axi_port, 1);
		json_kv_i64(f, "dram_channel", q.dram_channel, 0);
		putc('}', f);
	}
	fputs("],\"engines\":[", f);
	for (int e = 0; e < NXP_ENGINE_COUNT; e++) {
		fputs(e ? ",{" : "{", f);
		json_kv_str(f, "name", nxp_engine_name(e), 1);
		json_kv_u64(f, "instruction_count", totals[e], 0);
		putc('}', f);
	}
	putc(']', f);
	if (md) {
		fputs(",\"trace\":{", f);
		json_kv_str(f, "arch", md->arch, 1);
		json_kv_i64(f, "num_physical_cores", md->num_physical_cores, 1);
		json_kv_i64(f, "first_hw_timestamp", md->first_hw_timestamp, 1);
		json_kv_i64(f, "last_hw_timestamp", md->last_hw_timestamp, 1);
		json_kv_i64(f, "trace_count", md->trace_count, 0);
		putc('}', f);
	}
	fputs("}\n", f);
}

static void print_text(const nxp_neff *neff, const nxp_neff_header *h, const nxp_metadata *md)
{
	FILE *f = stdout;
	char hash[65], uuid[33];
	cli_hex(h->hash, sizeof(h->hash), hash);
	cli_hex(h->uuid, sizeof(h->uuid), uuid);
	fprintf(f, "NEFF header\n");
	fprintf(f, "  pkg_version          %" PRIu64 "\n", h->pkg_version);
	fprintf(f, "  header_size          %" PRIu64 "\n", h->header_size);
	fprintf(f, "  data_size            %" PRIu64 " (%s)\n", h->data_size, h->payload_gzip ? "gzip'd tar" : "plain tar");
	fprintf(f, "  neff_version         %" PRIu64 ".%" PRIu64 "\n", h->neff_version_major, h->neff_version_minor);
	fprintf(f, "  build_version        %s\n", h->build_version);
	fprintf(f, "  name                 %s\n", h->name);
	fprintf(f, "  num_tpb              %" PRIu32 "\n", h->num_tpb);
	fprintf(f, "  requested_tpb_count  %" PRIu32 "\n", h->requested_tpb_count);
	fprintf(f, "  lnc_size             %" PRIu32 "\n", h->lnc_size);
	fprintf(f, "  feature_bits         0x%" PRIx64 "\n", h->feature_bits);
	fprintf(f, "  hash                 %s%s\n", hash, h->hash_verified ? " (verified)" : "");
	fprintf(f, "  uuid                 %s\n", uuid);
	fprintf(f, "  kernel_debug_info    %s\n", nxp_neff_has_kernel_debug_info(neff) ? "yes" : "no");

	uint64_t totals[NXP_ENGINE_COUNT] = {0};
	fprintf(f, "\nSubgraphs (%zu)\n", nxp_neff_subgraph_count(neff));
	for (size_t i = 0; i < nxp_neff_subgraph_count(neff); i++) {
		nxp_neff_subgraph sg = {.struct_size = sizeof(sg)};
		if (nxp_neff_get_subgraph(neff, i, &sg))
			continue;
		fprintf(f, "  %-6s %s: %" PRIu64 " tensors, %" PRIu64 " DMA queues, instructions:", sg.name,
			sg.definition, sg.tensor_count, sg.dma_queue_count);
		for (int e = 0; e < NXP_ENGINE_COUNT; e++) {
			fprintf(f, " %s %" PRIu64, nxp_engine_name(e), sg.instruction_count[e]);
			totals[e] += sg.instruction_count[e];
		}
		putc('\n', f);
	}
	fprintf(f, "\nTensors (%zu)\n", nxp_neff_tensor_count(neff));
	for (size_t i = 0; i < nxp_neff_tensor_count(neff); i++) {
		nxp_tensor_info t = {.struct_size = sizeof(t)};
		if (nxp_neff_get_tensor(neff, i, &t))
			continue;
		fprintf(f, "  sg%02" PRId64 " %-24s %-13s size %-10" PRId64 " node %" PRId64 "%s%s%s%s%s%s\n", t.pcore_idx,
			t.variable_name, t.type[0] ? t.type : "-", t.size, t.node, t.format[0] ? " format " : "",
			t.format, t.shape[0] ? " shape " : "", t.shape, t.file_name[0] ? " file " : "", t.file_name);
	}
	fprintf(f, "\nDMA queues (%zu)\n", nxp_neff_dma_queue_count(neff));
	for (size_t i = 0; i < nxp_neff_dma_queue_count(neff); i++) {
		nxp_dma_queue_info q = {.struct_size = sizeof(q)};
		if (nxp_neff_get_dma_queue(neff, i, &q))
			continue;
		fprintf(f, "  sg%02" PRId64 " %-24s #%-2" PRId64 " %-16s (%s) owner %-4s dma engine %" PRId64 "\n", q.pcore_idx,
			q.name, q.idx, q.type, q.neff_type[0] ? q.neff_type : "-", q.owner[0] ? q.owner : "-",
			q.engine_idx);
	}
	fprintf(f, "\nEngines\n");
	for (int e = 0; e < NXP_ENGINE_COUNT; e++)
		fprintf(f, "  %-7s %-5s %" PRIu64 " instructions\n", nxp_engine_name(e), nxp_engine_short_name(e), totals[e]);
	if (md) {
		char span[32];
		cli_format_duration(md->last_hw_timestamp - md->first_hw_timestamp, span, sizeof(span));
		fprintf(f, "\nTrace\n");
		fprintf(f, "  arch                 %s\n", md->arch);
		fprintf(f, "  physical cores       %" PRId32 "\n", md->num_physical_cores);
		fprintf(f, "  first timestamp      %" PRId64 " ns\n", md->first_hw_timestamp);
		fprintf(f, "  last timestamp       %" PRId64 " ns\n", md->last_hw_timestamp);
		fprintf(f, "  span                 %s\n", span);
		fprintf(f, "  notifications        %" PRId64 "\n", md->trace_count);
	}
}

int cmd_info(int argc, char **argv)
{
	const char *paths[2] = {NULL, NULL};
	int npaths = 0, json = 0, verify = 0, allow = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = 1;
		else if (!strcmp(argv[i], "--verify"))
			verify = 1;
		else if (!strcmp(argv[i], "--allow-mismatch"))
			allow = 1;
		else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return cli_help(USAGE);
		else if (argv[i][0] == '-' && argv[i][1])
			return cli_bad_usage("info", USAGE, "unknown option '%s'", argv[i]);
		else if (npaths == 2)
			return cli_bad_usage("info", USAGE, "one NEFF and at most one NTFF: '%s' is a third file", argv[i]);
		else
			paths[npaths++] = argv[i];
	}
	if (!npaths)
		return cli_bad_usage("info", USAGE, "no NEFF given");
	nxp_neff_options opts;
	nxp_neff_options_init(&opts);
	if (verify)
		opts.flags |= NXP_NEFF_VERIFY_HASH;
	nxp_status st;
	nxp_status_init(&st);
	nxp_profile *p = NULL;
	const nxp_neff *cneff;
	nxp_neff *neff = NULL;
	nxp_metadata md = {.struct_size = sizeof(md)};
	if (npaths == 2) {
		nxp_profile_options po;
		nxp_profile_options_init(&po);
		po.neff = &opts;
		if (allow)
			po.flags |= NXP_PROFILE_ALLOW_MISMATCH;
		if (cli_open_profile("info", &p, paths[0], paths[1], &po))
			return 1;
		cneff = nxp_profile_neff(p);
		if (nxp_profile_get_metadata(p, &md)) {
			nxp_profile_error(p, &st);
			nxp_profile_close(p);
			return cli_error("info", &st);
		}
	} else {
		int kind;
		if (cli_check_input("info", paths[0], NXP_FILE_NEFF,
				    " (nxp info takes the NEFF first: nxp info NEFF [NTFF])", &kind))
			return 1;
		if (nxp_neff_open_path(&neff, paths[0], &opts, &st))
			return kind == NXP_FILE_UNKNOWN ? cli_error_in("info", paths[0], &st) : cli_error("info", &st);
		cneff = neff;
	}
	nxp_neff_header h = {.struct_size = sizeof(h)};
	int status = 0;
	if (nxp_neff_get_header(cneff, &h)) {
		nxp_neff_error(cneff, &st);
		status = cli_error("info", &st);
	} else if (json) {
		print_json(cneff, &h, p ? &md : NULL);
	} else {
		print_text(cneff, &h, p ? &md : NULL);
	}
	if (!status && verify && p)
		cli_warn_damage("info", p); /* --verify with the NTFF: every section and record checked */
	nxp_neff_close(neff);
	nxp_profile_close(p);
	return status;
}
