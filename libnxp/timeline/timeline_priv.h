/* SPDX-License-Identifier: MIT */
/* Internal: the timeline event sink.  The content of a timeline (which tracks,
 * which slices, which arguments) is decided once, in device_timeline.c; a sink
 * only encodes it (perfetto_sink.c: Perfetto protobuf packets; chrome_json_sink.c:
 * Chrome trace-event JSON).  Events are handed over one at a time and written at
 * once, so a sink holds no per-event state beyond its interning tables. */
#ifndef NXP_TIMELINE_PRIV_H
#define NXP_TIMELINE_PRIV_H

#include "nxp/nxp.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Kinds of track. */
enum tl_track_kind {
	TL_TRACK_PROCESS = 0, /* a group: one per physical core (pid) */
	TL_TRACK_SLICE = 1,   /* slices and instants */
	TL_TRACK_COUNTER = 2, /* counter values */
};

typedef struct tl_track {
	uint64_t uuid;        /* unique in the file, never 0 */
	uint64_t parent_uuid; /* 0 = top level */
	int kind;             /* tl_track_kind */
	const char *name;
	int32_t pid;          /* the process group it belongs to (Chrome JSON pid) */
	int32_t tid;          /* Chrome JSON tid of a slice track (unique per pid) */
	int32_t rank;         /* order among its siblings */
	const char *unit;     /* counters: unit name, or NULL */
} tl_track;

enum tl_arg_type { TL_ARG_INT = 0, TL_ARG_DOUBLE = 1, TL_ARG_STRING = 2 };

typedef struct tl_arg {
	const char *name;
	int type; /* tl_arg_type */
	int64_t i;
	double d;
	const char *s;
} tl_arg;

/* One slice, instant or the begin of a flow.  flow_ids: arrows that leave
 * (flow_out) or end (flow_in) at this slice; a flow id is unique in the file. */
typedef struct tl_event {
	uint64_t track;
	int64_t ts, dur;      /* ns; dur < 0 for an instant */
	const char *name;
	const tl_arg *args;
	size_t nargs;
	const uint64_t *flow_out;
	size_t nflow_out;
	const uint64_t *flow_in;
	size_t nflow_in;
} tl_event;

typedef struct tl_sink tl_sink;
struct tl_sink {
	/* Declare a track (before any event on it).  0 or a negative nxp_error. */
	int (*track)(tl_sink *s, const tl_track *t);
	/* A slice (dur >= 0) or an instant (dur < 0). */
	int (*event)(tl_sink *s, const tl_event *e);
	/* A counter value. */
	int (*counter)(tl_sink *s, uint64_t track, int64_t ts, double value);
	/* Attach flow `id` to the slice still open on `track` (the most recent one
	 * whose end is not written yet): it leaves that slice (terminating = 0) or
	 * ends there (1).  Returns 1 when attached, 0 when the track has no open
	 * slice any more (nothing written), a negative nxp_error on failure.  NULL
	 * in a sink that cannot attach late. */
	int (*flow)(tl_sink *s, uint64_t track, uint64_t id, int terminating);
	/* Flush and close the output (after which *bytes is the file size). */
	int (*finish)(tl_sink *s, int64_t *bytes);
	/* Release (after finish, or on an error: closes whatever is open). */
	void (*destroy)(tl_sink *s);
	nxp_status *st;
	/* Set by the caller before event() (0 by default): nonzero = write the
	 * event's flow ids on its begin packet, whatever the sink prefers.
	 * trace_processor links flows in the time order of the packets that
	 * carry them; capture_timeline.c's flows go from a system row to a later
	 * one (or to a device execution) that may end before its source ends
	 * (nrt_execute around its execution), so their begins must carry them. */
	int flows_on_begin;
	/* Set by the caller before event(): nonzero when the event's name and
	 * every arg's name and string value stay valid and unchanged for the whole
	 * export (string literals, NEFF strings), so a sink may intern them by
	 * pointer without reading the text.  0 (the default) = no such promise. */
	int stable_strings;
	/* The last flow id taken: whoever writes flows into this sink takes the
	 * next one (++next_flow_id), so ids stay unique when several writers
	 * share one file. */
	uint64_t next_flow_id;
};

