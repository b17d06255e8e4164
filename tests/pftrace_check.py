#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Independent verifier of libnxp's timeline files.

Perfetto traces are decoded here by hand from the protobuf wire format, using
only the field numbers of Perfetto's public protos (protos/perfetto/trace/ in
the Perfetto repository) -- not libnxp's trimmed .proto, not protobuf-c -- and
checked against the profile's own tables as `nxp dump --format jsonl` prints
them:
  - every packet decodes; every event's track was declared before it; every
    parent track exists; counters sit on counter tracks, slices on the others;
  - names resolve through the interning of their own sequence (the sequence's
    incremental state was cleared, the packet says it needs it);
  - timestamps resolve through the packet's clock (TracePacket.timestamp_clock_id,
    else the sequence's TracePacketDefaults.timestamp_clock_id, else the trace
    clock): a sequence-scoped clock (64..127) must have been defined by a
    ClockSnapshot on that sequence, next to BOOTTIME; an incremental one adds
    each packet's value to the last one (clock_snapshot.proto); every packet
    after TracePacketDefaults says SEQ_NEEDS_INCREMENTAL_STATE;
  - per track, sorting the events by time (stably, as trace_processor does)
    pairs every slice end with the begin the writer meant (no improper nesting);
  - each instruction exactly once, on its engine's track (or a lane of it) under
    its pcore, named by its opcode, with its start and duration;
  - each DMA packet once under its queue's tracks with its start and duration;
  - each semaphore update as one counter value on its semaphore's track;
  - flows (TrackEvent.flow_ids 47 / terminating_flow_ids 48): every id starts
    on exactly one slice and terminates on exactly one, later in the order
    trace_processor reads them (time, then file order), both on instruction or
    DMA slices (an id on a slice end belongs to the slice it closes), the
    terminating one an instruction (the semaphore wait); --expect-flows: the
    trace must have some.
Chrome JSON: loads with `json`; one X event per instruction and DMA packet with
the same names, starts and durations; ts/dur written with the sub-us part.

usage: pftrace_check.py --cli NXP --neff N --ntff T [--pftrace F] [--chrome F]
                        [--subset] [--truncated] [--expect-flows]
  --subset:    the trace may hold fewer records than the tables (max events,
               damaged input), never other ones, never twice
  --truncated: the trace must say it was stopped (a note on the "notes" track)
