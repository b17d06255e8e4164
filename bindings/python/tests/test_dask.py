# SPDX-License-Identifier: MIT
"""nxp.dask on a distributed.LocalCluster of 2 worker processes: every result
equals a serial read of the same profiles (nxp.Profile.to_pandas / summary)."""
import os
import subprocess

import pytest

try:
    import dask  # noqa: F401
    import distributed
    import pandas as pd
except ImportError as e:  # the interpreter running the tests has no dask
    pytest.skip(f"dask/distributed/pandas not importable ({e}); install python3-dask python3-distributed "
                "and run with /usr/bin/python3", allow_module_level=True)

import nxp  # noqa: E402
import nxp.dask  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
BINDINGS = os.path.dirname(HERE)
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))


@pytest.fixture(scope="module")
def client():
    # The worker processes inherit the environment: NXP_LIBRARY (which libnxp)
    # and a PYTHONPATH that finds this nxp package.
    pp = os.environ.get("PYTHONPATH", "")
    if BINDINGS not in pp.split(os.pathsep):
        os.environ["PYTHONPATH"] = BINDINGS + (os.pathsep + pp if pp else "")
    os.environ.setdefault("NXP_LIBRARY", nxp.library_path)
    cluster = distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None,
                                       silence_logs=40)
    c = distributed.Client(cluster)
    try:
        yield c
    finally:
        c.close()
        cluster.close()


@pytest.fixture(scope="module")
def capture(tmp_path_factory):
    cli = os.environ.get("NXP_CLI") or os.path.join(ROOT, "build", "examples", "nxp")
    if not os.path.exists(cli):
        pytest.skip("NXP_CLI not set (run through `meson test python`)")
    d = str(tmp_path_factory.mktemp("cap") / "capture")
    subprocess.run([cli, "synth", "--workload", "mlp", "--arch", "trn2", "--seed", "5", "--capture", d,
                    "--ranks", "3", "--lnc", "2", "--quiet"], check=True)
    return d


@pytest.fixture(scope="module")
def pairs(sample, tmp_path_factory):
    cli = os.environ.get("NXP_CLI") or os.path.join(ROOT, "build", "examples", "nxp")
    if not os.path.exists(cli):
        pytest.skip("NXP_CLI not set")
    prefix = str(tmp_path_factory.mktemp("pair") / "m")
    subprocess.run([cli, "synth", "--workload", "matmul", "--arch", "trn1", "--seed", "2", "-o", prefix, "--quiet"],
                   check=True)
    return [sample, (prefix + ".neff", prefix + ".ntff")]


def _serial(source, table, columns=None, **filters):
    frames = []
    for name, neff, ntff in nxp.dask.profiles(source):
        with nxp.Profile(neff, ntff) as p:
            df = p.to_pandas(table, columns=columns, **filters)
        df.insert(0, "profile", name)
        frames.append(df)
    return _plain(pd.concat(frames, ignore_index=True))


def _plain(df):
    """Categoricals as their values (partitions have their own categories)."""
    df = df.reset_index(drop=True)
    for c in df.columns:
        if isinstance(df[c].dtype, pd.CategoricalDtype):
            df[c] = df[c].astype(object)
    return df


def _same(got, want):
    got = _plain(got)
    assert list(got.columns) == list(want.columns)
    assert len(got) == len(want) and len(want) > 0
    pd.testing.assert_frame_equal(got, want, check_dtype=False, check_categorical=False)


def test_profiles_of_capture(capture):
    ps = nxp.dask.profiles(capture)
    assert len(ps) == 3
    with nxp.Capture(capture) as c:
        assert len([p for p in c.profiles if p.neff >= 0 and p.ntff >= 0]) == 3
    for name, neff, ntff in ps:
        assert os.path.isfile(neff) and os.path.isfile(ntff) and not os.path.isabs(name)


def test_read_table_capture(client, capture):
    ddf = nxp.dask.read_table(capture, "Instruction")
    assert ddf.npartitions == 3
    assert list(ddf.columns)[0] == "profile"
    _same(ddf.compute(), _serial(capture, "Instruction"))


def test_read_table_windows(client, capture):
    want = _serial(capture, "Instruction", columns=["start_ts", "opcode", "duration_ns", "pcore_idx"])
    span = max(want.groupby("profile").start_ts.agg(lambda s: s.max() - s.min()))
    ddf = nxp.dask.read_table(capture, "Instruction", columns=["start_ts", "opcode", "duration_ns", "pcore_idx"],
                              partition_ns=max(1, span // 5))
    assert ddf.npartitions >= 3 * 5
    _same(ddf.compute(), want)
    # each partition is one profile's window: a time-ordered run of one profile
    sizes = ddf.map_partitions(len).compute()
    assert sizes.sum() == len(want) and (sizes > 0).sum() >= 3 * 4


def test_read_table_filters_and_window(client, capture):
    all_ = _serial(capture, "Instruction", columns=["start_ts", "engine", "pc"])
    lo = int(all_.start_ts.quantile(0.25))
    hi = int(all_.start_ts.quantile(0.75))
    want = _serial(capture, "Instruction", columns=["start_ts", "engine", "pc"], engine="tensor", start=lo, end=hi)
    assert 0 < len(want) < len(all_)
    ddf = nxp.dask.read_table(capture, "Instruction", columns=["start_ts", "engine", "pc"], partition_ns=200_000,
                              engine="tensor", start=lo, end=hi)
    got = ddf.compute()
    _same(got, want)
    assert (got.engine == "tensor").all() and got.start_ts.min() >= lo and got.start_ts.max() < hi


def test_read_table_pairs_other_tables(client, pairs):
    for table in ("DmaPacket", "Execution" if "Execution" in nxp.Profile.table_names() else "ExecutionInfo",
                  "ActiveTime"):
        ddf = nxp.dask.read_table(pairs, table)
        assert ddf.npartitions == 2
        _same(ddf.compute(), _serial(pairs, table))


def test_summaries(client, capture, pairs):
    for source in (capture, pairs):
        got = nxp.dask.summaries(source)
        ps = nxp.dask.profiles(source)
        assert list(got.profile) == [n for n, _, _ in ps]
        for i, (name, neff, ntff) in enumerate(ps):
            with nxp.Profile(neff, ntff) as p:
                want = p.summary()
            row = got.iloc[i]
            assert want, name
            for k, v in want.items():
                assert row[k] == v, (name, k, row[k], v)
            # fields this profile lacks are NaN, not another profile's value
            for k in got.columns[1:]:
                if k not in want:
                    assert pd.isna(row[k]), (name, k)


def test_bad_arguments(capture, tmp_path):
    with pytest.raises(ValueError):
        nxp.dask.read_table(capture, "Instruction", partition_ns=0)
    with pytest.raises(ValueError):
        nxp.dask.profiles([])
    with pytest.raises(nxp.Error):
        nxp.dask.profiles(str(tmp_path))  # not a capture
