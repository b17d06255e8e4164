# SPDX-License-Identifier: MIT
"""nxp.Neff on real files: the generated pair (known contents) and the sample
(cross-checked against `nxp info --json`)."""
import json
import subprocess

import pytest

import nxp
import nxp.testing as T


def test_header_and_tables(pair):
    with nxp.Neff(pair["neff"]) as n:
        h = n.header
        assert set(nxp._neff.HEADER_KEYS) <= set(h)
        assert h["header_size"] == 1024
        assert h["uuid"] == T.UUID.hex()
        assert h["name"] == "demo-net"
        assert h["neff_version_major"] == 2 and h["payload_gzip"] is True
        import os
        assert h["data_size"] == os.path.getsize(pair["neff"]) - 1024
        (sg,) = n.subgraphs
        assert sg.name == "sg00" and sg.definition == "sg00/def.json"
        assert sg.instruction_count == [len(T.PROGRAMS[e][2]) for e in nxp.ENGINES]
        assert sorted((t.variable_name, t.type, t.size) for t in n.tensors) == [
            ("IN", "input", 4096), ("OUT", "output", 2048), ("W0", "file", 65536)]
        assert {(q.name, q.type, q.neff_type) for q in n.dma_queues} == {("IN_QUE", "input", "in"),
                                                                        ("q_out", "output", "out")}


def test_engines_and_instructions(pair):
    with nxp.Neff(pair["neff"]) as n:
        engines = n.engines
        assert [e.name for e in engines] == list(nxp.ENGINES)
        for e in engines:
            prog = T.PROGRAMS[e.name][2]
            ins = list(e.instructions())
            assert len(e) == len(prog) == len(ins)
            assert [i.opcode_num for i in ins] == prog
            assert [i.pc for i in ins] == list(range(len(prog)))
            assert all(len(i.raw) == 64 and i.raw[0] == i.opcode_num for i in ins)
        mm = n.instruction(0, "tensor", 1)
        assert mm.opcode == "MATMUL" and mm.tensor_instruction_type == "MATMUL"
        assert mm.src.address == 0x5600 and mm.src.num_elem == [128, 1, 1]
        assert mm.raw_flops > 0
        assert n.instruction(0, "pe", 1) == mm, "engine short names work too"
        # the raw bytes decode to the same instruction without a NEFF
        d = nxp.decode_instruction(mm.raw, "tensor")
        assert (d.opcode, d.operands, d.raw_flops) == (mm.opcode, mm.operands, mm.raw_flops)
        with pytest.raises(nxp.RangeError) as ei:
            n.instruction(0, "tensor", 99)
        assert ei.value.code == nxp.constants.NXP_E_RANGE
        with pytest.raises(nxp.RangeError):
            n.instruction_count(5, "tensor")


def test_from_bytes_equals_from_path(pair):
    data = open(pair["neff"], "rb").read()
    with nxp.Neff(data) as a, nxp.Neff(pair["neff"]) as b:
        assert a.header == b.header
        assert a.tensors == b.tensors
        assert a.dma_queues == b.dma_queues
    assert nxp.parse_header(data[:1024], len(data))["uuid"] == T.UUID.hex()


def test_verify_hash_detects_corruption(pair, tmp_path):
    data = bytearray(open(pair["neff"], "rb").read())
    with nxp.Neff(bytes(data), verify_hash=True) as n:
        assert n.header["hash_verified"] is True
    data[-5] ^= 0xFF  # inside the gzip trailer / payload
    with pytest.raises(nxp.Error) as ei:
        nxp.Neff(bytes(data), verify_hash=True)
    assert ei.value.code < 0 and ei.value.message


def test_sample_matches_cli(sample, cli):
    neff, _ = sample
    info = json.loads(subprocess.run([cli, "info", "--json", neff], check=True, capture_output=True,
                                     text=True).stdout)
    with nxp.Neff(neff) as n:
        h = n.header
        for k, v in info["header"].items():
            assert h[k] == v, k
        assert [t._asdict() if hasattr(t, "_asdict") else t for t in n.tensors] == info["tensors"]
        assert [q._asdict() for q in n.dma_queues] == info["dma_queues"]
        subs = n.subgraphs
        assert [s.name for s in subs] == [s["name"] for s in info["subgraphs"]]
        for s, cs in zip(subs, info["subgraphs"]):
            assert dict(zip(nxp.ENGINES, s.instruction_count)) == cs["instruction_count"]
        assert n.has_kernel_debug_info == info["kernel_debug_info"]
