# SPDX-License-Identifier: MIT
"""Profile.export_timeline against the profile's own tables and the
independent checker tests/pftrace_check.py."""
import collections
import gzip
import json
import os
import re
import subprocess
import sys

import pytest

import nxp

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))


def _events(path):
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rt") as f:
        d = json.load(f)
    return d["traceEvents"] if isinstance(d, dict) else d


def test_chrome_json_one_slice_per_record(sample, tmp_path):
    with nxp.Profile(*sample) as p:
        out = str(tmp_path / "demo.json")
        stats = p.export_timeline(out, format="chrome-json")
        ins = list(p.instructions())
        n_dma = sum(1 for _ in p.dma_packets())
        n_exe = sum(1 for _ in p.executions())
        n_thr = sum(1 for _ in p.throttles())
    ev = _events(out)
    xs = [e for e in ev if e["ph"] == "X"]
    # one X slice per execution, instruction, DMA packet and throttle window (test_timeline.c's count)
    assert len(xs) == n_exe + len(ins) + n_dma + n_thr
    # every instruction opcode: as many slices by that name as instructions
    want = collections.Counter(i.opcode for i in ins)
    got = collections.Counter(e["name"] for e in xs)
    assert sum(want.values()) == len(ins) > 0
    for op, n in want.items():
        assert got[op] == n, op
    assert stats["events"] == len(xs) + sum(1 for e in ev if e["ph"] in ("C", "i", "I"))
    assert stats["bytes"] == os.path.getsize(out)
    assert stats["truncated"] == 0 and stats["read_errors"] == 0 and stats["bad_records"] == 0


