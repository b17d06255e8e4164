# SPDX-License-Identifier: MIT
"""System profiles through the binding: the real Kineto trace, ntrace.pb /
cpu_util.pb / host_mem.pb / trace_info.pb written with libnxp's writers, the
clock map and capture directories (cross-checked against the `nxp` CLI)."""
import collections
import gzip
import json
import os
import pickle
import subprocess

import pytest

import nxp
import nxp.testing as T

C = nxp.constants
KINETO_BASE = 1775078550000000000


def _check_kineto(rows, base=KINETO_BASE):
    """The facts tests/test_system.c asserts on the same file."""
    assert len(rows) == 75
    phases = collections.Counter(r.phase for r in rows)
    assert (phases["M"], phases["X"], phases["f"], phases["s"], phases["i"]) == (60, 9, 3, 1, 2)
    assert [r.id for r in rows] == sorted(r.id for r in rows)
    (op1,) = [r for r in rows if r.name == "op1" and r.phase == "X"]
    assert (op1.start_ts, op1.duration_ns, op1.end_ts) == (base + 88511388202765, 40, base + 88511388202805)
    assert (op1.process_id, op1.thread_id, op1.pid, op1.tid) == (514683, 514683, "514683", "514683")
    assert op1.trace_event_source == "framework" and op1.extra_attributes_json == '{"External id":1}'
    assert op1.category == "cpu_op" and op1.process_name == "CuptiActivityProfilerTest"
    assert (op1.nc_idx, op1.pcore_idx, op1.worker_gid, op1.flow_id, op1.framework_stream_id) == (-1, -1, -1, "", "")
    span = next(r for r in rows if r.name == "Test trace (0)" and r.phase == "X")
    assert (span.pid, span.tid, span.process_id, span.thread_id) == ("Spans", "Test trace", -1, -1)
    assert (span.duration_ns, span.start_ts) == (300, base + 88511388202755)
    rwe = next(r for r in rows if r.name == "Record Window End" and r.phase == "i")
    assert (rwe.pid, rwe.extra_attributes_json, rwe.start_ts) == ("", '{"s":"g"}', base + 88511388203055)
    ends = [r for r in rows if r.phase == "f"]
    assert all((r.name, r.extra_attributes_json) == ("ac2g", '{"bp":"e"}') for r in ends)
    assert next(r for r in rows if r.phase == "s").flow_id == "1"
    (f200,) = [r for r in ends if r.flow_id == "200"]
    assert (f200.start_ts, f200.process_id, f200.thread_id) == (base + 88511388202855, 0, 1)
    pn = next(r for r in rows if r.name == "process_name" and r.phase == "M")
    assert '"name"' in pn.extra_attributes_json
    assert next(r for r in rows if r.name == "Kernel" and r.phase == "X").duration_ns == 20
    assert all(r.flags & C.NXP_SYSEV_NO_BASE_TIME == 0 for r in rows)


def test_kineto_real_trace(kineto, tmp_path):
    size = os.path.getsize(kineto)
    with nxp.system_events(kineto) as c:
        rows = list(c)
        st = c.stats()
    _check_kineto(rows)
    assert rows[0].file == kineto and 0 <= rows[0].offset < size
    assert (st["events"], st["framework"], st["neuron_rt"], st["files"]) == (75, 75, 0, 1)
    assert (st["base_time_ns"], st["bytes_read"]) == (KINETO_BASE, size)
    data = open(kineto, "rb").read()
    from_bytes = list(nxp.system_events(data))
    _check_kineto(from_bytes)
    assert [r._astuple()[:-2] for r in from_bytes] == [r._astuple()[:-2] for r in rows]  # all but file, offset
    assert from_bytes[0].file == ""
    assert [r.offset for r in from_bytes] == [r.offset for r in rows]
    # gzip'd, by path and from bytes: the same rows, decompressed offsets
    gz = tmp_path / "trace.json.gz"
    gz.write_bytes(gzip.compress(data))
    for src in (str(gz), gz.read_bytes(), gz):
        got = list(nxp.system_events(src, kind="trace_json"))
        _check_kineto(got)
        assert [r.offset for r in got] == [r.offset for r in rows]


