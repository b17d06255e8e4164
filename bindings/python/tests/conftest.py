# SPDX-License-Identifier: MIT
"""Fixtures: a pair written with libnxp's writers (facts known exactly), the
bundled sample, and the abi_layout tool's view of the C headers."""
import json
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))

import nxp  # noqa: E402
import nxp.testing  # noqa: E402


@pytest.fixture(scope="session")
def pair(tmp_path_factory):
    """A fully known profile: see nxp.testing.make_pair (10 iterations, all tables)."""
    return nxp.testing.make_pair(str(tmp_path_factory.mktemp("pair")), iterations=10)


@pytest.fixture(scope="session")
def big_pair(tmp_path_factory):
    """Several C batches worth of instructions (12 per iteration), compressed sections."""
    return nxp.testing.make_pair(str(tmp_path_factory.mktemp("big")), iterations=1500, compress=True,
                                 records_per_section=1000)


@pytest.fixture(scope="session")
def sample():
    neff = os.path.join(ROOT, "samples", "demo.neff")
    ntff = os.path.join(ROOT, "samples", "demo.ntff")
    if not (os.path.exists(neff) and os.path.exists(ntff)):
        pytest.skip("samples/demo.neff + demo.ntff not present")
    return neff, ntff


def _tool(var):
    path = os.environ.get(var)
    if not path:
        pytest.skip(f"{var} not set (run through `meson test python`)")
    return path


@pytest.fixture(scope="session")
def layout():
    out = subprocess.run([_tool("NXP_LAYOUT_TOOL")], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


@pytest.fixture(scope="session")
def cli():
    return _tool("NXP_CLI")


@pytest.fixture(scope="session")
def kineto():
    """The real Kineto trace kept in the project (tests/data/kineto: pytorch/kineto's
    docs/traces/after_fix_trace.json, BSD-3-Clause; 75 events)."""
    root = os.environ.get("NXP_SOURCE_ROOT") or ROOT
    path = os.path.join(root, "tests", "data", "kineto", "after_fix_trace.json")
    assert os.path.exists(path), f"{path} is part of the project and must exist"
    return path


@pytest.fixture(scope="session")
def capture(tmp_path_factory):
    """A capture directory whose every fact is known: see nxp.testing.make_capture."""
    return nxp.testing.make_capture(str(tmp_path_factory.mktemp("capture")))
