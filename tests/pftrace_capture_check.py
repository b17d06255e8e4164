#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Independent verifier of `nxp export --capture DIR --format perfetto -o OUT`.

Decoding is tests/pftrace_check.py's (the protobuf wire format by hand, with
Perfetto's upstream field numbers); flows are read here from the same bytes:
TrackEvent.flow_ids (47, fixed64) and terminating_flow_ids (48, fixed64), as
protos/perfetto/trace/track_event/track_event.proto numbers them.  Expected
content comes from the CLI's own row dumps (`nxp dump --system DIR`, `nxp dump
NEFF NTFF --table ...`), and the clock mapping is recomputed here from the
timestamp_sync_point rows (host = cpu_timestamp_ns + (t - nc_timestamp_ns),
with the first sync point of the core at or after t), not taken from libnxp.

Checks:
  - OUT holds device_profile_<NTFF name>.pftrace per device profile,
    system_profile.pftrace, and with --combined combined_profile.pftrace;
  - system rows: one slice per row, under the process track named by the
    primary group fields and the track named by the secondary ones (the naming
    rule of doc/timeline.md, recomputed here for --primary / --secondary);
  - flows: every flow id is on at least two events, ends (48) exactly once on
    the last of them and is carried (47) by the others; the events of each id
    are exactly the rows that share that flow_id;
  - combined: the system part as above; every device track sits under a
    "NeuronCore <n> pcore <p>" group; each profile's instructions are there
    once, at host time = the recomputed clock mapping of their device start;
    every nrt_execute that launched a device execution begins a flow that
    ends on that execution's slice; the execution slice and every instruction
    of that execution lie inside the nrt_execute's host span.

usage: pftrace_capture_check.py --cli NXP --capture DIR --out OUT
           [--primary F,...] [--secondary F,...] [--combined]
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pftrace_check as pc  # noqa: E402

FAILS = []


def fail(msg):
    FAILS.append(msg)
    if len(FAILS) <= 25:
        print("FAIL: " + msg, file=sys.stderr)


TE_FLOW_IDS, TE_TERMINATING = 47, 48
TP_CLOCK_SNAPSHOT, TP_CLOCK_ID, TP_DEFAULTS = 6, 58, 59
BOOTTIME = 6


def read_extra(path):
    """Per track event (file order, as pc.read_perfetto lists them): its absolute
    time and its (flow_ids, terminating_flow_ids).  Times follow the upstream
    clock rules: TracePacket.timestamp_clock_id (58), else the sequence's
    TracePacketDefaults.timestamp_clock_id (59.58), else BOOTTIME; a clock of a
    ClockSnapshot (6) marked is_incremental takes deltas; a snapshot clock maps
    to BOOTTIME through the snapshot's readings."""
    data = open(path, "rb").read()
    out = []
    seqs = {}
    for num, wt, pkt in pc.trace_packets(data):
        ts = cid = seq = te = snap = defaults = None
        for n, w, v in pc.fields(pkt):
            if n == pc.TP_TIMESTAMP and w == 0:
                ts = v
            elif n == TP_CLOCK_ID and w == 0:
                cid = v
            elif n == pc.TP_SEQ_ID and w == 0:
                seq = v
            elif n == pc.TP_TRACK_EVENT and w == 2:
                te = v
            elif n == TP_CLOCK_SNAPSHOT and w == 2:
                snap = v
            elif n == TP_DEFAULTS and w == 2:
                defaults = v
        st = seqs.setdefault(seq, {"default": None, "clocks": {}, "boot": 0, "value": {}})
        if defaults is not None:
            for n, w, v in pc.fields(defaults):
                if n == TP_CLOCK_ID:
                    st["default"] = v
        if snap is not None:
            clocks = {}
            for n, w, v in pc.fields(snap):
                if n != 1:
                    continue
                c = {"id": None, "ts": 0, "inc": False, "mult": 1}
                for a, _, b in pc.fields(v):
                    if a == 1:
                        c["id"] = b
                    elif a == 2:
                        c["ts"] = b
                    elif a == 3:
                        c["inc"] = bool(b)
                    elif a == 4:
                        c["mult"] = b or 1
                clocks[c["id"]] = c
            st["boot"] = clocks[BOOTTIME]["ts"] if BOOTTIME in clocks else 0
            st["clocks"] = clocks
            st["value"] = {k: c["ts"] for k, c in clocks.items()}
        absts = None
        if ts is not None:
            clock = cid if cid is not None else (st["default"] if st["default"] is not None else BOOTTIME)
            c = st["clocks"].get(clock)
            if clock == BOOTTIME or c is None:
                if clock != BOOTTIME:
                    fail("packet on clock %d that no snapshot defines" % clock)
                absts = ts
            else:
                val = st["value"][clock] + ts if c["inc"] else ts
                if c["inc"]:
                    st["value"][clock] = val
                absts = st["boot"] + (val - c["ts"]) * c["mult"]
        if te is not None:
            fl, term = [], []
            for a, aw, b in pc.fields(te):
                if a in (TE_FLOW_IDS, TE_TERMINATING):
                    if aw != 1:
                        fail("flow id field %d with wire type %d (want fixed64)" % (a, aw))
                        continue
                    (fl if a == TE_FLOW_IDS else term).append(int.from_bytes(b, "little"))
            out.append((absts, fl, term))
    return out


def load(path):
    """Tracks, events (absolute times, flows) and slices [(begin event, dur)].
    Each begin event gets "out"/"in": the flows its slice carries, whichever of
    its packets (begin or end) they ride on; flows are then replayed as
    trace_processor does (time order of the packets that carry them)."""
    tracks, events = pc.read_perfetto(path)
    extra = read_extra(path)
    if len(extra) != len(events):
        fail("%s: %d track events but %d decoded again" % (path, len(events), len(extra)))
    for ev, (ts, fl, term) in zip(events, extra):
        ev["ts"], ev["flow_out"], ev["flow_in"] = ts, fl, term
    # Structure, and slices as trace_processor pairs them: per track, begins
    # and ends in time order (file order within one time), an end closes the
    # innermost open begin.  Which begin the writer meant is not in the file;
    # the durations are checked against the rows instead.
    for t in tracks.values():
        if t.parent and t.parent not in tracks:
            fail("%s: track %r has a parent %d that does not exist" % (path, t.name, t.parent))
        if t.is_process and t.pid is None:
            fail("%s: process track without pid" % path)
    owner = {}
    per = collections.defaultdict(list)
    for i, ev in enumerate(events):
        tr = tracks.get(ev["track"])
        if tr is None:
            continue
        if ev["type"] == pc.TYPE_COUNTER:
            if not tr.is_counter or "value" not in ev:
                fail("%s: counter value on %r (not a counter track, or no value)" % (path, tr.name))
            continue
        if tr.is_counter:
            fail("%s: slice or instant on counter track %r" % (path, tr.name))
        if ev["type"] in (pc.TYPE_BEGIN, pc.TYPE_END):
            per[ev["track"]].append(i)
    slices = []
    for uuid, lst in per.items():
        stack = []
        for i in sorted(lst, key=lambda i: (events[i]["ts"], i)):
            if events[i]["type"] == pc.TYPE_BEGIN:
                stack.append(i)
            elif stack:
                b = stack.pop()
                owner[i] = b
                slices.append((events[b], events[i]["ts"] - events[b]["ts"]))
            else:
                fail("%s: slice end without begin on %r" % (path, tracks[uuid].name))
        if stack:
            fail("%s: %d slices left open on %r" % (path, len(stack), tracks[uuid].name))
    for ev in events:
        ev["out"], ev["in"] = [], []
    carriers = []
    for i, ev in enumerate(events):
        if not ev["flow_out"] and not ev["flow_in"]:
            continue
        o = events[owner[i]] if ev["type"] == pc.TYPE_END and i in owner else ev
        if ev["type"] == pc.TYPE_END and i not in owner:
            fail("%s: flows on a slice end that closes nothing" % path)
        o["out"] += ev["flow_out"]
        o["in"] += ev["flow_in"]
        carriers.append((ev["ts"], i, o, ev))
    # trace_processor: flow_ids begin a flow or step it; terminating_flow_ids
    # end an active flow (an inactive one is dropped)
    active, arrows = {}, []
    for ts, i, o, ev in sorted(carriers, key=lambda c: (c[0], c[1])):
        for f in ev["flow_out"]:
            if f in active:
                arrows.append((f, active[f], o))
            active[f] = o
        for f in ev["flow_in"]:
            if f not in active:
                fail("%s: flow %x terminates on %r before it began (packet order)" % (path, f, o["name"]))
                continue
            arrows.append((f, active.pop(f), o))
    return tracks, events, slices, arrows, active


LABELS = {"instance_id": "", "process_id": "pid ", "thread_id": "thread ", "nc_idx": "nc ", "pcore_idx": "pcore ",
          "worker_gid": "worker ", "lnc_idx": "lnc ", "trace_event_source": "", "framework_stream_id": "stream ",
          "name": ""}


def value(r, f):
    def num(x):
        return x if isinstance(x, int) and x >= 0 else None
    if f == "instance_id":
        return r.get("instance_id") or None
    if f == "process_id":
        v = num(r.get("process_id"))
        return str(v) if v is not None else (r.get("pid") or None)
    if f == "thread_id":
        v = num(r.get("thread_id"))
        return str(v) if v is not None else (r.get("tid") or None)
    if f in ("nc_idx", "pcore_idx", "worker_gid"):
        v = num(r.get(f))
        return None if v is None else str(v)
    if f == "lnc_idx":
        x = r.get("extra_attributes_json") or {}
        x = x.get("lnc_idx") if isinstance(x, dict) else None
        try:
            v = int(x)
        except (TypeError, ValueError):
            return None
        return str(v) if v >= 0 else None
    if f in ("trace_event_source", "framework_stream_id", "name"):
        return r.get(f) or None
    raise SystemExit("checker: field %r not supported" % f)


def group_name(spec, r):
    parts = [LABELS[f] + v for f in spec for v in [value(r, f)] if v is not None]
    if parts:
        return " ".join(parts)
    return "unknown" if spec else "all events"


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode:
        fail("%s failed: %s" % (" ".join(cmd), p.stderr.decode()[:300]))
    return [json.loads(l) for l in p.stdout.decode().splitlines() if l.strip()]


def lane_base(tracks, t):
    bn = pc.base_name(tracks, t)
    if bn != t.name:
        return bn, tracks[t.parent]
    return t.name, t


def check_system_part(tracks, events, slices, rows, prim, sec, device_uuids, what):
    """System slices (not under a device group) against the rows."""
    want = collections.Counter()
    for r in rows:
        want[(group_name(prim, r), group_name(sec, r), r["name"] or "?", int(r["start_ts"]),
              max(0, int(r["end_ts"]) - int(r["start_ts"])))] += 1
    got = collections.Counter()
    for ev, dur in slices:
        if ev["track"] in device_uuids:
            continue
        t = tracks[ev["track"]]
        name, base = lane_base(tracks, t)
        p = tracks.get(base.parent)
        if p is None or not p.is_process:
            fail("%s: system slice %r on track %r whose parent is not a process track" % (what, ev["name"], t.name))
            continue
        got[(p.name, name, ev["name"], ev["ts"], dur)] += 1
    if want != got:
        miss, extra = want - got, got - want
        fail("%s: system slices differ from the rows grouped by %s / %s: %d missing (e.g. %r), %d unexpected "
             "(e.g. %r)" % (what, ",".join(prim), ",".join(sec), sum(miss.values()), next(iter(miss), None),
                            sum(extra.values()), next(iter(extra), None)))
    return sum(got.values())


def check_flows(tracks, slices, arrows, active, what, device_uuids):
    """Flows as trace_processor links them: chains of slices per flow id.
    Every flow whose source is not a device slice must have terminated."""
    begins = {id(ev) for ev, _ in slices}
    chains = collections.defaultdict(list)
    for f, a, b in arrows:
        for o in (a, b):
            if id(o) not in begins and o["type"] != pc.TYPE_INSTANT:
                fail("%s: flow %x on an event that is no slice (%r)" % (what, f, o["name"]))
        if not chains[f]:
            chains[f].append(a)
        elif chains[f][-1] is not a:
            fail("%s: flow %x steps from %r, not from its last slice" % (what, f, a["name"]))
        chains[f].append(b)
    for f, o in active.items():
        if o["track"] not in device_uuids:
            fail("%s: flow %x from %r never terminates" % (what, f, o["name"]))
    return chains


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--capture", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--primary", default="instance_id,process_id")
    ap.add_argument("--secondary", default="worker_gid,lnc_idx,thread_id")
    ap.add_argument("--combined", action="store_true")
    a = ap.parse_args()
    prim = [f for f in a.primary.split(",") if f]
    sec = [f for f in a.secondary.split(",") if f]

    # 1. file names
    ntffs = []
    for root, _, names in os.walk(a.capture):
        for n in names:
            if n.endswith(".ntff"):
                ntffs.append(os.path.join(root, n))
    want = {"device_profile_%s.pftrace" % os.path.basename(f)[:-5] for f in ntffs} | {"system_profile.pftrace"}
    if a.combined:
        want.add("combined_profile.pftrace")
    got = set(os.listdir(a.out))
    if want != got:
        fail("files in %s: %s, want %s" % (a.out, sorted(got), sorted(want)))

    rows = run([a.cli, "dump", "--system", a.capture, "--format", "jsonl"])
    # 2. system file: grouping and flows
    try:
        tracks, events, slices, arrows, active = load(os.path.join(a.out, "system_profile.pftrace"))
    except pc.WireError as e:
        fail("system_profile.pftrace: malformed protobuf: %s" % e)
        return 1
    n = check_system_part(tracks, events, slices, rows, prim, sec, set(), "system")
    by = check_flows(tracks, slices, arrows, active, "system", set())
    rows_by_flow = collections.defaultdict(collections.Counter)
    for r in rows:
        for fid in r.get("flow_id") or []:
            rows_by_flow[str(fid)][(r["name"], int(r["start_ts"]))] += 1
    want_f = sorted(sorted(c.items()) for c in rows_by_flow.values() if sum(c.values()) >= 2)
    got_f = sorted(sorted(collections.Counter((ev["name"], ev["ts"]) for ev in lst).items())
                   for lst in by.values())
    if want_f != got_f:
        fail("system flows: %d chains in the file, %d flow_ids shared by rows (first file chain %r, first row chain "
             "%r)" % (len(got_f), len(want_f), got_f[:1], want_f[:1]))
    print("system_profile.pftrace: %d slices (= %d rows) grouped by %s / %s, %d flows, %d tracks" %
          (n, len(rows), ",".join(prim) or '""', ",".join(sec) or '""', len(by), len(tracks)))
    if not a.combined:
        return 0

    # 3. combined file
    try:
        tracks, events, slices, arrows, active = load(os.path.join(a.out, "combined_profile.pftrace"))
    except pc.WireError as e:
        fail("combined_profile.pftrace: malformed protobuf: %s" % e)
        return 1

    def group_of(t):
        seen = 0
        while t is not None and seen < 64:
            if t.name and re.fullmatch(r"(.+: )?NeuronCore -?\d+ pcore -?\d+( \(.*\))?", t.name):
                return t
            t = tracks.get(t.parent)
            seen += 1
        return None

    dev_uuids = {u for u, t in tracks.items() if group_of(t) is not None}
    n = check_system_part(tracks, events, slices, rows, prim, sec, dev_uuids, "combined")
    by = check_flows(tracks, slices, arrows, active, "combined", dev_uuids)

    # sync points per process (instance, pid) and core
    sync = collections.defaultdict(list)
    for r in rows:
        if r["name"] == "timestamp_sync_point" and r.get("nc_idx") is not None:
            x = r["extra_attributes_json"]
            sync[(r["instance_id"], str(r["process_id"]), r["nc_idx"])].append(
                (int(x["nc_timestamp_ns"]), int(x["cpu_timestamp_ns"])))
    for v in sync.values():
        v.sort()

    def to_host(key, t, dur=0):
        """Host time of device time t, None when it (or its end) does not fit int64."""
        pts = sync[key]
        for dev, cpu in pts:
            if dev >= t:
                break
        h = cpu + (t - dev)
        return h if -(1 << 63) <= h and h + max(dur, 0) < (1 << 63) else None

    # device slices, by the host process they sit under and their pcore group
    dev_slices = collections.defaultdict(list)  # (host process name, pcore) -> [(ev, dur, base track name)]
    for ev, dur in slices:
        if ev["track"] not in dev_uuids:
            continue
        t = tracks[ev["track"]]
        g = group_of(t)
        host = pc.process_of(tracks, g)
        hn = host.name if host is not None and host is not g else None  # None: a top-level group
        dev_slices[(hn, g.name)].append((ev, dur, lane_base(tracks, t)[0]))

    # each profile: its instructions at the recomputed host times
    total_i = total_unmapped = 0
    for f in sorted(ntffs):
        d = os.path.dirname(f)
        m = re.search(r"(i-[0-9a-zA-Z]+)_pid_(\d+)", d)
        neffs = [os.path.join(d, x) for x in os.listdir(d) if x.endswith(".neff")]
        if not m or len(neffs) != 1:
            fail("checker: cannot tell the process or NEFF of %s" % f)
            continue
        inst, pid = m.group(1), m.group(2)
        cores = {k[2] for k in sync if k[0] == inst and k[1] == pid}
        if len(cores) != 1:
            fail("checker: process %s pid %s has sync points for cores %s (want one)" % (inst, pid, cores))
            continue
        nc = cores.pop()
        key = (inst, pid, nc)
        host_name = group_name(prim, {"instance_id": inst, "process_id": int(pid), "pid": pid})
        instr = run([a.cli, "dump", neffs[0], f, "--table", "instruction", "--format", "jsonl"])
        want_i = collections.Counter((r["pcore_idx"], r["engine"], to_host(key, int(r["start_ts"]), int(r["duration_ns"])),
                                      int(r["duration_ns"]), r["opcode"]) for r in instr)
        unmapped = sum(want_i.pop(k) for k in [k for k in want_i if k[2] is None])
        got_i = collections.Counter()
        engines = {r["engine"] for r in instr}
        top = os.path.basename(f)[:-5] + ": "  # a profile no nrt_execute launched: top level
        for (hn, gname), lst in dev_slices.items():
            if hn is None and gname.startswith(top):
                gname = gname[len(top):]
            elif hn != host_name:
                continue
            m = re.fullmatch(r"NeuronCore (-?\d+) pcore (-?\d+)", gname)
            if not m or int(m.group(1)) != nc:
                continue
            pcore = int(m.group(2))
            for ev, dur, bn in lst:
                if bn in engines:
                    got_i[(pcore, bn, ev["ts"], dur, ev["name"])] += 1
        if want_i != got_i:
            miss, extra = want_i - got_i, got_i - want_i
            fail("combined: %s: instructions at host time: %d missing (e.g. %r), %d unexpected (e.g. %r)" %
                 (os.path.basename(f), sum(miss.values()), next(iter(miss), None), sum(extra.values()),
                  next(iter(extra), None)))
        total_i += sum(got_i.values())
        total_unmapped += unmapped
        execs = run([a.cli, "dump", neffs[0], f, "--table", "execution", "--format", "jsonl"])
        # every execution of the profile: an nrt_execute flow ends on its slice,
        # and the execution and its instructions lie inside the nrt_execute;
        # every other device slice of the profile (DMA packets, throttle
        # windows) inside one of the profile's nrt_execute spans
        spans = []
        launched = any(hn == host_name and gn.startswith("NeuronCore %d " % nc) for hn, gn in dev_slices)
        if not launched:
            print("%s: no nrt_execute launched it: top-level groups, no arrows" % os.path.basename(f))
            execs = []
        for x in execs:
            x.setdefault("pcore_idx", 0)
            if to_host(key, int(x["execution_start_ts"]),
                       int(x["execution_end_ts"]) - int(x["execution_start_ts"])) is None:
                continue  # not placeable on host time: no slice, no arrow
            lst = dev_slices.get((host_name, "NeuronCore %d pcore %d" % (nc, x["pcore_idx"])), [])
            ex = [ev for ev, dur, bn in lst if bn == "executions" and ev["name"] == "execution %d" % x["execution_index"]]
            if len(ex) != 1:
                fail("combined: %s execution %d: %d execution slices" % (f, x["execution_index"], len(ex)))
                continue
            ex = ex[0]
            ch = [c for c in by.values() if c[-1] is ex]
            if len(ch) != 1 or len(ch[0]) != 2 or ch[0][0]["name"] != "nrt_execute":
                fail("combined: %s execution %d: %d flows end on it, want one from an nrt_execute (%r)" %
                     (f, x["execution_index"], len(ch), [[o["name"] for o in c] for c in ch]))
                continue
            nrt = ch[0][0]
            nrt_dur = next(d for ev, d in slices if ev is nrt)
            a0, a1 = nrt["ts"], nrt["ts"] + nrt_dur
            spans.append((a0, a1))
            ex_dur = next(d for ev, d, _ in lst if ev is ex)
            if not (a0 <= ex["ts"] and ex["ts"] + ex_dur <= a1):
                fail("combined: %s execution %d [%d, %d] is not inside its nrt_execute [%d, %d]" %
                     (f, x["execution_index"], ex["ts"], ex["ts"] + ex_dur, a0, a1))
            if ex["args"].get("execution_index") != x["execution_index"]:
                fail("combined: execution slice without its execution_index argument")
            inside = 0
            for ev, dur, bn in lst:
                if bn in engines and ev["args"].get("execution") == x["execution_index"]:
                    inside += 1
                    if not (a0 <= ev["ts"] and ev["ts"] + dur <= a1):
                        fail("combined: %s instruction %r at %d (+%d) outside its nrt_execute [%d, %d]" %
                             (f, ev["name"], ev["ts"], dur, a0, a1))
            if not inside:
                fail("combined: %s execution %d: no instruction carries it" % (f, x["execution_index"]))
        outside = 0
        for (hn, gname), lst in dev_slices.items():
            m = re.fullmatch(r"NeuronCore (-?\d+) pcore (-?\d+)", gname)
            if hn != host_name or not m or int(m.group(1)) != nc or not spans:
                continue
            for ev, dur, bn in lst:
                if bn in engines or bn == "executions":
                    continue
                if not any(a0 <= ev["ts"] and ev["ts"] + dur <= a1 for a0, a1 in spans):
                    outside += 1
                    if outside <= 3:
                        fail("combined: %s: %r slice %r at %d (+%d) inside no nrt_execute" %
                             (os.path.basename(f), bn, ev["name"], ev["ts"], dur))
    nrt_flows = sum(1 for c in by.values() if c[0]["name"] == "nrt_execute" and c[-1]["track"] in dev_uuids)
    print("combined_profile.pftrace: %d system slices, %d instructions on host time (%d not placeable), %d "
          "nrt_execute -> execution flows, %d flows, %d tracks (%d device)" %
          (n, total_i, total_unmapped, nrt_flows, len(by), len(tracks), len(dev_uuids)))
    return 0


if __name__ == "__main__":
    rc = main()
    if FAILS:
        print("%d failures" % len(FAILS), file=sys.stderr)
        sys.exit(1)
    sys.exit(rc)
