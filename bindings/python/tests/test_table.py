# SPDX-License-Identifier: MIT
"""Columnar API: Profile.arrow_stream (PyCapsule, read by a consumer written
here against the Arrow C Data/Stream spec), to_numpy, to_pandas and
export_parquet, compared with the record cursors on the bundled sample and a
synthetic LNC=2 profile."""
import ctypes
import gc
import os
import subprocess
from ctypes import POINTER, byref

import pytest

import nxp
from nxp import _structs as S
from nxp import _table

np = pytest.importorskip("numpy")

NUMERIC4 = ["start_ts", "duration_ns", "pc", "evt_wait_time_ns"]


@pytest.fixture(scope="module")
def lnc2(tmp_path_factory, cli):
    prefix = str(tmp_path_factory.mktemp("lnc2") / "P")
    subprocess.run([cli, "synth", "--workload", "mlp", "--arch", "trn2", "--lnc", "2", "--seed", "3", "-o", prefix,
                    "--quiet"], check=True)
    return prefix + ".neff", prefix + ".ntff"


@pytest.fixture(params=["sample", "lnc2"])
def profile(request):
    neff, ntff = request.getfixturevalue(request.param)
    with nxp.Profile(neff, ntff) as p:
        yield p


# ------------------------------------------------------------------ a consumer of the capsule

_GetPointer = ctypes.pythonapi.PyCapsule_GetPointer
_GetPointer.restype = ctypes.c_void_p
_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_IsValid = ctypes.pythonapi.PyCapsule_IsValid
_IsValid.restype = ctypes.c_int
_IsValid.argtypes = [ctypes.py_object, ctypes.c_char_p]


def take_stream(obj):
    """What a consumer does: call __arrow_c_stream__, check the capsule's name,
    move the stream struct out (the capsule keeps a released one)."""
    cap = obj.__arrow_c_stream__()
    assert type(cap).__name__ == "PyCapsule"
    assert _IsValid(cap, b"arrow_array_stream") == 1
    ptr = _GetPointer(cap, b"arrow_array_stream")
    src = S.ArrowArrayStream.from_address(ptr)
    assert src.release, "a fresh stream has a release callback"
    mine = S.ArrowArrayStream()
    ctypes.memmove(byref(mine), ptr, ctypes.sizeof(mine))
    src.release = S.STREAM_RELEASE()  # moved: the capsule's copy is released
    return cap, mine