def test_records_are_light_and_detached(kineto):
    c = nxp.system_events(kineto)
    first = next(c)
    rest = list(c)
    c.close()
    assert first.name == "process_name" or first.phase  # readable after close
    d = first._asdict()
    assert list(d) == list(nxp.SystemEvent._fields) and d["trace_event_source"] == "framework"
    assert nxp.SystemEvent._fields[:15] == ("id", "name", "start_ts", "end_ts", "duration_ns", "trace_event_source",
                                            "instance_id", "process_id", "thread_id", "nc_idx", "pcore_idx",
                                            "worker_gid", "flow_id", "framework_stream_id", "extra_attributes_json")
    again = pickle.loads(pickle.dumps(rest[10]))
    assert again == rest[10] and isinstance(again, nxp.SystemEvent) and again.name == rest[10].name


def _fw(ph, name, pid, tid, ts, end=0, args=None, flow=None):
    return {"phase": ph, "name": name, "pid": pid, "tid": tid, "start_ts": ts, "end_ts": end,
            "extra_attributes_json": args, "flow_id": flow, "category": "cpu_op"}


BASE = 1700000000000000000
FW_EVENTS = [
    _fw("M", "process_name", "7", "0", BASE, BASE, '{"name":"python"}'),
    _fw("M", "thread_name", "7", "8", BASE, BASE, '{"name":"main"}'),
    _fw("X", "aten::mm", "7", "8", BASE + 1500, BASE + 4250, '{"Input Dims":[[2,3]]}'),
    _fw("B", "outer", "7", "8", BASE + 10000, 0, '{"k":1}'),
    _fw("B", "inner", "7", "8", BASE + 11000),
    _fw("E", "", "7", "8", BASE + 12000),
    _fw("B", "other_thread", "7", "9", BASE + 11500),
    _fw("E", "", "7", "8", BASE + 20000, 0, '{"k2":2}'),
    _fw("E", "", "7", "99", BASE + 21000),
    _fw("C", "mem", "7", "0", BASE + 22000, 0, '{"bytes":4096}'),
    _fw("s", "flow", "7", "8", BASE + 1500, 0, None, "42"),
    _fw("f", "flow", "Spans", "x", BASE + 3000, 0, '{"bp":"e"}', "42"),
    _fw("i", "mark", "7", "8", BASE + 30000, 0, '{"s":"t"}'),
]


@pytest.mark.parametrize("gz", [False, True])
def test_trace_json_writer_roundtrip(tmp_path, gz):
    path = tmp_path / ("t.json.gz" if gz else "t.json")
    nxp.trace_json_write(path, FW_EVENTS, base_time_ns=BASE, gzip=gz)
    assert (path.read_bytes()[:1] == b"\x1f") == gz
    c = nxp.system_events(path)
    rows = list(c)
    # 3 B + 3 E give 2 paired rows, 1 unmatched E and 1 B still open: 11 rows
    assert len(rows) == 11
    by = {(r.name, r.phase): r for r in rows}
    mm = by["aten::mm", "X"]
    assert (mm.start_ts, mm.duration_ns, mm.process_name, mm.thread_name) == (BASE + 1500, 2750, "python", "main")
    assert mm.extra_attributes_json == '{"Input Dims":[[2,3]]}' and mm.flags & C.NXP_SYSEV_NO_BASE_TIME == 0
    inner, outer = by["inner", "X"], by["outer", "X"]
    assert (inner.start_ts, inner.duration_ns) == (BASE + 11000, 1000)
    assert (outer.start_ts, outer.end_ts, outer.extra_attributes_json) == (BASE + 10000, BASE + 20000,
                                                                          '{"k":1,"k2":2}')
    assert rows.index(inner) < rows.index(outer)
    lone = by["", "E"]
    assert lone.flags & C.NXP_SYSEV_UNMATCHED_STOP and lone.tid == "99"
    still_open = by["other_thread", "B"]
    assert still_open.flags & C.NXP_SYSEV_UNMATCHED_START and still_open.duration_ns == 0
    assert rows[-1] == still_open
    assert by["flow", "f"].flow_id == "42" and by["flow", "f"].pid == "Spans"
    st = c.stats()
    assert (st["unmatched_starts"], st["unmatched_stops"], st["peak_pending"]) == (1, 1, 2)
    # baseTimeNanoseconds is written after traceEvents: without the prescan it is not known
    late = list(nxp.system_events(path, prescan=False))
    assert len(late) == 11
    # every row, including the B slice still open at the end, says it has no base
    assert all(r.flags & C.NXP_SYSEV_NO_BASE_TIME for r in late)
    mm2 = next(r for r in late if r.name == "aten::mm")
    assert mm2.start_ts == 1500 and mm2.duration_ns == 2750
    # records go back in through the writer unchanged
    path2 = tmp_path / "again.json"
    nxp.trace_json_write(path2, [mm], base_time_ns=BASE)
    (back,) = nxp.system_events(path2)
    assert (back.name, back.start_ts, back.end_ts, back.extra_attributes_json) == (
        mm.name, mm.start_ts, mm.end_ts, mm.extra_attributes_json)