/* Open a sink writing to the open file descriptor `fd` (the sink owns it);
 * Perfetto with `deflate`: packets in compressed_packets bundles. */
int nxp__perfetto_sink_open(tl_sink **out, int fd, int deflate, nxp_status *st);
int nxp__chrome_json_sink_open(tl_sink **out, int fd, int gzip, nxp_status *st);

/* device_timeline.c: the content of a device profile into a sink the caller
 * owns (capture_timeline.c's combined file); stats are added to. */
int nxp__device_timeline_write(nxp_profile *p, tl_sink *sink, const nxp_timeline_options *o,
			       nxp_timeline_stats *stats, nxp_status *st);

/* flow_feed.c: a flow cursor over the whole profile whose edges come in the
 * cursor's order, read on a thread of its own when more than one CPU may be
 * used.  open: 0 or the cursor's error; next: as nxp_flow_cursor_next(). */
typedef struct tl_flow_feed tl_flow_feed;
int nxp__tl_flow_feed_open(tl_flow_feed **out, nxp_profile *p, nxp_status *st);
int nxp__tl_flow_feed_next(tl_flow_feed *f, nxp_flow *e);
void nxp__tl_flow_feed_close(tl_flow_feed *f);

/* Small open-addressing interning table: string -> id (1, 2, ...). */
typedef struct tl_intern {
	char **keys;
	uint64_t *hashes;
	uint64_t *ids;
	size_t cap, count;
	uint64_t next_id;
	size_t max; /* most entries kept; past it lookups report 0 (caller writes inline) */
	/* Front cache by the caller's pointer (verified by content, so a reused
	 * buffer is safe): most lookups are the same few static strings. */
	struct { const char *ptr; const char *key; uint64_t id; } front[256];
	/* nxp__tl_intern_stable(): a direct-mapped front by pointer, then
	 * pointer -> id (open addressing, 0 = empty) */
	struct { const char *ptr; uint64_t id; } sfront[128];
	const char **sptr;
	uint64_t *sid;
	size_t scap, scount;
} tl_intern;

void nxp__tl_intern_init(tl_intern *t, size_t max);
void nxp__tl_intern_free(tl_intern *t);
/* The id of `s`: *fresh = 1 when it was just added (the caller emits its
 * definition), 0 when known.  Returns 0 when the table is full (write the
 * string inline) or on allocation failure. */
uint64_t nxp__tl_intern(tl_intern *t, const char *s, int *fresh);
/* As nxp__tl_intern() for a string whose pointer stays valid and unchanged for
 * the table's life: known pointers are found without reading the text. */
uint64_t nxp__tl_intern_stable(tl_intern *t, const char *s, int *fresh);
uint64_t nxp__tl_hash(const void *p, size_t n, uint64_t h);

#define TL_FNV_OFFSET 0xcbf29ce484222325ull

/* Open-addressing tables of the timeline (the sink's sequences, strings and
 * open slots, the device timeline's track states, the capture's flow ids):
 * each element begins with its nonzero 64-bit key (0 = empty slot), the
 * capacity is a power of two, at most half full, probed linearly from
 * bits of key * 0x9e3779b97f4a7c15 (`shift`: which bits; each table keeps
 * its own, so it keeps its layout and the order its users walk it in). */
static inline uint64_t nxp__tl_oa_key(const void *e)
{
	uint64_t k;
	memcpy(&k, e, sizeof(k));
	return k;
}

/* The index of `key` in tab, or of the empty slot where it would go. */
static inline size_t nxp__tl_oa_slot(const void *tab, size_t cap, size_t esz, uint64_t key, unsigned shift)
{
	const unsigned char *t = tab;
	size_t j = (size_t)(key * 0x9e3779b97f4a7c15ull >> shift) & (cap - 1);
	uint64_t k;
	while ((k = nxp__tl_oa_key(t + j * esz)) && k != key)
		j = (j + 1) & (cap - 1);
	return j;
}

/* Room for one more element of n (capacity `first` the first time, doubled
 * and rehashed after; the elements move): 0, or -1 when out of memory (the
 * table unchanged). */
int nxp__tl_oa_reserve(void **tab, size_t *cap, size_t n, size_t esz, size_t first, unsigned shift);

#endif
