# SPDX-License-Identifier: MIT
"""examples/python/top_opcodes.py prints the top five opcodes and the MFU of the sample."""
import os
import subprocess
import sys

import nxp
from conftest import ROOT


def test_top_opcodes_on_sample(sample):
    script = os.path.join(ROOT, "examples", "python", "top_opcodes.py")
    out = subprocess.run([sys.executable, script], check=True, capture_output=True, text=True).stdout
    lines = out.strip().splitlines()
    with nxp.Profile(*sample) as p:
        ops = sorted(p.opcode_summary(), key=lambda r: (-r["active_time_ns"], r["opcode"]))
        mfu = p.summary()["mfu_estimated_percent"]
    assert lines[0].split() == ["engine", "opcode", "count", "active_ns", "active%"]
    body = [ln.split() for ln in lines[1:-1]]
    assert len(body) == min(5, len(ops))
    for row, o in zip(body, ops):
        assert row[:4] == [o["engine"], o["opcode"], str(o["instruction_count"]), str(o["active_time_ns"])]
    assert lines[-1] == f"MFU: {mfu * 100:.2f}%"


def test_top_opcodes_bad_input(tmp_path):
    script = os.path.join(ROOT, "examples", "python", "top_opcodes.py")
    r = subprocess.run([sys.executable, script, str(tmp_path / "x.neff"), str(tmp_path / "x.ntff")],
                       capture_output=True, text=True)
    assert r.returncode == 1 and "top_opcodes:" in r.stderr