def _ntrace_facts(rows):
    assert [(r.name, r.phase, r.start_ts, r.end_ts, r.duration_ns, r.trace_event_source) for r in rows] == T.NTRACE_ROWS
    ex = rows[1]
    assert (ex.id, ex.nc_idx, ex.thread_id, ex.process_id, ex.worker_gid, ex.tracking_id) == (500, 3, 11, 4242, 5, 7)
    assert ex.instance_id == "i-0abc" and ex.flags == C.NXP_SYSEV_SOFTWARE
    assert ex.extra_attributes_json == '{"model":"bert","worker_gid":"5","status":"ok"}'
    assert rows[0].flags == C.NXP_SYSEV_HARDWARE
    assert rows[3].flags & C.NXP_SYSEV_UNMATCHED_STOP and rows[5].flags & C.NXP_SYSEV_UNMATCHED_START


@pytest.mark.parametrize("stream,chunk", [(False, 0), (True, 1), (True, 2), (True, 3)])
def test_ntrace_roundtrip(tmp_path, stream, chunk):
    path = T.write_ntrace(str(tmp_path / "ntrace.pb"), stream=stream, chunk_events=chunk)
    data = open(path, "rb").read()
    assert (data[0] == 0x1a) != stream  # a single message starts with the string pool's tag
    for src, kind in ((path, "auto"), (data, "auto"), (data, "ntrace"), (path, "ntrace")):
        with nxp.system_events(src, kind=kind) as c:
            rows = list(c)
            st = c.stats()
        _ntrace_facts(rows)
        assert (st["neuron_hw"], st["neuron_rt"], st["unmatched_starts"], st["unmatched_stops"]) == (2, 4, 1, 1)
        assert st["bytes_read"] == len(data)
    raw = list(nxp.system_events(path, pairing=False))
    assert len(raw) == 8
    assert raw[0].phase == "B" and raw[0].flags & C.NXP_SYSEV_UNPAIRED
    assert raw[3].nrta_seq_id == 99
    assert nxp.system_event_group("nc_exec_running") == C.NXP_SYSEV_HARDWARE
    assert nxp.system_event_group("kbl_exec_pre") == C.NXP_SYSEV_SOFTWARE
    assert nxp.system_event_group("something_else") == 0


def test_many_batches_copy_every_rows_strings(tmp_path):
    """Several C-call batches; each row's strings are its own (copied before the next call)."""
    n = 3 * nxp.BATCH + 17
    path = str(tmp_path / "big.pb")
    with nxp.SysprofWriter(path, "ntrace", stream=True, chunk_events=1000) as w:
        for i in range(n):
            w.event(f"ev{i % 7}", "instant", {"i": str(i)}, timestamp=10 * i, nc_idx=i % 4, id=i)
    seen = 0
    for i, r in enumerate(nxp.system_events(path)):
        assert (r.id, r.start_ts, r.nc_idx) == (i, 10 * i, i % 4)
        assert r.name == f"ev{i % 7}" and r.extra_attributes_json == f'{{"i":"{i}"}}'
        seen += 1
    assert seen == n
    batches = list(nxp.system_events(path).batches())
    assert [len(b) for b in batches] == [nxp.BATCH] * 3 + [17]