def test_perfetto_and_checker(sample, tmp_path, cli):
    neff, ntff = sample
    pf, cj = str(tmp_path / "demo.pftrace"), str(tmp_path / "demo.json.gz")
    with nxp.Profile(neff, ntff) as p:
        s1 = p.export_timeline(pf)                       # perfetto is the default
        s2 = p.export_timeline(cj, format="chrome-json")  # gzip'd by its name
    assert os.path.getsize(pf) == s1["bytes"] > 0 and s1["tracks"] > 0
    with open(cj, "rb") as f:
        assert f.read(2) == b"\x1f\x8b"
    assert nxp.file_kind(cj) is nxp.FileKind.JSON_GZIP and s2["bytes"] == os.path.getsize(cj)
    checker = os.path.join(os.environ.get("NXP_SOURCE_ROOT") or ROOT, "tests", "pftrace_check.py")
    r = subprocess.run([sys.executable, checker, "--cli", cli, "--neff", neff, "--ntff", ntff, "--pftrace", pf,
                        "--chrome", cj], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_device_flows_option(sample, tmp_path):
    # The arrows are on by default and cost bytes; device_flows=False leaves
    # them out and writes the same events.
    on, off = str(tmp_path / "on.pftrace"), str(tmp_path / "off.pftrace")
    with nxp.Profile(*sample) as p:
        n_edges = sum(1 for _ in p.flows())
        s_on = p.export_timeline(on)
        s_off = p.export_timeline(off, device_flows=False)
    assert n_edges > 0 and s_on["flows"] > 0
    assert s_off["flows"] == 0
    assert s_on["events"] == s_off["events"]
    assert os.path.getsize(on) > os.path.getsize(off) == s_off["bytes"]


def test_filters_and_limits(sample, tmp_path):
    with nxp.Profile(*sample) as p:
        n_tensor = sum(1 for _ in p.instructions(engine="tensor"))
        tensor_ops = {i.opcode for i in p.instructions(engine="tensor")}
        e1 = list(p.executions())[1]
        out = str(tmp_path / "t.json")
        p.export_timeline(out, "chrome-json", engine="tensor")
        xs = [e for e in _events(out) if e["ph"] == "X" and e["name"] in tensor_ops]
        assert len(xs) >= n_tensor
        st = p.export_timeline(out, "chrome-json", execution=1, overwrite=True)
        for e in _events(out):
            if e["ph"] == "X":
                assert e1.execution_start_ts <= e["ts"] * 1000 + 1e-3 and e["ts"] * 1000 < e1.execution_end_ts + 1
        st = p.export_timeline(out, "chrome-json", max_events=10, overwrite=True)
        assert st["truncated"] == 1
        with pytest.raises(nxp.InvalidArgumentError):
            p.export_timeline(out, "chrome-json")          # exists, no overwrite
        with pytest.raises(nxp.InvalidArgumentError):
            p.export_timeline(str(tmp_path / "x"), "svg")
        with pytest.raises(nxp.InvalidArgumentError):
            p.export_timeline(str(tmp_path / "y"), execution=999)
        with pytest.raises(FileNotFoundError):
            p.export_timeline(str(tmp_path / "no" / "dir.pftrace"))
        assert not os.path.exists(str(tmp_path / "x")) and not os.path.exists(str(tmp_path / "y"))
    with pytest.raises(nxp.InvalidArgumentError):
        p.export_timeline(str(tmp_path / "z"))             # closed profile


def test_capture_timeline_combined_and_groups(cli, tmp_path):
    """nxp.export_capture_timeline: the files of a 2-rank synthetic capture,
    checked by tests/pftrace_capture_check.py with the grouping asked for."""
    cap, out = str(tmp_path / "cap"), str(tmp_path / "out")
    subprocess.run([cli, "synth", "--workload", "mlp", "--arch", "trn2", "--seed", "4", "--capture", cap,
                    "--ranks", "2", "--instructions", "3000", "--quiet"], check=True, stdout=subprocess.DEVNULL)
    st = nxp.export_capture_timeline(cap, out, combined=True, primary_group=["instance_id"],
                                     secondary_group="nc_idx,trace_event_source", device_flows=False)
    assert st["flows"] == 6 and st["unplaced_profiles"] == 0          # 2 ranks x 3 executions
    assert sorted(f for f in os.listdir(out) if not f.startswith("device_profile_")) == \
        ["combined_profile.pftrace", "system_profile.pftrace"]
    assert st["bytes"] == sum(os.path.getsize(os.path.join(out, f)) for f in os.listdir(out))
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "pftrace_capture_check.py"), "--cli", cli,
                        "--capture", cap, "--out", out, "--combined", "--primary", "instance_id",
                        "--secondary", "nc_idx,trace_event_source"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    with pytest.raises(nxp.InvalidArgumentError, match="unknown field 'pid'"):
        nxp.export_capture_timeline(cap, str(tmp_path / "bad"), primary_group="pid")
    assert not os.path.exists(str(tmp_path / "bad"))
    with pytest.raises(nxp.InvalidArgumentError, match="exists"):
        nxp.export_capture_timeline(cap, out)                          # overwrite not asked


