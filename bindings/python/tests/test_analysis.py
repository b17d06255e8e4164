# SPDX-License-Identifier: MIT
"""Critical path, insights, flows and capture comparison through the binding,
checked against the summary, the profile's tables, the raw C flow cursor and
the `nxp critical-path / insights / compare --json` CLI."""
import collections
import ctypes
import json
import subprocess

import pytest

import nxp
from nxp import _structs as S
from nxp._lib import fn


def _cli_json(cli, *args):
    return json.loads(subprocess.run([cli, *args, "--json"], check=True, capture_output=True, text=True).stdout)


def test_critical_path_sums(sample, cli):
    with nxp.Profile(*sample) as p:
        cp = p.critical_path()
        total_exec = p.summary()["total_exec_time"]
        execs = list(p.executions())
        per_exec = [p.critical_path(execution=e.execution_index) for e in execs]
    assert cp.total_ns == cp.end_ts - cp.start_ts == round(total_exec * 1e9)
    assert sum(ns for _, ns in cp.breakdown) == cp.total_ns
    assert [ns for _, ns in cp.breakdown] == sorted((ns for _, ns in cp.breakdown), reverse=True)
    assert sum(s.ns for s in cp.path) == cp.total_ns
    # time order is by end: an instruction's start_ts includes the semaphore wait
    # that the step before it (the update it waited for) ended
    assert [s.end_ts for s in cp.path] == sorted(s.end_ts for s in cp.path)
    assert {s.table_name for s in cp.path} <= {"Instruction", "DmaPacket", "SemaphoreUpdate"}
    for r in cp.resources:
        if r.resource.startswith(("engine:", "dma:")):
            assert r.busy_ns + r.slack_ns == cp.total_ns
    c = _cli_json(cli, "critical-path", *sample)
    assert (c["start_ts"], c["end_ts"], c["total_ns"]) == (cp.start_ts, cp.end_ts, cp.total_ns)
    assert [(b["resource"], b["ns"], b["busy_ns"], b["slack_ns"]) for b in c["breakdown"]] == \
        [tuple(r) for r in cp.resources]
    d = cp.to_dict()
    assert d["total_ns"] == cp.total_ns and len(d["path"]) == len(cp.path)
    for e, x in zip(execs, per_exec):
        assert (x.start_ts, x.end_ts) == (e.execution_start_ts, e.execution_end_ts)
        assert sum(ns for _, ns in x.breakdown) == x.total_ns
    with nxp.Profile(*sample) as p:
        with pytest.raises(nxp.NotFoundError):
            p.critical_path(execution=999)


def test_insights_rules(sample, cli):
    with nxp.Profile(*sample) as p:
        ins = p.insights()
        assert p.insights(arch="trn2") is not None
        with pytest.raises(nxp.NotFoundError):
            p.insights(arch="nope")
    assert ins, "the demo is throttled: at least the throttling rule fires"
    for i in ins:
        assert i["rule"] in nxp.INSIGHT_RULES
        assert i["severity"] in ("info", "warning", "critical")
        assert i["severity_level"] == {"info": 1, "warning": 2, "critical": 3}[i["severity"]]
        assert i["message"] and i["recommendation"]
        for e in i["evidence"]:
            assert isinstance(e["name"], str) and isinstance(e["value"], float)
    levels = [i["severity_level"] for i in ins]
    assert levels == sorted(levels, reverse=True)
    c = _cli_json(cli, "insights", *sample)
    assert [(x["rule"], x["severity"], x["message"], x["start_ts"], x["end_ts"]) for x in c] == \
        [(i["rule"], i["severity"], i["message"], i["start_ts"], i["end_ts"]) for i in ins]
    for x, i in zip(c, ins):
        assert x["evidence"] == {e["name"]: pytest.approx(e["value"]) for e in i["evidence"]}


