# SPDX-License-Identifier: MIT
"""nxp.Profile on real files: the generated pair (every table, exact facts), a
bigger pair spanning many C batches and compressed sections, and the sample
(cross-checked against `nxp summary --json`)."""
import collections
import json
import pickle
import subprocess

import pytest

import nxp
import nxp.testing as T


def test_metadata(pair):
    with nxp.Profile(pair["neff"], pair["ntff"]) as p:
        m = p.metadata
        assert m["arch"] == "trn2" and m["instance_type"] == "trn2.48xlarge" and m["profile_name"] == "demo"
        assert m["neff_uuid"] == T.UUID.hex()
        assert m["tpb_start_ts"] == pair["tpb_start"] and m["tpb_stop_ts"] == pair["tpb_stop"]
        events = pair["dma"] + pair["semaphores"] + pair["throttles"] + pair["errors"] + pair["executions"] + 2
        assert m["trace_count"] == pair["instructions"] + events
        assert m["event_count"] == events
        assert m["is_simulation"] == 1 and m["ntff_version"] == 6
        assert p.neff.header["name"] == "demo-net"


def test_instructions_exact(pair):
    with nxp.Profile(pair["neff"], pair["ntff"]) as p:
        recs = list(p.instructions())
        static = {(e.name, i.pc): i for e in p.neff.engines for i in e.instructions()}
    assert len(recs) == pair["instructions"]
    assert [r.id for r in recs] == list(range(len(recs)))
    starts = [r.start_ts for r in recs]
    assert starts == sorted(starts) and starts[0] == pair["first_ts"] and starts[-1] == pair["last_start"]
    per_engine = collections.Counter(r.engine for r in recs)
    assert dict(per_engine) == pair["per_engine"]
    seen = collections.Counter()
    for r in recs:
        i = seen[r.engine]
        seen[r.engine] += 1
        prog = T.PROGRAMS[r.engine][2]
        assert r.engine_id == T.ENGINE_IDS[r.engine]
        assert r.pc == i % len(prog)
        assert r.duration_ns == T.DURATION[r.engine] == r.end_ts - r.start_ts
        assert r.start_ts == pair["first_ts"] + i * (T.DURATION[r.engine] + 10)
        assert r.evt_wait_time_ns == (2 if i % 5 == 0 else 0)
        s = static[(r.engine, r.pc)]
        assert (r.opcode, r.opcode_num, r.operands) == (s.opcode, s.opcode_num, s.operands)
        assert r.flags == 0 and r.execution_index == 0


def test_filters_and_seek(pair):
    with nxp.Profile(pair["neff"], pair["ntff"]) as p:
        t = list(p.instructions(engine="tensor"))
        assert len(t) == pair["per_engine"]["tensor"] and {r.engine for r in t} == {"tensor"}
        assert [r.start_ts for r in p.instructions(engine=2)] == [r.start_ts for r in p.instructions(engine="act")]
        win = list(p.instructions(start=1100, end=1300))
        every = [r for r in p.instructions() if 1100 <= r.start_ts < 1300]
        assert [r._astuple() for r in win] == [r._astuple() for r in every] and win
        assert list(p.instructions(pcore=1)) == []
        c = p.instructions(engine="gpsimd")
        c.seek(1000 + 70 * 4)
        assert c.position == 1000 + 70 * 4
        assert next(c).start_ts == 1000 + 70 * 4
        st = c.stats()
        assert st["records"] >= 1 and st["bad_records"] == 0
        c.close()


def test_event_tables(pair):
    with nxp.Profile(pair["neff"], pair["ntff"]) as p:
        dma = list(p.dma_packets())
        assert len(dma) == pair["dma"]
        assert [d.start_ts for d in dma] == [1000 + 50 * i for i in range(pair["dma"])]
        d = dma[3]
        assert (d.queue_name, d.queue_type, d.variable, d.source, d.dest) == ("IN_QUE", "input", "IN", "hbm", "sbuf")
        assert (d.read_bytes, d.write_bytes, d.duration_ns, d.packet_aggregation_id) == (512, 512, 20, 1)
        assert list(p.dma_packets(queue="q_out")) == []
        assert len(list(p.dma_packets(queue="IN_QUE"))) == pair["dma"]
        sem = list(p.semaphore_updates())
        assert [(s.id, s.value, s.update_source, s.update_operation_type, s.update_trigger_timing) for s in sem] == [
            ("S[15]", v, "sync", "increment", "complete") for v in (1, 2, 3)]
        (th,) = p.throttles()
        assert (th.timestamp, th.duration, th.k, th.n, th.type) == (1200, 300, 3, 4, "power")
        (er,) = p.errors()
        assert (er.timestamp, er.type, er.error_type_id, er.description) == (1010, "Warnings", 7, "test warning")
        assert "abcd" in er.metadata_hex.lower()
        (ex,) = p.executions()
        assert (ex.execution_index, ex.neff_name, ex.execution_start_ts) == (0, "demo-net", 1000)


def test_active_time_consistent_with_instructions(pair):
    with nxp.Profile(pair["neff"], pair["ntff"]) as p:
        busy = collections.Counter()
        for r in p.instructions():
            busy[r.engine] += r.duration_ns - r.evt_wait_time_ns  # no overlaps within an engine here
        at = collections.Counter()
        for a in p.active_time():
            assert a.duration_ns == a.end_ts - a.start_ts > 0
            at[a.engine] += a.duration_ns
        assert at["dma"] == 20 * pair["dma"]
        del at["dma"]
        assert at == busy
        assert sum(a.duration_ns for a in p.active_time(engine="vector")) == busy["vector"]