def test_host_stats(capture, tmp_path):
    p = capture["proc1"]
    cpu = list(nxp.cpu_usage(os.path.join(p, "cpu_util.pb")))
    assert [(u.timestamp, u.util_percent, u.cpu_id, u.instance_id) for u in cpu] == [
        (5000, 0.0, "0", "i-0abc"), (5001, 12.5, "1", "i-0abc"), (5002, 25.0, "0", "i-0abc"),
        (5003, 37.5, "average", "i-0abc")]
    assert nxp.CpuUsage._fields == ("timestamp", "util_percent", "cpu_id", "instance_id")
    mem_path = os.path.join(p, "host_mem.pb")
    mem = list(nxp.host_mem_usage(mem_path))
    assert [(m.timestamp, m.used_bytes, m.used_percent, m.total_bytes) for m in mem] == [
        (6000, 1 << 30, 10.0, 1 << 40), (6001, 2 << 30, 20.0, 1 << 40), (6002, 3 << 30, 30.0, -1)]
    assert all(m.instance_id == "i-0abc" for m in mem)
    assert list(nxp.host_mem_usage(open(mem_path, "rb").read())) == mem
    # a stream of samples, and the instance_id option for a file that has none
    sp = str(tmp_path / "cpu_stream.pb")
    with nxp.SysprofWriter(sp, "cpu_util", stream=True, chunk_events=2) as w:
        for i in range(5):
            w.cpu(100 + i, float(i), str(i))
    got = list(nxp.cpu_usage(sp, instance_id="i-given"))
    assert [(u.timestamp, u.cpu_id, u.instance_id) for u in got] == [(100 + i, str(i), "i-given") for i in range(5)]
    # truncated: the samples before the cut, then a clean error with an offset
    data = open(sp, "rb").read()
    c = nxp.cpu_usage(data[:-1])
    got = []
    with pytest.raises((nxp.TruncatedError, nxp.ProtobufError)) as ei:
        for u in c:
            got.append(u)
    assert 0 <= ei.value.offset <= len(data) and ei.value.message
    assert [u.timestamp for u in got] == [100 + i for i in range(len(got))] and len(got) >= 3


def test_trace_info(capture, tmp_path):
    path = os.path.join(capture["proc1"], "trace_info.pb")
    md = nxp.trace_info(path)
    assert md["first_ts"] == "2025-06-01T12:00:00.000000000Z" and md["last_ts"] == "2025-06-01T12:00:01.500000000Z"
    assert (md["first_ts_ns"], md["last_ts_ns"]) == (1748779200000000000, 1748779201500000000)
    assert (md["ntff_version"], md["hbm_capacity_bytes"], md["pid"]) == (6, 96 << 30, 100)
    assert (md["instance_id"], md["instance_type"], md["arch"], md["runtime_version"]) == (
        "i-0abc", "trn2.48xlarge", "trn2", "2.31")
    assert (md["driver_version"], md["session_id"], md["data_version"]) == ("", -1, -1)
    assert (md["logical_nc_size"], md["num_neuron_cores"]) == (2, 8)
    assert list(md) == [f for f, _ in nxp.constants.nxp_system_metadata._fields_[1:]]
    data = open(path, "rb").read()
    assert nxp.trace_info(data) == md
    sp = str(tmp_path / "ti_stream.pb")
    nxp.trace_info_write(sp, stream=True, arch="trn1", pid=5)
    got = nxp.trace_info(sp)
    assert (got["arch"], got["pid"], got["first_ts_ns"], got["first_ts"]) == ("trn1", 5, -1, "")
    with pytest.raises(nxp.LimitError):
        nxp.trace_info(path, max_message_size=8)
    with pytest.raises(TypeError):
        nxp.trace_info_write(sp, no_such_field=1)


def test_clock_map(tmp_path):
    path = str(tmp_path / "sync.pb")
    pts = [(0, 5000000000, 1000000), (1, 5000000100, 9000000), (0, 5000002500, 3000000)]
    with nxp.SysprofWriter(path, "ntrace") as w:
        for nc, cpu, dev in pts:
            w.event("timestamp_sync_point", "instant", {"cpu_timestamp_ns": str(cpu), "nc_timestamp_ns": str(dev)},
                    timestamp=cpu, nc_idx=nc)
        w.event("timestamp_sync_point", nc_idx=2)  # no attributes: not kept
    with nxp.clock_map(path) as m:
        assert len(m) == 3
        assert m.to_host(0, 400000) == 5000000000 - 600000   # first execution of core 0
        assert m.to_host(0, 1000000) == 5000000000
        assert m.to_host(0, 2000000) == 5000002500 - 1000000  # second execution
        assert m.to_host(0, 3000010) == 5000002510            # after the last sync point
        assert m.to_host(1, 9000000) == 5000000100
        with pytest.raises(nxp.NotFoundError) as ei:
            m.to_host(2, 0)
        assert ei.value.code == C.NXP_E_NOT_FOUND
    with pytest.raises(nxp.InvalidArgumentError):
        m.to_host(0, 0)  # closed
    # from an open cursor (read to its end), and the point limit
    c = nxp.system_events(path)
    assert len(nxp.ClockMap.build(c)) == 3
    with pytest.raises(nxp.LimitError):
        nxp.clock_map(path, max_points=2)
    m = nxp.ClockMap()
    m.add(5, 300, 10300)
    m.add(5, 100, 10000)
    assert (len(m), m.to_host(5, 50), m.to_host(5, 200)) == (2, 9950, 10200)
    with pytest.raises(TypeError):
        m.add(5, "1", 2)


