/* SPDX-License-Identifier: MIT */
#include "neff_fixture.h"

#include <archive.h>
#include <archive_entry.h>
#include <md5.h>
#include <sha2.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die(const char *what)
{
	fprintf(stderr, "fixture: %s\n", what);
	abort();
}

void fx_instr(uint8_t out[64], unsigned opcode, uint16_t partitions, uint16_t active_cols, uint8_t flags,
	      uint8_t func)
{
	nxp_neff_instruction in;
	memset(&in, 0, sizeof(in));
	in.struct_size = sizeof(in);
	in.opcode_num = opcode;
	in.partitions = partitions;
	in.active_cols = active_cols;
	in.flags = flags;
	in.func = func;
	/* src: SBUF 0x5600 bf16 [1,0,0][512,1,1]; dst: PSUM 0x2000000 fp32 */
	in.src.address = 0x5600;
	in.src.dtype = 2;
	in.src.step_elem[0] = 1;
	in.src.num_elem[0] = 512;
	in.src.num_elem[1] = 1;
	in.src.num_elem[2] = 1;
	in.dst.address = 0x2000000;
	in.dst.dtype = 1;
	in.dst.step_elem[0] = 1;
	in.dst.num_elem[0] = 64;
	in.dst.num_elem[1] = 1;
	in.dst.num_elem[2] = 1;
	if (nxp_instruction_encode(&in, out) != NXP_OK)
		die("encode");
}

static size_t mlen(const fx_member *m)
{
	return m->len ? m->len : (m->data ? strlen(m->data) : 0);
}

void *fx_neff(const fx_member *m, size_t count, uint32_t write_flags, uint64_t pkg_version, size_t *len)
{
	nxp_neff_writer_options o;
	nxp_neff_writer_options_init(&o);
	o.flags = write_flags;
	o.pkg_version = pkg_version;
	o.name = "fixture";
	nxp_neff_writer *w;
	if (nxp_neff_writer_open(&w, &o, NULL) != NXP_OK)
		die("writer_open");
	for (size_t i = 0; i < count; i++)
		if (nxp_neff_writer_add(w, m[i].path, m[i].data, mlen(&m[i])) != NXP_OK)
			die(m[i].path);
	void *data;
	if (nxp_neff_writer_save_memory(w, &data, len) != NXP_OK)
		die("save_memory");
	nxp_neff_writer_close(w);
	return data;
}

static void le64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

void fx_header(uint8_t out[1024], uint64_t pkg_version, const uint8_t *payload, size_t payload_len)
{
	memset(out, 0, 1024);
	le64(out + 0x00, pkg_version);
	le64(out + 0x08, 1024);
	le64(out + 0x10, payload_len);
	le64(out + 0x18, 1);
	memcpy(out + 0x28, "fixture-tool 1.0", 16);
	out[0xA8] = 1;
	if (pkg_version == 1) {
		SHA2_CTX c;
		SHA256Init(&c);
		SHA256Update(&c, payload, payload_len);
		SHA256Final(out + 0xAC, &c);
	} else {
		MD5_CTX c;
		MD5Init(&c);
		MD5Update(&c, payload, payload_len);
		MD5Final(out + 0xAC, &c);
	}
	memcpy(out + 0xDC, "tar-tool-net", 12);
	out[0x228] = 1;
}

typedef struct grow {
	uint8_t *p;
	size_t len, cap;
} grow;

static la_ssize_t grow_write(struct archive *a, void *user, const void *buf, size_t len)
{
	(void)a;
	grow *g = user;
	if (g->len + len > g->cap) {
		g->cap = (g->len + len) * 2;
		g->p = realloc(g->p, g->cap);
		if (!g->p)
			die("oom");
	}
	memcpy(g->p + g->len, buf, len);
	g->len += len;
	return (la_ssize_t)len;
}

void *fx_tar_neff(const fx_member *m, size_t count, int format, int gzip, size_t *len)
{
	grow g = {0};
	g.cap = 1 << 16;
	g.p = malloc(g.cap);
	g.len = 1024; /* header room */
	struct archive *a = archive_write_new();
	int r = format == FX_GNUTAR ? archive_write_set_format_gnutar(a)
		: format == FX_PAX  ? archive_write_set_format_pax(a)
				    : archive_write_set_format_ustar(a);
	if (r != ARCHIVE_OK || (gzip && archive_write_add_filter_gzip(a) != ARCHIVE_OK) ||
	    archive_write_open(a, &g, NULL, grow_write, NULL) != ARCHIVE_OK)
		die("archive_write setup");
	for (size_t i = 0; i < count; i++) {
		struct archive_entry *e = archive_entry_new();
		archive_entry_set_pathname(e, m[i].path);
		archive_entry_set_filetype(e, AE_IFREG);
		archive_entry_set_perm(e, 0600);
		archive_entry_set_size(e, (la_int64_t)mlen(&m[i]));
		archive_entry_set_mtime(e, 1700000000, 0);
		if (archive_write_header(a, e) != ARCHIVE_OK)
			die(archive_error_string(a));
		if (mlen(&m[i]) && archive_write_data(a, m[i].data, mlen(&m[i])) != (la_ssize_t)mlen(&m[i]))
			die("archive_write_data");
		archive_entry_free(e);
	}
	if (archive_write_close(a) != ARCHIVE_OK)
		die("archive_write_close");
	archive_write_free(a);
	fx_header(g.p, 2, g.p + 1024, g.len - 1024);
	*len = g.len;
	return g.p;
}

/* ---- The standard fixture: two subgraphs, every manifest ---- */
static const char kelf_json[] =
	"{\"graphs\":[{\"definition\":\"sg00/def.json\",\"name\":\"sg00\"},{\"definition\":\"./sg01/def.json\"}],"
	"\"version\":\"0.5\",\"target\":\"*\"}";

