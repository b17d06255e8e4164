# SPDX-License-Identifier: MIT
"""Profile.export_timeline against the profile's own tables and the
independent checker tests/pftrace_check.py."""
import collections
import gzip
import json
import os
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
                                     secondary_group="nc_idx,trace_event_source")
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