def test_capture_directory(capture):
    cap = nxp.Capture(capture["root"])
    assert (len(cap.files), len(cap.processes), len(cap.profiles)) == (11, 2, 3)
    p0, p1 = cap.processes
    assert (p0.instance_id, p0.pid, p0.timestamp, p0.complete, p0.dir) == ("i-0abc", 100, "", 1, capture["proc1"])
    assert all(getattr(p0, k) >= 0 for k in ("ntrace", "trace_info", "cpu_util", "host_mem", "trace_json"))
    assert cap.files[p0.cpu_util].path.endswith("cpu_util.pb")
    assert cap.files[p0.cpu_util].kind == C.NXP_SYSFILE_CPU_UTIL
    assert (p1.instance_id, p1.pid, p1.timestamp, p1.complete, p1.trace_info) == ("i-0def", 300, "20250601T120000",
                                                                                0, -1)
    kinds = collections.Counter(f.kind for f in cap.files)
    assert (kinds[C.NXP_SYSFILE_NEFF], kinds[C.NXP_SYSFILE_NTFF], kinds[C.NXP_SYSFILE_NTRACE]) == (2, 3, 2)
    pr = cap.profiles
    assert [(x.pairing, x.process_index, x.nc_idx) for x in pr] == [
        (C.NXP_PAIRED_BY_UUID, 0, 0), (C.NXP_PAIRED_BY_UUID, 1, 0), (C.NXP_PAIRED_SOLE, 1, 1)]  # _vnc_0: nc 0
    assert nxp.PAIRINGS[pr[2].pairing] == "sole"
    f = cap.files[pr[0].neff]
    assert (f.path, f.has_uuid, f.uuid, f.name_hash) == (capture["neff1"], 1, "10" * 16, "395760075800974")
    f = cap.files[pr[0].ntff]
    assert (f.path, f.vnc, f.instid, f.session) == (capture["ntff1"], 0, 0, -1)
    assert cap.files[pr[2].ntff].uuid == "66" * 16 and cap.files[pr[2].neff].path == capture["neff2"]
    assert len(cap.problems) == 1 and "trace_info.pb is missing" in cap.problems[0]
    assert capture["proc2"] in cap.problems[0]

    # device profiles open as nxp.Profile, and outlive the capture
    prof = cap.open_profile(0)
    with cap.open_profile(1) as q:
        assert sum(1 for _ in q.instructions()) == capture["instructions2"]
    with pytest.raises(nxp.MismatchError):
        cap.open_profile(2)  # paired as the directory's only NEFF, but from another compilation
    with cap.open_profile(2, allow_mismatch=True) as q:
        assert q.metadata["neff_uuid"] == "66" * 16
    for bad in (3, -1):
        with pytest.raises(nxp.RangeError):
            cap.open_profile(bad)

    # events of one process: ntrace rows, then the trace.json row; instance from the directory
    ev0 = list(cap.events(0))
    assert [r.name for r in ev0] == [t[0] for t in T.NTRACE_ROWS] + ["step"]
    assert (ev0[-1].trace_event_source, ev0[-1].instance_id, ev0[-1].start_ts) == ("framework", "i-0abc", 1000)
    ev1 = list(cap.events(1))
    assert len(ev1) == 6 and {r.instance_id for r in ev1} == {"i-0def"}  # the file has none
    assert len(list(cap.events())) == capture["events"]
    with pytest.raises(nxp.RangeError):
        cap.events(2)
    cursor = cap.events(0)
    cap.close()
    cap.close()
    assert sum(1 for _ in cursor) == 7  # the cursor does not depend on the capture handle
    with pytest.raises(nxp.InvalidArgumentError):
        cap.open_profile(0)
    with pytest.raises(nxp.InvalidArgumentError):
        cap.events()
    assert sum(1 for _ in prof.instructions()) == capture["instructions1"]
    prof.close()

    # the whole directory as one cursor
    c = nxp.system_events(capture["root"])
    rows = list(c)
    st = c.stats()
    assert len(rows) == capture["events"]
    assert (st["files"], st["framework"], st["neuron_hw"], st["neuron_rt"]) == (3, 1, 4, 8)