def test_summary_consistent_with_records(pair):
    with nxp.Profile(pair["neff"], pair["ntff"]) as p:
        s = p.summary()
        ops = p.opcode_summary()
        counts = collections.Counter((r.engine, r.opcode) for r in p.instructions())
        times = collections.Counter()
        for r in p.instructions():
            times[(r.engine, r.opcode)] += r.duration_ns
    assert s["total_time"] == pytest.approx((pair["tpb_stop"] - pair["tpb_start"]) * 1e-9)
    for e, n in pair["per_engine"].items():
        assert s[f"{e}_engine_instruction_count"] == n
    assert {(o["engine"], o["opcode"]): o["instruction_count"] for o in ops} == dict(counts)
    assert {(o["engine"], o["opcode"]): o["instruction_time_ns"] for o in ops} == dict(times)
    for o in ops:
        assert o["active_time_percent"] == pytest.approx(o["active_time_ns"] * 1e-9 / s["total_time"])
    assert all(not k.endswith("_percent") or 0 <= v <= 1.0 + 1e-9 or "max_achievable" in k for k, v in s.items())


def test_many_batches_and_compressed_sections(big_pair):
    with nxp.Profile(big_pair["neff"], big_pair["ntff"]) as p:
        n = 0
        last = -1
        for r in p.instructions():
            assert r.id == n and r.start_ts >= last
            last = r.start_ts
            n += 1
        assert n == big_pair["instructions"] > 3 * nxp.BATCH
        # the engine filter and a window deep inside the trace
        assert sum(1 for _ in p.instructions(engine="sync")) == big_pair["per_engine"]["sync"]
        mid = list(p.instructions(start=50000, end=50100))
        assert mid and all(50000 <= r.start_ts < 50100 for r in mid)


def test_records_outlive_the_profile(pair):
    p = nxp.Profile(pair["neff"], pair["ntff"])
    cur = p.instructions()
    first = next(cur)
    rest = list(cur)
    p.close()
    assert first.opcode == "LDWEIGHTS" and first.engine == "tensor"  # strings resolved at close
    assert rest[-1].operands
    d = first._asdict()
    assert list(d) == list(nxp.Instruction._fields) and d["opcode"] == "LDWEIGHTS"
    again = pickle.loads(pickle.dumps(first))
    assert again == first and again.opcode == "LDWEIGHTS" and isinstance(again, nxp.Instruction)
    assert "opcode='LDWEIGHTS'" in repr(first)
    assert len(first) == len(nxp.Instruction._fields) and list(first) == list(d.values())


def test_bytes_sources(pair):
    neff = open(pair["neff"], "rb").read()
    ntff = open(pair["ntff"], "rb").read()
    with nxp.Profile(neff, ntff) as p, nxp.Profile(pair["neff"], pair["ntff"]) as q:
        assert [r._astuple() for r in p.instructions()] == [r._astuple() for r in q.instructions()]


def test_sample_matches_cli(sample, cli):
    neff, ntff = sample
    out = json.loads(subprocess.run([cli, "summary", "--json", neff, ntff], check=True, capture_output=True,
                                    text=True).stdout)
    with nxp.Profile(neff, ntff) as p:
        s = p.summary()
        ops = p.opcode_summary()
        thr = p.throttle_summary()
        n = sum(1 for _ in p.instructions())
        starts = [r.start_ts for r in p.instructions()]
    fields = {k: v for k, v in out.items() if not isinstance(v, list)}
    assert set(s) == set(fields)
    for k, v in fields.items():
        assert s[k] == pytest.approx(v, rel=1e-12), k
    assert ops == out["opcode_summary"]
    assert [{k: pytest.approx(v) if isinstance(v, float) else v for k, v in t.items()} for t in thr] == \
        out["throttle_summary"]
    assert n == sum(o["instruction_count"] for o in ops)
    assert starts == sorted(starts)


TIME_FIELD = {"instructions": "start_ts", "dma_packets": "start_ts", "semaphore_updates": "timestamp",
              "throttles": "timestamp", "errors": "timestamp", "executions": "execution_start_ts",
              "active_time": "start_ts"}


@pytest.mark.parametrize("table", sorted(TIME_FIELD))
def test_position_counts_fetched_records(pair, table):
    """position is None only when nothing remains: records the binding has
    already fetched from C (the C cursor is then at its end) still count."""
    field = TIME_FIELD[table]
    with nxp.Profile(pair["neff"], pair["ntff"]) as p:
        want = [getattr(r, field) for r in getattr(p, table)()]
        assert len(want) >= 1
        c = getattr(p, table)()
        got = []
        while True:
            pos = c.position
            try:
                r = next(c)
            except StopIteration:
                break
            # A lower bound in C; with no bad records it is the record's own time.
            assert pos is not None and pos == getattr(r, field), (table, len(got))
            got.append(getattr(r, field))
        assert got == want
        assert c.position is None
        c.seek(want[-1])
        assert c.position == want[-1]
        c.close()


def test_position_across_batches(big_pair):
    with nxp.Profile(big_pair["neff"], big_pair["ntff"]) as p:
        want = [r.start_ts for r in p.instructions()]
        assert len(want) > 2 * nxp.BATCH
        c = p.instructions()
        for i, ts in enumerate(want):
            if i % 997 == 0 or i in (nxp.BATCH - 1, nxp.BATCH, len(want) - 1):
                assert c.position == ts, i
            assert next(c).start_ts == ts
        assert c.position is None
        c.seek(want[len(want) // 2])
        assert c.position == want[len(want) // 2] and next(c).start_ts == want[len(want) // 2]