def bits(addr, i):
    return (ctypes.c_uint8.from_address(addr + i // 8).value >> (i % 8)) & 1


def consume(stream):
    """Read a stream per the spec: schema, then batches until a released array.
    Returns (formats, {name: [values]}) and releases everything."""
    sch = S.ArrowSchema()
    assert stream.get_schema(byref(stream), byref(sch)) == 0
    assert sch.format == b"+s" and sch.release
    fmts, names = {}, []
    for i in range(sch.n_children):
        c = sch.children[i].contents
        names.append(c.name.decode())
        fmts[names[-1]] = (c.format.decode(), c.dictionary.contents.format.decode() if c.dictionary else None,
                           bool(c.flags & S.ARROW_FLAG_NULLABLE))
    sch.release(byref(sch))
    assert not sch.release, "release sets release to NULL"
    vals = {n: [] for n in names}
    while True:
        arr = S.ArrowArray()
        rc = stream.get_next(byref(stream), byref(arr))
        assert rc == 0, ctypes.string_at(stream.get_last_error(byref(stream)))
        if not arr.release:
            break
        assert arr.n_children == len(names) and arr.n_buffers == 1 and arr.null_count == 0
        for i, n in enumerate(names):
            a = arr.children[i].contents
            assert a.length == arr.length
            f, d, _ = fmts[n]
            out = vals[n]
            for r in range(a.length):
                j = a.offset + r
                if a.null_count and a.buffers[0] and not bits(a.buffers[0], j):
                    out.append(None)
                elif d is not None:
                    assert a.n_buffers == 2 and f == "i"
                    code = ctypes.c_int32.from_address(a.buffers[1] + 4 * j).value
                    dd = a.dictionary.contents
                    o = ctypes.c_int32.from_address(dd.buffers[1] + 4 * (dd.offset + code)).value
                    e = ctypes.c_int32.from_address(dd.buffers[1] + 4 * (dd.offset + code + 1)).value
                    out.append(ctypes.string_at(dd.buffers[2] + o, e - o).decode())
                elif f == "l":
                    assert a.n_buffers == 2
                    out.append(ctypes.c_int64.from_address(a.buffers[1] + 8 * j).value)
                elif f == "i":
                    out.append(ctypes.c_int32.from_address(a.buffers[1] + 4 * j).value)
                elif f == "g":
                    out.append(ctypes.c_double.from_address(a.buffers[1] + 8 * j).value)
                elif f == "b":
                    out.append(bool(bits(a.buffers[1], j)))
                elif f == "u":
                    assert a.n_buffers == 3
                    o = ctypes.c_int32.from_address(a.buffers[1] + 4 * j).value
                    e = ctypes.c_int32.from_address(a.buffers[1] + 4 * (j + 1)).value
                    out.append(ctypes.string_at(a.buffers[2] + o, e - o).decode())
                else:
                    pytest.fail(f"unexpected format {f} of {n}")
        arr.release(byref(arr))
        assert not arr.release
    stream.release(byref(stream))
    assert not stream.release
    return fmts, vals


def test_capsule_stream_matches_cursor(profile):
    cols = ["start_ts", "duration_ns", "engine", "opcode", "pc", "evt_wait_time_ns", "pc_in_neff"]
    cap, stream = take_stream(profile.arrow_stream("Instruction", columns=cols, batch_rows=1000))
    fmts, vals = consume(stream)
    assert list(fmts) == cols
    assert fmts["start_ts"] == ("l", None, False)
    assert fmts["engine"][:2] == ("i", "u") and fmts["opcode"][:2] == ("i", "u")
    assert fmts["pc_in_neff"][0] == "b"
    recs = list(profile.instructions())
    assert len(vals["start_ts"]) == len(recs) > 1000
    for c in ("start_ts", "duration_ns", "engine", "opcode", "pc", "evt_wait_time_ns"):
        assert vals[c] == [getattr(r, c) for r in recs], c
    del cap
    gc.collect()


def test_capsule_not_consumed_is_released_by_its_destructor(sample):
    with nxp.Profile(*sample) as p:
        before = len(_table._live)
        s = p.arrow_stream("DmaPacket")
        caps = [s.__arrow_c_stream__() for _ in range(3)]  # each call: a new stream
        assert len(_table._live) == before + 3
        del caps
        gc.collect()
        assert len(_table._live) == before


def test_stream_after_profile_close_fails_cleanly(sample):
    p = nxp.Profile(*sample)
    cap, stream = take_stream(p.arrow_stream("Instruction", columns=["start_ts"], batch_rows=100))
    arr = S.ArrowArray()
    assert stream.get_next(byref(stream), byref(arr)) == 0 and arr.length == 100
    p.close()
    # The batch received stays valid; the stream refuses to read further.
    assert ctypes.c_int64.from_address(arr.children[0].contents.buffers[1]).value > 0
    arr.release(byref(arr))
    arr2 = S.ArrowArray()
    rc = stream.get_next(byref(stream), byref(arr2))
    assert rc != 0
    assert b"closed" in ctypes.string_at(stream.get_last_error(byref(stream)))
    stream.release(byref(stream))
    assert not stream.release


def test_capsule_stream_all_tables_schema(sample):
    with nxp.Profile(*sample) as p:
        for t in ("Instruction", "DmaPacket", "SemaphoreUpdate", "ExecutionInfo", "ActiveTime", "OpcodeSummary",
                  "Summary", "Metadata", "NeffHeader", "TensorInfo", "DmaQueuesInfo", "Warning", "SchemaFields"):
            cap, stream = take_stream(p.arrow_stream(t))
            fmts, vals = consume(stream)
            assert fmts, t
            d = p.to_numpy(t)
            assert list(d) == list(fmts), t
            for n, v in vals.items():
                got = d[n].tolist() if not isinstance(d[n], np.ma.MaskedArray) else d[n].filled(0).tolist()
                want = v if not isinstance(d[n], np.ma.MaskedArray) else [0 if x is None else x for x in v]
                assert got == want, (t, n)


# ------------------------------------------------------------------ numpy / pandas vs the cursors


def test_to_numpy_matches_cursor(profile):
    d = profile.to_numpy("Instruction")
    recs = list(profile.instructions())
    n = len(recs)
    assert all(len(v) == n for v in d.values())
    assert d["start_ts"].dtype == np.int64 and d["engine_id"].dtype == np.int32 and d["pc_in_neff"].dtype == bool
    for c in ("start_ts", "end_ts", "duration_ns", "pc", "evt_wait_time_ns", "id", "engine", "opcode", "operands",
              "engine_id", "opcode_num", "pcore_idx"):
        assert d[c].tolist() == [getattr(r, c) for r in recs], c
    assert (np.diff(d["start_ts"]) >= 0).all(), "time order"
    # Empty-string-as-null columns: None exactly where the record has "".
    assert d["tensor_instruction_type"].tolist() == [r.tensor_instruction_type or None for r in recs]
    assert int(d["duration_ns"].sum()) == sum(r.duration_ns for r in recs)


def test_to_numpy_filters_and_projection(lnc2):
    with nxp.Profile(*lnc2) as p:
        full = p.to_numpy("Instruction", columns=NUMERIC4)
        assert list(full) == NUMERIC4
        assert set(np.unique(p.to_numpy("Instruction", columns=["pcore_idx"])["pcore_idx"]).tolist()) == {0, 1}
        mid = int(np.median(full["start_ts"]))
        for kw in ({"pcore": 1}, {"engine": "vector"}, {"start": mid}, {"end": mid, "pcore": 0}):
            d = p.to_numpy("Instruction", columns=["start_ts", "duration_ns"], **kw)
            recs = list(p.instructions(**kw))
            assert len(recs) > 0, kw
            assert d["start_ts"].tolist() == [r.start_ts for r in recs], kw
            assert d["duration_ns"].tolist() == [r.duration_ns for r in recs], kw
        q = next(iter(p.dma_packets())).queue_name
        d = p.to_numpy("DmaPacket", columns=["queue_name", "transfer_bytes"], queue=q)
        recs = list(p.dma_packets(queue=q))
        assert set(d["queue_name"].tolist()) == {q}
        assert int(d["transfer_bytes"].sum()) == sum(r.transfer_bytes for r in recs)


def test_dictionary_codes(lnc2):
    with nxp.Profile(*lnc2) as p:
        codes, cats = p.to_numpy("Instruction", columns=["opcode"], dictionary="codes", batch_rows=777)["opcode"]
        assert codes.dtype == np.int32 and len(set(cats)) == len(cats)
        assert [cats[c] for c in codes.tolist()] == [r.opcode for r in p.instructions()]


def test_masked_nulls(profile):
    """ActiveTime.engine_id is null for DMA rows: a masked array, Int32 with NA in pandas."""
    d = profile.to_numpy("ActiveTime", columns=["engine", "engine_id", "duration_ns"])
    recs = list(profile.active_time())
    assert d["engine"].tolist() == [r.engine for r in recs]
    dma = [r.engine == "dma" for r in recs]
    assert any(dma) and not all(dma)
    e = d["engine_id"]
    assert isinstance(e, np.ma.MaskedArray) and e.dtype == np.int32
    assert e.mask.tolist() == dma
    assert e.compressed().tolist() == [r.engine_id for r in recs if r.engine != "dma"]
    pd = pytest.importorskip("pandas")
    df = profile.to_pandas("ActiveTime", columns=["engine_id"])
    assert str(df["engine_id"].dtype) == "Int32"
    assert df["engine_id"].isna().tolist() == dma


def test_to_pandas(profile):
    pd = pytest.importorskip("pandas")
    df = profile.to_pandas("DmaPacket")
    recs = list(profile.dma_packets())
    assert len(df) == len(recs)
    assert str(df["queue_name"].dtype) == "category" and str(df["queue_type"].dtype) == "category"
    assert df["start_ts"].dtype == np.int64
    assert df["queue_name"].astype(object).where(df["queue_name"].notna(), "").tolist() == \
        [r.queue_name for r in recs]
    assert int(df["transfer_bytes"].sum()) == sum(r.transfer_bytes for r in recs)
    top = df.groupby("queue_name", observed=True)["transfer_bytes"].sum()
    for q, total in top.items():
        assert total == sum(r.transfer_bytes for r in recs if r.queue_name == q)
    ins = profile.to_pandas("Instruction", columns=["opcode", "duration_ns"])
    by_op = ins.groupby("opcode", observed=True)["duration_ns"].sum().to_dict()
    want = {}
    for r in profile.instructions():
        want[r.opcode] = want.get(r.opcode, 0) + r.duration_ns
    assert by_op == want
    sf = profile.to_pandas("SchemaFields")
    got = set(sf.loc[sf["table_name"] == "DmaPacket", "field_name"].astype(str))
    assert got == set(df.columns)


def test_misuse(sample):
    with nxp.Profile(*sample) as p:
        with pytest.raises(nxp.InvalidArgumentError):
            p.to_numpy("NoSuchTable")
        with pytest.raises(nxp.InvalidArgumentError):
            p.arrow_stream("Instruction", columns=["start_ts", "nope"])
        with pytest.raises(TypeError):
            p.to_numpy("Instruction", colour="red")
        with pytest.raises(TypeError):
            p.to_numpy("Instruction", columns="start_ts")
        with pytest.raises(ValueError):
            p.to_numpy("Instruction", dictionary="bogus")
        s = p.arrow_stream("Instruction")
    with pytest.raises(nxp.Error):
        p.to_numpy("Instruction")
    with pytest.raises(nxp.Error):
        s.__arrow_c_stream__()  # a new stream needs the open profile


def test_export_parquet(sample, tmp_path):
    if isinstance(nxp._lib.fn.profile_export_parquet, nxp._lib._Missing):
        pytest.skip("nxp_profile_export_parquet not in this libnxp")
    out = tmp_path / "pq"
    with nxp.Profile(*sample) as p:
        p.export_parquet(out, tables=["Instruction", "SchemaFields"])
        for t in ("Instruction", "SchemaFields"):
            b = (out / f"{t}.parquet").read_bytes()
            assert b[:4] == b"PAR1" and b[-4:] == b"PAR1" and len(b) > 100
        assert sorted(os.listdir(out)) == ["Instruction.parquet", "SchemaFields.parquet"]
        with pytest.raises(nxp.InvalidArgumentError):
            p.export_parquet(out, tables=["Instruction"])
        p.export_parquet(out, tables=["Instruction"], compression="none", overwrite=True)
        assert (out / "Instruction.parquet").read_bytes()[:4] == b"PAR1"
        with pytest.raises(ValueError):
            p.export_parquet(out, compression="lz4")
        # threads: the same files at 1 and 2; the report; Flow only when asked for
        r1 = p.export_parquet(tmp_path / "t1", threads=1)
        r2 = p.export_parquet(tmp_path / "t2", threads=2)
        assert r1 == r2 and r1["tables_written"] == len(os.listdir(tmp_path / "t1")) > 10
        assert r1["skipped_records"] == 0 and r1["skipped_sections"] == 0
        assert "Flow.parquet" not in os.listdir(tmp_path / "t1")
        for f in os.listdir(tmp_path / "t1"):
            assert (tmp_path / "t1" / f).read_bytes() == (tmp_path / "t2" / f).read_bytes(), f
        r = p.export_parquet(tmp_path / "t3", tables=["default", "Flow"], threads=2)
        assert r["tables_written"] == r1["tables_written"] + 1 and (tmp_path / "t3" / "Flow.parquet").exists()
        assert p.export_parquet(tmp_path / "t4", tables=["Instruction"])["skipped_records"] is None
        with pytest.raises(ValueError):
            p.export_parquet(out, threads=-1)