static const char def0_json[] =
	"{\"name\": \"sg00\", \"version\": \"1.0\",\n"
	" \"var\": {\"IN\": {\"type\": \"input\", \"var_id\": 0, \"size\": 301056, \"dtype\": \"bf16\","
	" \"shape\": [1, 3, 224, 224]},\n"
	"   \"W0\": {\"type\": \"file\", \"var_id\": 1, \"size\": 65536, \"file_name\": \"w0.npy\","
	" \"#transfer-type\": \"weight\"},\n"
	"   \"OUT\": {\"type\": \"output\", \"var_id\": 2, \"size\": 4096},\n"
	"   \"SB\": {\"type\": \"state-buffer\", \"var_id\": 3},\n"
	"   \"#comment\": \"not a tensor\"},\n"
	" \"dma_queue\": {\"IN_QUE\": {\"type\": \"in\"},\n"
	"   \"q_pe_in_w\": {\"type\": \"data\", \"owner\": \"pe\", \"num_queues\": 16},\n"
	"   \"q_act_out\": {\"type\": \"out\", \"owner\": \"act\", \"num_queues\": 2, \"axi_port\": 1,"
	" \"dram_channel\": 0},\n"
	"   \"q_dyn\": {\"type\": \"dynamic\"}, \"q_emb\": {\"type\": \"embedding_update\"},"
	" \"q_new\": {\"type\": \"teleport\"}, \"#c\": 1},\n"
	" \"pe\": \"PE0.json\", \"pe_instr\": \"PE0.bin\", \"act\": \"Activation0.json\","
	" \"act_instr\": \"Activation0.bin\",\n"
	" \"dve\": \"DVE0.json\", \"dve_instr\": \"DVE0.bin\", \"pool\": \"Pool0.json\", \"pool_instr\": \"Pool0.bin\",\n"
	" \"sp\": \"SP0.json\", \"sp_instr\": \"SP0.bin\"}";

/* Old style: no var_id, no dma_queue, one engine, "name": "definition". */
static const char def1_json[] =
	"{\"name\": \"definition\", \"var\": {\"W1\": {\"type\": \"file\", \"size\": 100, \"file_name\": \"w1.npy\"},"
	" \"IN\": {\"type\": \"input\", \"size\": 1000, \"#x\": [1]}}, \"pe_instr\": \"pe.bin\"}";

static const char neff_json[] = "{\"nodes\":[{\"op\":\"null\",\"name\":\"IN\",\"inputs\":[]}],\"arg_nodes\":[0],"
				"\"heads\":[[0,0,0]],\"attrs\":{\"dltype\":[\"list_str\",[\"bfloat16\"]]}}";
static const char hlo_json[] = "{\"model_flops\": 123456789, \"other\": [1, 2]}";
static const char engine_json[] = "{\"dma\": []}";

static uint8_t pe0[3 * 64], act0[2 * 64], pool0[64], sp0[64], pe1[64];
static uint8_t weights[65536];

static const fx_member std_members[] = {
	{"info.json", "{\"x\": 1}", 0},
	{"kelf-0.json", kelf_json, 0},
	{"neff.json", neff_json, 0},
	{"hlo_stats.json", hlo_json, 0},
	{"kernel_debug_info.json", "{\"kernels\": {}}", 0},
	{"debug_info/hlo.dbg", "\x08\x01\x12\x00", 4},
	{"sg00/def.json", def0_json, 0},
	{"sg00/w0.npy", weights, sizeof(weights)},
	{"sg00/PE0.json", engine_json, 0},
	{"sg00/PE0.bin", pe0, sizeof(pe0)},
	{"sg00/Activation0.json", engine_json, 0},
	{"sg00/Activation0.bin", act0, sizeof(act0)},
	{"sg00/DVE0.json", engine_json, 0},
	{"sg00/DVE0.bin", "", 0},
	{"sg00/Pool0.json", engine_json, 0},
	{"sg00/Pool0.bin", pool0, sizeof(pool0)},
	{"sg00/SP0.json", engine_json, 0},
	{"sg00/SP0.bin", sp0, sizeof(sp0)},
	{"sg01/pe.bin", pe1, sizeof(pe1)},
	{"sg01/def.json", def1_json, 0},
};

size_t fx_std_members(const fx_member **out)
{
	/* PE: LDWEIGHTS, MATMUL (128 rows x 64 cols x 512), transposing MATMUL. */
	fx_instr(pe0, 0x01, 128, 0, 0, 0);
	fx_instr(pe0 + 64, 0x02, 128, 64, 0, 0);
	fx_instr(pe0 + 128, 0x02, 128, 128, 0x2, 0);
	/* ACT: ACTIVATE relu, NOP. */
	fx_instr(act0, 0x21, 128, 0, 0x4, 1);
	fx_instr(act0 + 64, 0xA4, 0, 0, 0, 0);
	/* POOL: an opcode the table does not know. */
	fx_instr(pool0, 0x77, 1, 0, 0, 0);
	/* SP: EVENT_SEMAPHORE that waits $S[15]>=1 and increments $S[15]. */
	fx_instr(sp0, 0xA0, 1, 0, 0, 0);
	sp0[4] = 1;
	sp0[5] = 15;
	sp0[6] = 1;
	sp0[7] = 15;
	sp0[8] = 1;
	fx_instr(pe1, 0x02, 64, 32, 0, 0);
	for (size_t i = 0; i < sizeof(weights); i++)
		weights[i] = (uint8_t)(i * 2654435761u >> 13);
	*out = std_members;
	return sizeof(std_members) / sizeof(std_members[0]);
}