def test_capture_events_match_cli(capture, cli):
    out = subprocess.run([cli, "dump", "--system", capture["root"], "--format", "jsonl"], check=True,
                         capture_output=True, text=True).stdout
    lines = [json.loads(x) for x in out.splitlines() if x.startswith("{")]
    rows = list(nxp.system_events(capture["root"]))
    assert len(lines) == len(rows) == capture["events"]
    for j, r in zip(lines, rows):
        for k in ("id", "name", "start_ts", "end_ts", "duration_ns", "trace_event_source", "instance_id",
                  "process_id", "thread_id", "nc_idx", "pcore_idx", "worker_gid", "framework_stream_id", "phase",
                  "pid", "tid", "flags"):
            v = getattr(r, k)
            assert j[k] == (None if v == -1 and k not in ("id", "flags") else v), (k, j, r)
        assert j["extra_attributes_json"] == json.loads(r.extra_attributes_json)
        assert j["flow_id"] == ([r.flow_id] if r.flow_id else [])


# ---------------------------------------------------------------- misuse and bad input
def test_missing_and_not_a_capture(tmp_path):
    nope = str(tmp_path / "nope")
    for f in (nxp.system_events, nxp.cpu_usage, nxp.host_mem_usage, nxp.trace_info, nxp.Capture, nxp.clock_map):
        with pytest.raises(nxp.InputOutputError) as ei:
            f(nope)
        assert ei.value.code == C.NXP_E_IO and ei.value.message
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(nxp.NotFoundError):
        nxp.Capture(str(empty))
    with pytest.raises(nxp.NotFoundError):
        nxp.system_events(str(empty))


def test_malformed_trace_json_reports_offset():
    bad = b'{"traceEvents":[{"ph":"X" "name":1}]}'
    with pytest.raises(nxp.JSONError) as ei:
        list(nxp.system_events(bad))
    assert ei.value.code == C.NXP_E_JSON and 16 <= ei.value.offset <= 34 and ei.value.message
    # the rows before the fault come first, then the error
    doc = b'{"traceEvents":[{"ph":"X","name":"a","pid":1,"tid":2,"ts":1,"dur":2},{"ph":"X",,}]}'
    c = nxp.system_events(doc)
    first = next(c)
    assert (first.name, first.start_ts, first.duration_ns) == ("a", 1000, 2000)
    with pytest.raises(nxp.JSONError) as ei:
        next(c)
    assert ei.value.offset >= doc.index(b'{"ph":"X",,')
    # every truncation: a clean TruncatedError / JSONError with an offset inside the input
    full = b'{"traceEvents":[{"ph":"X","name":"a\\"}","pid":1,"tid":2,"ts":1,"dur":2},' \
           b'{"ph":"B","name":"b","pid":1,"tid":2,"ts":5}],"baseTimeNanoseconds":100}'
    assert len(list(nxp.system_events(full))) == 2
    for cut in range(1, len(full)):
        with pytest.raises((nxp.TruncatedError, nxp.JSONError)) as ei:
            list(nxp.system_events(full[:cut], kind="trace_json"))
        assert 0 <= ei.value.offset <= cut, cut


def test_trace_json_limits():
    deep = b'{"traceEvents":[{"ph":"X","args":' + b"[" * 5000 + b"]" * 5000 + b"}]}"
    with pytest.raises(nxp.LimitError) as ei:
        list(nxp.system_events(deep, max_json_event=1 << 20))
    assert ei.value.offset == 33 + 63 and "nesting" in ei.value.message
    with pytest.raises(nxp.LimitError) as ei:
        list(nxp.system_events(deep, max_json_depth=4))
    huge = b'{"traceEvents":[{"ph":"X","name":"' + b"x" * (2 << 20) + b'"}]}'
    with pytest.raises(nxp.LimitError) as ei:
        list(nxp.system_events(huge, max_json_event=1 << 20))
    assert ei.value.offset == 16


