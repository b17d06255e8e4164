# SPDX-License-Identifier: MIT
"""Misuse and bad input raise clean errors (code, message, offset); handles do not leak."""
import gc
import os

import pytest

import nxp
import nxp.testing as T


def test_closed_handles(pair):
    p = nxp.Profile(pair["neff"], pair["ntff"])
    c = p.instructions()
    n = p.neff
    p.close()
    p.close()  # twice is fine
    assert p.closed
    for f in (lambda: p.metadata, p.instructions, p.summary, p.opcode_summary, lambda: p.neff):
        with pytest.raises(nxp.InvalidArgumentError) as ei:
            f()
        assert ei.value.code == nxp.constants.NXP_E_INVAL and "closed" in ei.value.message
    with pytest.raises(nxp.InvalidArgumentError):
        next(c)  # closing the profile closed its cursor
    with pytest.raises(nxp.InvalidArgumentError):
        n.header  # the borrowed NEFF went with the profile
    neff = nxp.Neff(pair["neff"])
    neff.close()
    with pytest.raises(nxp.InvalidArgumentError):
        neff.tensors
    with nxp.Profile(pair["neff"], pair["ntff"]) as p2:
        c2 = p2.instructions()
        c2.close()
        with pytest.raises(nxp.InvalidArgumentError):
            next(c2)
        with pytest.raises(nxp.InvalidArgumentError):
            c2.seek(0)


def test_wrong_types(pair):
    with pytest.raises(TypeError):
        nxp.Profile(123, pair["ntff"])
    with pytest.raises(TypeError):
        nxp.Neff(None)
    with nxp.Profile(pair["neff"], pair["ntff"]) as p:
        with pytest.raises(TypeError):
            p.instructions(engine=2.5)
        with pytest.raises(TypeError):
            p.instructions(start="0")
        with pytest.raises(TypeError):
            p.dma_packets(queue=7)
        with pytest.raises(nxp.InvalidArgumentError):
            p.instructions(engine="warp")
        with pytest.raises(nxp.RangeError):
            p.instructions(engine=9)
        with pytest.raises(nxp.InvalidArgumentError):
            p.cursor(99)
    with pytest.raises(TypeError):
        nxp.decode_instruction("not bytes", 0)


def test_missing_files(tmp_path, pair):
    missing = str(tmp_path / "nope.neff")
    with pytest.raises(nxp.InputOutputError) as ei:
        nxp.Neff(missing)
    assert ei.value.code == nxp.constants.NXP_E_IO and ei.value.message
    with pytest.raises(nxp.InputOutputError):
        nxp.Profile(missing, pair["ntff"])
    with pytest.raises(nxp.InputOutputError):
        nxp.Profile(pair["neff"], str(tmp_path / "nope.ntff"))


def test_mismatched_pair(tmp_path, pair):
    other = T.make_pair(str(tmp_path), iterations=2, ntff_uuid=bytes(16 * [9]))
    with pytest.raises(nxp.MismatchError) as ei:
        nxp.Profile(pair["neff"], other["ntff"])
    e = ei.value
    assert e.code == nxp.constants.NXP_E_MISMATCH
    assert T.UUID.hex() in e.message and "09090909" in e.message
    with nxp.Profile(pair["neff"], other["ntff"], allow_mismatch=True) as p:
        assert sum(1 for _ in p.instructions()) == other["instructions"]


def test_not_a_neff_reports_offset(tmp_path):
    bad = tmp_path / "bad.neff"
    bad.write_bytes(b"\x01" * 1500)
    with pytest.raises(nxp.Error) as ei:
        nxp.Neff(str(bad))
    assert ei.value.code < 0 and ei.value.message and ei.value.offset >= 0
    with pytest.raises(nxp.TruncatedError) as ei:
        nxp.Neff(b"\0" * 100)
    assert ei.value.code == nxp.constants.NXP_E_TRUNCATED


def test_truncated_ntff(tmp_path, pair):
    data = open(pair["ntff"], "rb").read()
    cut = tmp_path / "cut.ntff"
    cut.write_bytes(data[: len(data) // 2])
    with pytest.raises(nxp.Error) as ei:
        with nxp.Profile(pair["neff"], str(cut)) as p:
            list(p.instructions())
    assert ei.value.code < 0 and ei.value.message


def test_corrupt_section_is_detected(tmp_path, big_pair):
    data = bytearray(open(big_pair["ntff"], "rb").read())
    i = len(data) // 3
    data[i:i + 16] = bytes(b ^ 0x5A for b in data[i:i + 16])
    bad = tmp_path / "bad.ntff"
    bad.write_bytes(bytes(data))
    try:
        with nxp.Profile(big_pair["neff"], str(bad)) as p:
            n = 0
            c = p.instructions()
            for _ in c:
                n += 1
            st = c.stats()
    except nxp.Error as e:
        assert e.code < 0 and e.message and e.offset >= 0
    else:
        # a damaged section is skipped and counted, never returned as data
        assert n < big_pair["instructions"]
        assert st["skipped_sections"] + st["bad_records"] > 0 and st["last_bad_offset"] >= 0


def _fds():
    return len(os.listdir("/proc/self/fd"))


def _rss_kb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def test_no_handle_leaks(pair):
    def cycle(k):
        for i in range(k):
            with nxp.Profile(pair["neff"], pair["ntff"]) as p:
                for c in (p.instructions(), p.dma_packets(), p.active_time()):
                    next(c)
                    c.close()
                p.instructions()  # left open: closed by the profile
                p.summary()
            with nxp.Neff(pair["neff"]) as n:
                n.tensors
            nxp.Profile(pair["neff"], pair["ntff"]).neff  # never closed; a cycle: freed by the collector
            if i % 25 == 0:
                gc.collect()
        gc.collect()

    cycle(30)  # warm up allocator pools and caches
    fds, rss = _fds(), _rss_kb()
    cycle(300)
    assert _fds() == fds
    if "libasan" in os.environ.get("LD_PRELOAD", ""):
        return  # ASan's quarantine holds freed memory: RSS says nothing there
    grew = _rss_kb() - rss
    assert grew < 8 * 1024, f"RSS grew by {grew} kB over 300 open/close cycles"