"""
import argparse
import os
import collections
import decimal
import gzip
import json
import re
import struct
import subprocess
import sys

FAILS = []
STATS = {}  # read_perfetto: events on their sequence's default track, sequences


def fail(msg):
    FAILS.append(msg)
    if len(FAILS) <= 20:
        print("FAIL: " + msg, file=sys.stderr)


# ---- protobuf wire format ----

class WireError(Exception):
    pass


def varint(b, i):
    shift = 0
    v = 0
    while True:
        if i >= len(b):
            raise WireError("truncated varint")
        c = b[i]
        i += 1
        v |= (c & 0x7F) << shift
        if not c & 0x80:
            return v, i
        shift += 7
        if shift > 63:
            raise WireError("varint too long")


def fields(b):
    """Yield (field number, wire type, value) of one message."""
    i = 0
    while i < len(b):
        key, i = varint(b, i)
        num, wt = key >> 3, key & 7
        if num == 0:
            raise WireError("field number 0")
        if wt == 0:
            v, i = varint(b, i)
        elif wt == 1:
            if i + 8 > len(b):
                raise WireError("truncated fixed64")
            v = b[i:i + 8]
            i += 8
        elif wt == 2:
            n, i = varint(b, i)
            if i + n > len(b):
                raise WireError("truncated length-delimited field %d" % num)
            v = b[i:i + n]
            i += n
        elif wt == 5:
            if i + 4 > len(b):
                raise WireError("truncated fixed32")
            v = b[i:i + 4]
            i += 4
        else:
            raise WireError("wire type %d" % wt)
        yield num, wt, v


def sint64(v):
    return v - (1 << 64) if v >= 1 << 63 else v


# Upstream field numbers (protos/perfetto/trace/...)
TP_TIMESTAMP, TP_SEQ_ID, TP_TRACK_EVENT, TP_INTERNED, TP_FLAGS, TP_TRACK_DESC = 8, 10, 11, 12, 13, 60
TP_CLOCK_SNAPSHOT, TP_CLOCK_ID, TP_DEFAULTS = 6, 58, 59
TP_COMPRESSED = 50  # bytes: zlib-deflated concatenated Trace.packet fields
COMPRESSED_MAX = 512 * 1024  # upstream: each compressed_packets packet "should be less than 512KB"
DEF_CLOCK_ID = 58                       # TracePacketDefaults.timestamp_clock_id
DEF_TRACK_EVENT, TED_TRACK = 11, 11     # TracePacketDefaults.track_event_defaults, TrackEventDefaults.track_uuid
CS_CLOCKS, CS_PRIMARY = 1, 2            # ClockSnapshot
CK_ID, CK_TS, CK_INCREMENTAL, CK_UNIT = 1, 2, 3, 4  # ClockSnapshot.Clock
BOOTTIME = 6
SEQ_CLEARED, SEQ_NEEDS = 1, 2
ID_EVENT_NAMES, ID_ANNOT_NAMES, ID_ANNOT_STRINGS = 2, 3, 29
TD_UUID, TD_NAME, TD_PROCESS, TD_PARENT, TD_COUNTER = 1, 2, 3, 5, 8
PD_PID, PD_NAME = 1, 6
TE_ANNOT, TE_TYPE, TE_NAME_IID, TE_TRACK, TE_NAME, TE_COUNTER, TE_DCOUNTER, TE_FLOWS = 4, 9, 10, 11, 23, 30, 44, 47
TE_TERM_FLOWS = 48
TYPE_BEGIN, TYPE_END, TYPE_INSTANT, TYPE_COUNTER = 1, 2, 3, 4
DA_NAME_IID, DA_BOOL, DA_UINT, DA_INT, DA_DOUBLE, DA_STRING, DA_NAME, DA_STRING_IID = 1, 2, 3, 4, 5, 6, 10, 17


class Track:
    def __init__(self, uuid):
        self.uuid = uuid
        self.parent = 0
        self.name = None
        self.pid = None
        self.is_process = False
        self.is_counter = False


def trace_packets(data):
    """The Trace's packet fields (1) in order, with those inside
    TracePacket.compressed_packets (50) bundles inflated in place (zlib,
    as trace_processor's tokenizer does); yields (1, 2, packet bytes)."""
    import zlib
    for num, wt, pkt in fields(data):
        if num != 1 or wt != 2:
            yield num, wt, pkt
            continue
        inner = [v for n, w, v in fields(pkt) if n == TP_COMPRESSED and w == 2]
        if not inner:
            yield num, wt, pkt
            continue
        if len(list(fields(pkt))) != 1 or len(pkt) + 4 >= COMPRESSED_MAX:
            fail("compressed_packets bundle with other fields or over 512 KB (%d bytes)" % len(pkt))
        try:
            raw = zlib.decompress(inner[0])
        except zlib.error as e:
            raise WireError("compressed_packets does not inflate: %s" % e)
        for n, w, v in fields(raw):
            if n != 1 or w != 2:
                raise WireError("compressed_packets holds field %d (want packet = 1)" % n)
            yield n, w, v


def read_perfetto(path):
    data = open(path, "rb").read()
    tracks = {}
    seqs = {}  # seq id -> {"names":{}, "annots":{}, "strings":{}, "default_clock"} once cleared
    clocks = {}  # (seq id, clock id) -> {"inc", "unit", "snap", "boot", "last"} (sequence-scoped clocks)
    with_defaults = set()  # sequences that have TracePacketDefaults
    default_track_events = [0]  # events on their sequence's default track
    redundant_track = [0]  # events naming the track their sequence's default names
    events = []  # dicts in file order
    for num, wt, pkt in trace_packets(data):
        if num != 1 or wt != 2:
            raise WireError("Trace field %d (want packet = 1)" % num)
        ts = None
        seq = None
        flags = 0
        clock_id = None
        te = td = interned = snapshot = defaults = None
        for n, w, v in fields(pkt):
            if n == TP_TIMESTAMP and w == 0:
                ts = v
            elif n == TP_SEQ_ID and w == 0:
                seq = v
            elif n == TP_FLAGS and w == 0:
                flags = v
            elif n == TP_TRACK_EVENT and w == 2:
                te = v
            elif n == TP_TRACK_DESC and w == 2:
                td = v
            elif n == TP_INTERNED and w == 2:
                interned = v
            elif n == TP_CLOCK_SNAPSHOT and w == 2:
                snapshot = v
            elif n == TP_CLOCK_ID and w == 0:
                clock_id = v
            elif n == TP_DEFAULTS and w == 2:
                defaults = v
        if seq is None:
            fail("packet without trusted_packet_sequence_id")
            seq = 0
        if seq in with_defaults and not flags & SEQ_NEEDS and not flags & SEQ_CLEARED:
            fail("packet after TracePacketDefaults without SEQ_NEEDS_INCREMENTAL_STATE")
        if flags & SEQ_CLEARED:
            seqs[seq] = {"names": {}, "annots": {}, "strings": {}, "default_clock": None,
                         "default_track": None}
            with_defaults.discard(seq)
        state = seqs.get(seq)
        if defaults is not None:
            if state is None:
                fail("TracePacketDefaults on sequence %d before its incremental state was cleared" % seq)
            else:
                with_defaults.add(seq)
                for n, w, v in fields(defaults):
                    if n == DEF_CLOCK_ID and w == 0:
                        state["default_clock"] = v
                    elif n == DEF_TRACK_EVENT and w == 2:
                        # trace_processor (track_event_event_importer.h): an
                        # event without track_uuid is on this track
                        for a, aw, b in fields(v):
                            if a == TED_TRACK and aw == 0:
                                if not b:
                                    fail("TrackEventDefaults.track_uuid 0 on sequence %d" % seq)
                                state["default_track"] = b
        if snapshot is not None:
            snap = {}
            for n, w, v in fields(snapshot):
                if n == CS_CLOCKS and w == 2:
                    c = {CK_ID: None, CK_TS: 0, CK_INCREMENTAL: 0, CK_UNIT: 1}
                    for a, aw, b in fields(v):
                        if aw == 0:
                            c[a] = b
                    snap[c[CK_ID]] = c
                elif n == CS_PRIMARY and w == 0 and v != BOOTTIME:
                    fail("primary_trace_clock %d (this checker resolves BOOTTIME only)" % v)
            boot = snap.get(BOOTTIME)
            for cid, c in snap.items():
                if cid is None or not 64 <= cid < 128:
                    continue
                if boot is None:
                    fail("ClockSnapshot defines clock %d without BOOTTIME to resolve it" % cid)
                    continue
                clocks[(seq, cid)] = {"inc": bool(c[CK_INCREMENTAL]), "unit": c[CK_UNIT] or 1,
                                      "snap": c[CK_TS], "boot": boot[CK_TS], "last": c[CK_TS]}
        if ts is not None:
            cid = clock_id if clock_id is not None else (state["default_clock"] if state else None)
            if cid is None or cid == BOOTTIME:
                pass
            elif 64 <= cid < 128:
                ck = clocks.get((seq, cid))
                if ck is None:
                    fail("timestamp on clock %d of sequence %d before a ClockSnapshot defined it" % (cid, seq))
                else:
                    if ck["inc"]:
                        ck["last"] += ts
                        value = ck["last"]
                    else:
                        value = ts
                    ts = ck["boot"] + (value - ck["snap"]) * ck["unit"]
            else:
                fail("timestamp on clock %d (not BOOTTIME, not sequence-scoped)" % cid)
        if interned is not None:
            if state is None:
                fail("interned data on sequence %d before its incremental state was cleared" % seq)
                state = seqs[seq] = {"names": {}, "annots": {}, "strings": {}, "default_clock": None,
                                     "default_track": None}
            for n, w, v in fields(interned):
                key = {ID_EVENT_NAMES: "names", ID_ANNOT_NAMES: "annots", ID_ANNOT_STRINGS: "strings"}.get(n)
                if key is None:
                    continue
                iid = name = None
                for a, _, b in fields(v):
                    if a == 1:
                        iid = b
                    elif a == 2:
                        name = b.decode("utf-8", "replace")
                if not iid or name is None:
                    fail("interned entry without iid or string")
                state[key][iid] = name
        if td is not None:
            t = None
            for n, w, v in fields(td):
                if n == TD_UUID:
                    t = tracks.setdefault(v, Track(v))
            if t is None:
                fail("track descriptor without uuid")
                continue
            for n, w, v in fields(td):
                if n == TD_PARENT:
                    t.parent = v
                elif n == TD_NAME:
                    t.name = v.decode()
                elif n == TD_COUNTER:
                    t.is_counter = True
                elif n == TD_PROCESS:
                    t.is_process = True
                    for a, _, b in fields(v):
                        if a == PD_PID:
                            t.pid = b
                        elif a == PD_NAME:
                            t.name = b.decode()
        if te is not None:
            ev = {"ts": ts, "type": None, "track": None, "name": None, "args": {}, "flows": [], "term": []}
            uses_iid = False
            for n, w, v in fields(te):
                if n == TE_TYPE:
                    ev["type"] = v
                elif n == TE_TRACK:
                    ev["track"] = v
                elif n == TE_NAME:
                    ev["name"] = v.decode()
                elif n == TE_NAME_IID:
                    uses_iid = True
                    if state is None or v not in state["names"]:
                        fail("event name iid %d not interned on sequence %d" % (v, seq))
                    else:
                        ev["name"] = state["names"][v]
                elif n == TE_COUNTER:
                    ev["value"] = sint64(v)
                elif n == TE_DCOUNTER:
                    ev["value"] = struct.unpack("<d", v)[0]
                elif n == TE_FLOWS:
                    ev["flows"].append(struct.unpack("<Q", v)[0] if w == 1 else v)
                elif n == TE_TERM_FLOWS:
                    ev["term"].append(struct.unpack("<Q", v)[0] if w == 1 else v)
                elif n == TE_ANNOT:
                    aname = aval = None
                    for a, aw, b in fields(v):
                        if a == DA_NAME_IID:
                            uses_iid = True
                            aname = state["annots"].get(b) if state else None
                            if aname is None:
                                fail("annotation name iid %d not interned" % b)
                        elif a == DA_NAME:
                            aname = b.decode()
                        elif a in (DA_INT,):
                            aval = sint64(b)
                        elif a in (DA_UINT, DA_BOOL):
                            aval = b
                        elif a == DA_DOUBLE:
                            aval = struct.unpack("<d", b)[0]
                        elif a == DA_STRING:
                            aval = b.decode("utf-8", "replace")
                        elif a == DA_STRING_IID:
                            uses_iid = True
                            aval = state["strings"].get(b) if state else None
                            if aval is None:
                                fail("annotation string iid %d not interned" % b)
                    ev["args"][aname] = aval
            if ev["track"] is None:
                # no track_uuid: the sequence's TrackEventDefaults.track_uuid,
                # which the packet must say it needs
                ev["track"] = state.get("default_track") if state else None
                if ev["track"] is None:
                    fail("track event without track_uuid on sequence %d, which has no default track" % seq)
                elif not flags & SEQ_NEEDS:
                    fail("event on the default track without SEQ_NEEDS_INCREMENTAL_STATE")
                else:
                    default_track_events[0] += 1
            elif state and state.get("default_track") == ev["track"]:
                redundant_track[0] += 1
            if uses_iid and not flags & SEQ_NEEDS:
                fail("packet uses interned data without SEQ_NEEDS_INCREMENTAL_STATE")
            if ev["track"] not in tracks:
                fail("event on track %s declared nowhere before it" % ev["track"])
            if ts is None:
                fail("track event without timestamp")
            events.append(ev)
    if redundant_track[0]:
        # libnxp omits track_uuid where the sequence's default names the track
        fail("%d events name the track their sequence's TrackEventDefaults already names" % redundant_track[0])
    STATS["default_track_events"] = default_track_events[0]
    STATS["sequences"] = len(seqs)
    return tracks, events


def process_of(tracks, t):
    seen = 0
    while t is not None and not t.is_process:
        t = tracks.get(t.parent)
        seen += 1
        if seen > 64:
            return None
    return t


def pcore_of(tracks, t):
    p = process_of(tracks, t)
    if p is None or p.name is None:
        return None
    m = re.search(r"pcore (-?\d+)", p.name)
    return int(m.group(1)) if m else None


def base_name(tracks, t):
    """Name of the slice track a lane belongs to (a lane is '<parent> lane k')."""
    par = tracks.get(t.parent)
    if par is not None and not par.is_process and t.name and par.name and \
            re.fullmatch(re.escape(par.name) + r" lane \d+", t.name):
        return par.name
    return t.name


def structure(tracks, events):
    """Tracks and parents exist, counters on counter tracks, slices pair and nest
    properly per track as trace_processor pairs them.  Returns (begin event, dur)."""
    for t in tracks.values():
        if t.parent and t.parent not in tracks:
            fail("track %r has a parent %d that does not exist" % (t.name, t.parent))
        if t.is_process and t.pid is None:
            fail("process track without pid")
    # Pairing per track, as trace_processor does it: stable sort by time.
    per_track = collections.defaultdict(list)
    slices = []
    for idx, ev in enumerate(events):
        tr = tracks.get(ev["track"])
        if tr is None:
            continue
        if ev["type"] == TYPE_COUNTER:
            if not tr.is_counter:
                fail("counter value on non-counter track %r" % tr.name)
            if "value" not in ev:
                fail("counter event without value")
            continue
        if tr.is_counter:
            fail("slice or instant on counter track %r" % tr.name)
        if ev["type"] in (TYPE_BEGIN, TYPE_END):
            per_track[ev["track"]].append((ev["ts"], idx))
    for uuid, lst in per_track.items():
        intended = {}
        open_b = []
        for ts, idx in lst:  # file order: the writer's pairing (an end closes the last open begin)
            if events[idx]["type"] == TYPE_BEGIN:
                open_b.append(idx)
            else:
                intended[idx] = open_b.pop() if open_b else None
        stack = []
        for ts, idx in sorted(lst, key=lambda x: x[0]):  # stable
            if events[idx]["type"] == TYPE_BEGIN:
                stack.append(idx)
            else:
                if not stack:
                    fail("slice end without begin on track %r" % tracks[uuid].name)
                    continue
                b = stack.pop()
                if b != intended[idx]:
                    fail("improper nesting on track %r at %d" % (tracks[uuid].name, ts))
                    continue
                events[idx]["begin"] = b
                events[b]["end_ts"] = ts
                slices.append((events[b], ts - events[b]["ts"]))
        if stack:
            fail("%d slices left open on track %r" % (len(stack), tracks[uuid].name))
    return slices


def check_flows(tracks, events, engines, queues, subset, expect):
    """Flow ids: one start, one end (a cut trace may lack ends), the start read
    first as trace_processor reads them (time, then file order), both ends on
    instruction or DMA slices, the end on an instruction.  Returns the number of
    flows."""
    starts, ends = {}, {}
    for idx, ev in enumerate(events):
        for key, ids in (("start", ev["flows"]), ("end", ev["term"])):
            if not ids:
                continue
            if ev["type"] not in (TYPE_BEGIN, TYPE_END, TYPE_INSTANT):
                fail("flow ids on a packet of type %s (not a slice)" % ev["type"])
                continue
            sl = events[ev["begin"]] if ev["type"] == TYPE_END and "begin" in ev else ev
            if ev["type"] == TYPE_END and "begin" not in ev:
                fail("flow ids on a slice end that closes nothing")
                continue
            tr = tracks.get(sl["track"])
            bn = base_name(tracks, tr) if tr else None
            if bn not in engines and bn not in queues:
                fail("flow on a slice of track %r (not an engine or DMA queue)" % (tr.name if tr else None))
            if key == "end" and bn not in engines:
                fail("flow ends on %r, not on an instruction" % bn)
            target = starts if key == "start" else ends
            for fid in ids:
                if fid in target:
                    fail("flow id %d %ss twice" % (fid, key))
                target[fid] = ((ev["ts"], idx), sl)
    for fid, (pos, sl) in ends.items():
        if fid not in starts:
            if not subset:  # a cut trace may have lost the start's slice
                fail("flow id %d ends but never starts" % fid)
        elif starts[fid][0] >= pos:
            fail("flow id %d ends (at %d) before trace_processor reads its start (at %d)" % (fid, pos[0], starts[fid][0][0]))
    if not subset:
        for fid in starts:
            if fid not in ends:
                fail("flow id %d starts but never ends" % fid)
    if expect and not ends:
        fail("no flows in the trace (--expect-flows)")
    return len(ends)


def check_perfetto(path, tables, subset, truncated, expect_flows=False):
    tracks, events = read_perfetto(path)
    slices = structure(tracks, events)

    def multiset_cmp(what, want, got):
        if subset:
            extra = got - want
            dup = [k for k, n in got.items() if n > 1 and want.get(k, 0) < n]
            if extra:
                fail("%s: %d in the trace that the table does not have, e.g. %r" % (what, sum(extra.values()), next(iter(extra))))
            if dup:
                fail("%s: twice in the trace: %r" % (what, dup[0]))
        elif want != got:
            miss, extra = want - got, got - want
            fail("%s: %d missing (e.g. %r), %d unexpected (e.g. %r)" % (what, sum(miss.values()), next(iter(miss), None),
                                                                       sum(extra.values()), next(iter(extra), None)))

    engines = {r["engine"] for r in tables["instruction"]}
    queues = {r["queue_name"] or "dma" for r in tables["dma"]}
    want_i = collections.Counter((r["pcore_idx"], r["engine"], r["start_ts"], r["duration_ns"], r["opcode"])
                                 for r in tables["instruction"])
    want_d = collections.Counter((r["pcore_idx"], r["queue_name"] or "dma", r["start_ts"], r["duration_ns"],
                                  r["variable"] or r["queue_name"] or "dma") for r in tables["dma"])
    # bytes and throughput (whole MB/s) of each packet, by its slice's key
    want_bt = collections.defaultdict(list)
    for r in tables["dma"]:
        want_bt[(r["pcore_idx"], r["queue_name"] or "dma", r["start_ts"], r["duration_ns"],
                 r["variable"] or r["queue_name"] or "dma")].append((r["transfer_bytes"], r["throughput"]))
    got_i, got_d = collections.Counter(), collections.Counter()
    for b, dur in slices:
        tr = tracks[b["track"]]
        bn = base_name(tracks, tr)
        key = (pcore_of(tracks, tr), bn, b["ts"], dur, b["name"])
        if bn in engines:
            got_i[key] += 1
            if "pc" not in b["args"] or "operands" not in b["args"]:
                fail("instruction slice without pc/operands arguments")
        elif bn in queues:
            got_d[key] += 1
            a = b["args"]
            if "bytes" not in a or "throughput_mbps" not in a:
                fail("DMA slice without bytes/throughput_mbps arguments")
            elif want_bt.get(key) and not any(a["bytes"] == n and abs(a["throughput_mbps"] - t / 1e6) <= 0.5 + 1e-6
                                              for n, t in want_bt[key]):
                fail("DMA slice %r: bytes %r, throughput_mbps %r; the table has %r" % (key, a["bytes"],
                                                                                     a["throughput_mbps"], want_bt[key]))
    multiset_cmp("instructions", want_i, got_i)
    multiset_cmp("DMA packets", want_d, got_d)
    want_s = collections.Counter((r["pcore_idx"], r["id"], r["timestamp"], r["value"]) for r in tables["semaphore"])
    got_s = collections.Counter()
    for ev in events:
        tr = tracks.get(ev["track"])
        if ev["type"] != TYPE_COUNTER or tr is None:
            continue
        par = tracks.get(tr.parent)
        if par is not None and par.name == "semaphores":
            got_s[(pcore_of(tracks, tr), tr.name, ev["ts"], int(ev["value"]))] += 1
    multiset_cmp("semaphore updates", want_s, got_s)
    nflows = check_flows(tracks, events, engines, queues, subset, expect_flows)
    notes = [ev for ev in events if tracks.get(ev["track"]) and tracks[ev["track"]].name == "notes"]
    if truncated and not any("max events" in (ev["name"] or "") for ev in notes):
        fail("truncated trace without a 'max events' note")
    if not subset and not truncated and notes:
        fail("unexpected notes: %r" % [ev["name"] for ev in notes])
    print("%s: %d packets' events, %d tracks, %d instructions, %d DMA packets, %d semaphore values, %d flows checked"
          % (path, len(events), len(tracks), sum(got_i.values()), sum(got_d.values()), sum(got_s.values()), nflows))
    print("%s: %d sequences, %d events on their sequence's default track (TrackEventDefaults)"
          % (path, STATS.get("sequences", 0), STATS.get("default_track_events", 0)))


def check_chrome(path, tables, subset):
    raw = open(path, "rb").read()
    if path.endswith(".gz"):
        raw = gzip.decompress(raw)
    text = raw.decode("utf-8")
    doc = json.loads(text, parse_float=decimal.Decimal)
    evs = doc["traceEvents"]
    for m in re.finditer(r'"(ts|dur)":(-?\d+(\.\d+)?)', text):
        if not m.group(3) or len(m.group(3)) != 4:
            fail("%s %s not written with three decimals (ns)" % (m.group(1), m.group(2)))
            break
    pnames, tnames = {}, {}
    for e in evs:
        if e["ph"] == "M" and e["name"] == "process_name":
            pnames[e["pid"]] = e["args"]["name"]
        elif e["ph"] == "M" and e["name"] == "thread_name":
            tnames[(e["pid"], e["tid"])] = e["args"]["name"]
    engines = {r["engine"] for r in tables["instruction"]}
    queues = {r["queue_name"] or "dma" for r in tables["dma"]}

    def ns(x):
        v = x * 1000
        if v != v.to_integral_value():
            fail("time %s is not a whole number of ns" % x)
        return int(v)

    got_i, got_d = collections.Counter(), collections.Counter()
    for e in evs:
        if e["ph"] != "X":
            continue
        tn = tnames.get((e["pid"], e["tid"]))
        if tn is None:
            fail("X event on an unnamed thread")
            continue
        m = re.fullmatch(r"(.*) lane \d+", tn)
        bn = m.group(1) if m and (m.group(1) in engines or m.group(1) in queues) else tn
        pm = re.search(r"pcore (-?\d+)", pnames.get(e["pid"], ""))
        key = (int(pm.group(1)) if pm else None, bn, ns(e["ts"]), ns(e["dur"]), e["name"])
        if bn in engines:
            got_i[key] += 1
        elif bn in queues:
            got_d[key] += 1
    want_i = collections.Counter((r["pcore_idx"], r["engine"], r["start_ts"], r["duration_ns"], r["opcode"])
                                 for r in tables["instruction"])
    want_d = collections.Counter((r["pcore_idx"], r["queue_name"] or "dma", r["start_ts"], r["duration_ns"],
                                  r["variable"] or r["queue_name"] or "dma") for r in tables["dma"])
    for what, want, got in (("chrome instructions", want_i, got_i), ("chrome DMA packets", want_d, got_d)):
        if subset:
            if got - want:
                fail("%s: events the table does not have" % what)
        elif want != got:
            fail("%s: %d missing, %d unexpected" % (what, sum((want - got).values()), sum((got - want).values())))
    print("%s: %d events, %d instruction and %d DMA X events checked" % (path, len(evs), sum(got_i.values()), sum(got_d.values())))


def check_system(path, cli, capdir):
    """--system: the system_profile.pftrace of a capture.  One slice per row of
    `nxp dump --system DIR` (same name, start and duration), every slice track
    under a process track, host CPU / memory counters when the capture has
    cpu_util.pb / host_mem.pb."""
    tracks, events = read_perfetto(path)
    slices = structure(tracks, events)
    p = subprocess.run([cli, "dump", "--system", capdir, "--format", "jsonl"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode:
        fail("nxp dump --system %s failed: %s" % (capdir, p.stderr.decode()))
    rows = [json.loads(l) for l in p.stdout.decode().splitlines() if l.strip()]
    instants = [ev for ev in events if ev["type"] == TYPE_INSTANT]
    counters = [ev for ev in events if ev["type"] == TYPE_COUNTER]
    if len(slices) != len(rows):
        fail("%d slices, %d system rows" % (len(slices), len(rows)))
    want = collections.Counter((r["name"], int(r["start_ts"]), max(0, int(r["end_ts"]) - int(r["start_ts"])))
                               for r in rows)
    got = collections.Counter((ev["name"], ev["ts"], dur) for ev, dur in slices)
    if want != got:
        fail("system slices differ from the rows: missing %s, extra %s" %
             (list((want - got).items())[:3], list((got - want).items())[:3]))
    for ev, _ in slices:
        t = tracks[ev["track"]]
        if t.is_process or process_of(tracks, t) is None:
            fail("system slice track %r is not under a process track" % t.name)
    files = set()
    for root, _, names in os.walk(capdir):
        files.update(names)
    ctracks = {t.name for t in tracks.values() if t.is_counter}
    if "cpu_util.pb" in files and not any(n and n.startswith("CPU ") for n in ctracks):
        fail("the capture has cpu_util.pb but no CPU counter track")
    if "host_mem.pb" in files and "host memory used bytes" not in ctracks:
        fail("the capture has host_mem.pb but no host memory counter track")
    if ctracks and not counters:
        fail("counter tracks without values")
    print("%s: %d slices (= %d system rows), %d instants, %d counter values on %d counter tracks, %d tracks" %
          (path, len(slices), len(rows), len(instants), len(counters), len(ctracks), len(tracks)))


def dump(cli, neff, ntff, table):
    p = subprocess.run([cli, "dump", neff, ntff, "--table", table, "--format", "jsonl"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    # A damaged trace: dump prints what the cursor returned, then fails.
    return [json.loads(l) for l in p.stdout.decode().splitlines() if l.strip()]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--neff")
    ap.add_argument("--ntff")
    ap.add_argument("--system", metavar="PFTRACE", help="check a capture's system_profile.pftrace")
    ap.add_argument("--capture", metavar="DIR", help="with --system: the capture directory")
    ap.add_argument("--pftrace")
    ap.add_argument("--chrome")
    ap.add_argument("--subset", action="store_true")
    ap.add_argument("--truncated", action="store_true")
    ap.add_argument("--expect-flows", action="store_true", help="the Perfetto trace must have flow arrows")
    a = ap.parse_args()
    if a.system:
        if not a.capture:
            ap.error("--system needs --capture DIR")
        try:
            check_system(a.system, a.cli, a.capture)
        except WireError as e:
            fail("malformed protobuf: %s" % e)
        if FAILS:
            print("%d failures" % len(FAILS), file=sys.stderr)
            return 1
        return 0
    if not a.neff or not a.ntff:
        ap.error("--neff and --ntff are needed")
    tables = {t: dump(a.cli, a.neff, a.ntff, t) for t in ("instruction", "dma", "semaphore")}
    try:
        if a.pftrace:
            check_perfetto(a.pftrace, tables, a.subset or a.truncated, a.truncated, a.expect_flows)
        if a.chrome:
            check_chrome(a.chrome, tables, a.subset or a.truncated)
    except WireError as e:
        fail("malformed protobuf: %s" % e)
    if FAILS:
        print("%d failures" % len(FAILS), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