def test_capture_timeline_hostile_system_rows(cli, tmp_path):
    """An ntrace.pb with sync points whose mapping overflows int64, nrt_execute
    rows with unparsable / negative / unknown execution indices, lnc_idx and
    flow_id attributes: the export succeeds, groups by what the rows carry
    (lnc_idx from the attribute, "abc" as unknown), chains the flow ids, and
    the independent checker agrees."""
    from nxp._syswriter import SysprofWriter
    cap, out = str(tmp_path / "cap"), str(tmp_path / "out")
    subprocess.run([cli, "synth", "--workload", "matmul", "--arch", "trn1", "--seed", "2", "--capture", cap,
                    "--ranks", "2", "--instructions", "500", "--quiet"], check=True, stdout=subprocess.DEVNULL)
    procs = sorted(d for d in os.listdir(cap) if d.startswith("i-"))
    m = procs[0].rsplit("_pid_", 1)
    with SysprofWriter(os.path.join(cap, procs[0], "ntrace.pb"), "ntrace", arch="trn1", pid=int(m[1]),
                       instance_id=m[0]) as w:
        big, small = str((1 << 63) - 1), str(-(1 << 63))
        w.event("timestamp_sync_point", "instant", {"cpu_timestamp_ns": big, "nc_timestamp_ns": small},
                timestamp=5000, nc_idx=0)
        for i, (ex, lnc, flow) in enumerate([("0", "7", "f1"), ("99999999999999999999", "abc", "f1"),
                                             ("-5", "", "f2"), ("1", "3", "f1"), ("x", "7", "")]):
            attrs = {"execution_index": ex, "lnc_idx": lnc, "worker_gid": str(i % 2)}
            if flow:
                attrs["flow_id"] = flow
            w.event("nrt_execute", "start", attrs, timestamp=1000 + 10 * i, tracking_id=i + 1, nc_idx=0,
                    thread_id=9)
            w.event(None, "stop", timestamp=1005 + 10 * i, tracking_id=i + 1, nc_idx=0)
    prim, sec = "instance_id,process_id", "worker_gid,lnc_idx,nc_idx"
    st = nxp.export_capture_timeline(cap, out, combined=True, secondary_group=sec, device_flows=False)
    assert st["flows"] >= 1                     # f1 on three rows; f2 alone makes no arrow
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "pftrace_capture_check.py"), "--cli", cli,
                        "--capture", cap, "--out", out, "--primary", prim, "--secondary", sec, "--combined"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "1 flows" in r.stdout, r.stdout                             # the system file: f1
    # the combined file: process 0's clock does not fit int64 (nothing placed, no
    # arrow); process 1's executions get theirs
    m = re.search(r"(\d+) instructions on host time \((\d+) not placeable\), (\d+) nrt_execute", r.stdout)
    assert m and int(m.group(1)) > 0 and int(m.group(2)) > 0 and int(m.group(3)) > 0, r.stdout
    assert st["flows"] == 1 + int(m.group(3))


def test_capture_timeline_profile_without_its_nrt_execute(cli, tmp_path):
    """A rank whose ntrace.pb keeps its sync points but whose nrt_execute rows
    carry no execution_index: its device profile is still placed on host time,
    as top-level groups "<NTFF name>: NeuronCore n pcore p", with no arrow; the
    other rank's executions keep theirs."""
    from nxp._syswriter import SysprofWriter
    cap, out = str(tmp_path / "cap"), str(tmp_path / "out")
    subprocess.run([cli, "synth", "--workload", "mlp", "--arch", "trn2", "--seed", "8", "--capture", cap,
                    "--ranks", "2", "--instructions", "2000", "--quiet"], check=True, stdout=subprocess.DEVNULL)
    d = sorted(x for x in os.listdir(cap) if x.startswith("i-"))[0]
    path = os.path.join(cap, d, "ntrace.pb")
    rows = [json.loads(l) for l in subprocess.run([cli, "dump", "--system", path, "--format", "jsonl"],
                                                  check=True, capture_output=True, text=True).stdout.splitlines()]
    inst, pid = d.rsplit("_pid_", 1)
    with SysprofWriter(path, "ntrace", arch="trn2", pid=int(pid), instance_id=inst) as w:
        for r in rows:
            if r["name"] == "timestamp_sync_point":
                w.event(r["name"], "instant", {k: str(v) for k, v in r["extra_attributes_json"].items()},
                        timestamp=r["start_ts"], nc_idx=r["nc_idx"])
            elif r["name"] == "nrt_execute":
                w.event(r["name"], "instant", {"neff_name": "x"}, timestamp=r["start_ts"], nc_idx=r["nc_idx"],
                        thread_id=r["thread_id"])
    st = nxp.export_capture_timeline(cap, out, combined=True, device_flows=False)
    assert st["unplaced_profiles"] == 0 and st["flows"] == 3          # the other rank's 3 executions
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "pftrace_capture_check.py"), "--cli", cli,
                        "--capture", cap, "--out", out, "--combined"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "no nrt_execute launched it: top-level groups" in r.stdout, r.stdout
    assert " 3 nrt_execute -> execution flows" in r.stdout, r.stdout