def _raw_flow_count(p):
    """The C flow cursor driven directly (no binding code in between)."""
    h = ctypes.c_void_p()
    o = S.new(S.nxp_flow_options)
    o.start_ts, o.end_ts, o.pcore_idx = S.INT64_MIN, S.INT64_MAX, -1
    assert fn.flow_cursor_open(ctypes.byref(h), p._handle(), ctypes.byref(o), None) == 0
    f = S.new(S.nxp_flow)
    n = 0
    while (rc := fn.flow_cursor_next(h, ctypes.byref(f))) == 0:
        n += 1
    fn.flow_cursor_close(h)
    assert rc == S.NXP_END
    return n


def test_flows_against_tables(sample):
    with nxp.Profile(*sample) as p:
        flows = list(p.flows())
        assert len(flows) == _raw_flow_count(p) > 0
        ins = {i.id: i for i in p.instructions()}
        dma = {d.id: d for d in p.dma_packets()}
        sem = list(p.semaphore_updates())
        kinds = collections.Counter(f.dependency_type for f in flows)
        assert set(kinds) <= {"semaphore_wait", "dma_trigger", "dma_completion", "semaphore_signal"}
        for f in flows:
            assert f.gap_time == f.out_ts - f.in_ts
            if f.dependency_type == "semaphore_wait":
                assert (f.in_table, f.out_table, f.exact) == ("SemaphoreUpdate", "Instruction", 1)
                i = ins[f.out_id]
                assert f.in_ts == sem[f.in_id].timestamp and f.out_ts == i.start_ts + i.evt_wait_time_ns
            elif f.dependency_type == "dma_trigger":
                assert (f.in_table, f.out_table) == ("Instruction", "DmaPacket")
                assert f.in_ts == ins[f.in_id].end_ts and f.out_ts == dma[f.out_id].start_ts
            elif f.dependency_type == "dma_completion":
                assert (f.in_table, f.out_table) == ("DmaPacket", "SemaphoreUpdate")
                assert f.in_ts == dma[f.in_id].end_ts and f.out_ts == sem[f.out_id].timestamp
            else:
                assert (f.in_table, f.out_table) == ("Instruction", "SemaphoreUpdate")
                assert f.out_ts == sem[f.out_id].timestamp
        # a time window keeps exactly the edges whose out_ts falls in it
        mid = sorted(f.out_ts for f in flows)[len(flows) // 2]
        assert len(list(p.flows(start=mid))) == sum(1 for f in flows if f.out_ts >= mid)
        # "what did this record wait on": the same edges as the stream
        w = next(f for f in flows if f.dependency_type == "semaphore_wait")
        got = p.flows_of("Instruction", w.out_id, "waited_on")
        assert w in got and all(g.out_id == w.out_id and g.out_table == "Instruction" for g in got)
        assert w in p.flows_of("SemaphoreUpdate", w.in_id, "unblocked")
        with pytest.raises(nxp.NotFoundError):
            p.flows_of("Instruction", 10 ** 12)
        with pytest.raises(nxp.InvalidArgumentError):
            p.flows_of("Instruction", 0, "sideways")
        c = p.flows()
    with pytest.raises(nxp.InvalidArgumentError):
        next(c)  # closing the profile closed the flow cursor


def test_compare_capture(capture, cli):
    rows = nxp.compare_capture(capture["root"])
    c = _cli_json(cli, "compare", capture["root"])["profiles"]
    assert [r.profile_index for r in rows] == [x["profile_index"] for x in c]
    for r, x in zip(rows, c):
        assert (r.ntff_path, r.total_ns, r.gap_ns, r.status, r.explaining_figure) == \
            (x["ntff"], x["total_ns"], x["gap_ns"], x["status"], x["explaining_figure"])
        assert r.engine_active_ns == x["engine_active_ns"] and r.dma_bytes == x["dma_bytes"]
    ok = [r for r in rows if r.status == 0]
    assert ok and min(r.gap_ns for r in ok) == 0
    with nxp.Capture(capture["root"]) as cap:
        for r in ok:
            with cap.open_profile(r.profile_index) as p:
                assert r.total_ns == round(p.summary()["total_time"] * 1e9)
        assert nxp.compare_capture(cap) == rows
    assert all(i["rule"] in nxp.INSIGHT_RULES for i in rows.insights)
    with pytest.raises(FileNotFoundError):
        nxp.compare_capture(capture["root"] + "/missing")