@pytest.mark.parametrize("data,cls,offset", [
    (bytes([0x28] + [0xff] * 10 + [0x01]), nxp.ProtobufError, 1),            # varint too long
    (bytes([0x28, 0x01, 0x0a, 0x64, 0x08, 0x01, 0x00]), nxp.TruncatedError, 3),  # length past the end
    (bytes([0x28, 0x01, 0x0b, 0x0c]), nxp.ProtobufError, 2),                 # group wire type
    (bytes([0x0a, 0x03, 0x08, 0xff, 0xff]), nxp.ProtobufError, 0),           # event that does not unpack
])
def test_malformed_ntrace_reports_offset(data, cls, offset):
    with pytest.raises(cls) as ei:
        list(nxp.system_events(data, kind="ntrace"))
    assert ei.value.offset == offset and ei.value.message and ei.value.code < 0


def test_ntrace_limit_and_truncations(tmp_path):
    with pytest.raises(nxp.LimitError) as ei:
        list(nxp.system_events(bytes([0x0a, 0x06, 0x08, 0x01, 0x10, 0x02, 0x18, 0x03]), kind="ntrace",
                               max_message_size=4))
    assert ei.value.offset == 1
    data = open(T.write_ntrace(str(tmp_path / "n.pb"), stream=True, chunk_events=2), "rb").read()
    clean = 0
    for cut in range(len(data)):
        try:
            list(nxp.system_events(data[:cut], kind="ntrace"))
            clean += 1
        except (nxp.TruncatedError, nxp.ProtobufError) as e:
            assert 0 <= e.offset <= cut
    assert clean == 5  # the empty file and the 4 message boundaries before the end


def test_misuse(tmp_path, kineto):
    with pytest.raises(TypeError):
        nxp.system_events(123)
    with pytest.raises(TypeError):
        nxp.system_events(kineto, instance_id=5)
    with pytest.raises(TypeError):
        nxp.system_events(kineto, no_such_option=1)
    with pytest.raises(nxp.InvalidArgumentError):
        nxp.system_events(kineto, kind="neff")
    with pytest.raises(nxp.InvalidArgumentError):
        nxp.system_events(b"[]", kind=99)
    with pytest.raises(nxp.RangeError):
        nxp.system_events(kineto, max_json_depth=-1)
    with pytest.raises(nxp.InvalidArgumentError):
        nxp.HostStats(b"", "ntrace")
    with pytest.raises(nxp.InvalidArgumentError):
        nxp.SysprofWriter(str(tmp_path / "x.pb"), "trace_json")
    c = nxp.system_events(kineto)
    next(c)
    c.close()
    c.close()
    for f in (lambda: next(c), c.stats):
        with pytest.raises(nxp.InvalidArgumentError) as ei:
            f()
        assert "closed" in ei.value.message
    w = nxp.SysprofWriter(str(tmp_path / "w.pb"), "ntrace")
    w.event("x")
    with pytest.raises(nxp.InvalidArgumentError):
        w.string("late")  # the pool is written before the first event
    with pytest.raises(nxp.InvalidArgumentError):
        w.cpu(1, 1.0, "0")  # wrong kind
    with pytest.raises(TypeError):
        w.event("x", bogus=1)
    w.close()
    with pytest.raises(nxp.InvalidArgumentError):
        w.event("y")
    with pytest.raises(nxp.JSONError):
        nxp.trace_json_write(str(tmp_path / "bad.json"), [_fw("X", "a", "1", "1", 0, 1, "{not json")])


def test_no_handle_leaks(capture, kineto):
    def fds():
        return len(os.listdir("/proc/self/fd"))

    def cycle(k):
        for _ in range(k):
            c = nxp.system_events(capture["root"])
            next(c)  # left open: freed by close() below or the collector
            c.close()
            next(nxp.system_events(kineto))
            list(nxp.cpu_usage(os.path.join(capture["proc1"], "cpu_util.pb")))
            nxp.trace_info(os.path.join(capture["proc1"], "trace_info.pb"))
            with nxp.Capture(capture["root"]) as cap:
                next(cap.events(0))
                cap.open_profile(0).close()
        import gc
        gc.collect()

    cycle(5)
    before = fds()
    cycle(50)
    assert fds() == before
