# SPDX-License-Identifier: MIT
"""Make small, fully known NEFF/NTFF pairs with libnxp's own writers.

Used by the binding's tests and by bench_iter.py.  make_pair() returns the
paths and the facts a reader must find (counts, time bounds, sums), computed
here from the description, independently of the reader.
"""
import json
import os

from ._neff import Neff
from ._writer import NeffWriter, NtffWriter, encode_instruction

# Per engine: (NEFF member base name, short name, program as opcode numbers).
PROGRAMS = {
    "tensor": ("PE0", "pe", [0x01, 0x02, 0x02, 0x02]),      # LDWEIGHTS, MATMUL x3
    "vector": ("DVE0", "dve", [0x41, 0x46, 0x41]),          # TENSOR_TENSOR, COPY, TENSOR_TENSOR
    "scalar": ("Activation0", "act", [0x21, 0xA4]),       # ACTIVATE, NOP
    "gpsimd": ("Pool0", "pool", [0x45]),                   # POOL
    "sync": ("SP0", "sp", [0xA0, 0xA4]),                   # EVENT_SEMAPHORE, NOP
}
ENGINE_IDS = {"tensor": 0, "vector": 1, "scalar": 2, "gpsimd": 3, "sync": 4}
DURATION = {"tensor": 40, "vector": 30, "scalar": 25, "gpsimd": 60, "sync": 5}
UUID = bytes(range(1, 17))

_AP_SRC = {"address": 0x5600, "memory": 1, "dtype": 2, "step_elem": [1, 0, 0], "num_elem": [128, 1, 1]}
_AP_DST = {"address": 0x2000000, "memory": 2, "dtype": 1, "step_elem": [1, 0, 0], "num_elem": [64, 1, 1]}


def neff_bytes(uuid=UUID, name="demo-net"):
    """A one-subgraph NEFF with the PROGRAMS above, two DMA queue sets and three tensors."""
    w = NeffWriter(name=name, uuid=uuid)
    try:
        w.add("kelf-0.json", json.dumps({"graphs": [{"definition": "sg00/def.json", "name": "sg00"}],
                                         "version": "0.5", "target": "*"}))
        w.add("hlo_stats.json", json.dumps({"model_flops": 1000000}))
        d = {"name": "sg00", "version": "1.0",
             "var": {"IN": {"type": "input", "var_id": 0, "size": 4096},
                     "W0": {"type": "file", "var_id": 1, "size": 65536, "file_name": "w0.npy"},
                     "OUT": {"type": "output", "var_id": 2, "size": 2048}},
             "dma_queue": {"IN_QUE": {"type": "in"}, "q_out": {"type": "out", "owner": "act"}}}
        for eng, (base, short, prog) in PROGRAMS.items():
            d[short] = base + ".json"
            d[short + "_instr"] = base + ".bin"
            w.add(f"sg00/{base}.json", '{"dma": []}')
            code = b"".join(encode_instruction(op, eng, partitions=128, active_cols=64 if op == 0x02 else 0,
                                               src=_AP_SRC, dst=_AP_DST) for op in prog)
            w.add(f"sg00/{base}.bin", code)
        w.add("sg00/def.json", json.dumps(d))
        w.add("sg00/w0.npy", b"\0" * 128)
        return w.to_bytes()
    finally:
        w.close()


def make_pair(directory, iterations=10, uuid=UUID, ntff_uuid=None, compress=False, records_per_section=0,
              with_events=True, name="demo"):
    """Write <name>.neff and <name>.ntff into `directory`.

    Each engine runs its program `iterations` times back to back, starting at
    1000 ns; instruction i of an engine starts at 1000 + i * (DURATION + 10).
    Returns a dict: neff, ntff (paths), instructions (total), per_engine
    (counts), first_ts, last_start, tpb_start, tpb_stop, busy (sum of
    durations), dma (packet count), executions, throttles, errors, semaphores.
    """
    os.makedirs(directory, exist_ok=True)
    neff_path = os.path.join(directory, name + ".neff")
    ntff_path = os.path.join(directory, name + ".ntff")
    data = neff_bytes(uuid)
    with open(neff_path, "wb") as f:
        f.write(data)
    with Neff(data) as n:
        neff_hash = bytes.fromhex(n.header["hash"])
    facts = {"neff": neff_path, "ntff": ntff_path, "per_engine": {}, "busy": 0, "last_start": 0}
    t0 = 1000
    end_all = t0
    w = NtffWriter(ntff_path, compress=compress, records_per_section=records_per_section,
                   neff_uuid=ntff_uuid or uuid, neff_hash=neff_hash, arch="trn2", instance_type="trn2.48xlarge",
                   profile_name=name, runtime_version="2.0-test", tensor_engine_clock_freq=2.4,
                   neuroncore_clock_freq=1.2, tensor_engine_num_rows=128, tensor_engine_num_cols=128,
                   is_simulation=1)
    try:
        tpb = w.add_queue("tpb")
        w.note("tpb", tpb, tick=t0 - 100, is_stop=0)
        for eng, (_, _, prog) in PROGRAMS.items():
            q = w.add_queue("instruction", engine=eng)
            n = len(prog) * iterations
            step = DURATION[eng] + 10
            for i in range(n):
                s = t0 + i * step
                w.instruction(q, s, s + DURATION[eng], i % len(prog), wait_ticks=2 if i % 5 == 0 else 0,
                              execution_index=0)
            facts["per_engine"][eng] = n
            facts["busy"] += n * DURATION[eng]
            last = t0 + (n - 1) * step
            facts["last_start"] = max(facts["last_start"], last)
            end_all = max(end_all, last + DURATION[eng])
        facts["instructions"] = sum(facts["per_engine"].values())
        facts["first_ts"] = t0
        facts["dma"] = 0
        facts["semaphores"] = facts["throttles"] = facts["errors"] = 0
        if with_events:
            var = w.string("IN")
            dq = w.add_queue("dma", name="IN_QUE", queue_idx=0, engine_idx=0)
            for i in range(iterations):
                s = t0 + i * 50
                w.note("dma", dq, start_tick=s, end_tick=s + 20, packet_aggregation_id=i // 2, packet_idx=i % 2,
                       read_bytes=512, write_bytes=512, source=3, dest=1, execution_index=0, variable=var)
            facts["dma"] = iterations
            sq = w.add_queue("semaphore")
            for i in range(3):
                w.note("semaphore", sq, tick=t0 + i * 100, semaphore_idx=15, update_source=4, operation=1,
                       value=i + 1, trigger_complete=1)
            facts["semaphores"] = 3
            tq = w.add_queue("throttle")
            w.note("throttle", tq, tick=t0 + 200, duration_ticks=300, k=3, n=4, type=w.string("power"))
            facts["throttles"] = 1
            eq = w.add_queue("error")
            w.note("error", eq, tick=t0 + 10, error_type_id=7, type=2, description=w.string("test warning"),
                   metadata=0xABCD)
            facts["errors"] = 1
            xq = w.add_queue("execution")
            w.note("execution", xq, start_tick=t0, end_tick=end_all, execution_index=0, num_subgraphs=1,
                   neff_name=w.string("demo-net"), row_count=-1)
        facts["executions"] = 1 if with_events else 0
        w.note("tpb", tpb, tick=end_all + 100, is_stop=1)
        facts["tpb_start"] = t0 - 100
        facts["tpb_stop"] = end_all + 100
        w.finish()
    finally:
        w.close()
    return facts


# ---------------------------------------------------------------- system profiles
def write_ntrace(path, stream=False, chunk_events=0, instance_id="i-0abc", pid=4242):
    """An ntrace.pb with libnxp's writer: 8 raw events that pair into the 6 rows
    of NTRACE_ROWS (in the order a reader returns them)."""
    from ._syswriter import SysprofWriter
    with SysprofWriter(path, "ntrace", stream=stream, chunk_events=chunk_events, arch="trn2", pid=pid,
                       instance_id=instance_id, logical_nc_size=2) as w:
        w.string("nrt_load")
        w.string("kbl_exec_pre")
        w.event("nrt_execute", "start", {"model": "bert", "worker_gid": "5"}, timestamp=1000, tracking_id=7,
                nc_idx=3, thread_id=11, id=500)
        w.event("nc_exec_running", "start", timestamp=1100, tracking_id=8, nc_idx=3)
        w.event(None, "stop", timestamp=1900, tracking_id=8, nc_idx=3)
        w.event(None, "stop", [("status", "ok")], timestamp=2000, tracking_id=7, nrta_seq_id=99)
        w.event(timestamp=3000, event_type=1, duration=250)  # name from the string pool: kbl_exec_pre
        w.event("nrt_tensor_read", "stop", timestamp=3500, tracking_id=1234)  # STOP without START
        w.event("nrt_tensor_write", "start", timestamp=3600, tracking_id=1235)  # never stopped
        w.event("timestamp_sync_point", "instant", {"cpu_timestamp_ns": "4000", "nc_timestamp_ns": "777000"},
                timestamp=4000, nc_idx=3)
    return path


#: (name, phase, start_ts, end_ts, duration_ns, trace_event_source) of the rows of write_ntrace().
NTRACE_ROWS = [
    ("nc_exec_running", "X", 1100, 1900, 800, "neuron_hw"),
    ("nrt_execute", "X", 1000, 2000, 1000, "neuron_rt"),
    ("kbl_exec_pre", "X", 3000, 3250, 250, "neuron_rt"),
    ("nrt_tensor_read", "E", 3500, 3500, 0, "neuron_rt"),
    ("timestamp_sync_point", "i", 4000, 4000, 0, "neuron_hw"),
    ("nrt_tensor_write", "B", 3600, 3600, 0, "neuron_rt"),
]


def make_capture(root):
    """A capture directory written with libnxp's writers, every fact known:

    out/i-0abc_pid_100/   ntrace.pb, trace_info.pb, trace.json (1 "step" row),
                          cpu_util.pb (4 samples), host_mem.pb (3 samples),
                          neff_395760075800974.neff + 395760075800974_instid_0_vnc_0.ntff
                          (same UUID: paired by UUID; the `make_pair` program, 2 iterations)
    out/i-0def_pid_300/20250601T120000/
                          ntrace.pb (no trace_info.pb: a problem), neff_555_vnc_0.neff,
                          profile_nc_0_session_1.ntff (UUID match),
                          profile_nc_1_session_1.ntff (other UUID: paired as the sole NEFF)
    Returns a dict of the paths and counts.
    """
    from ._syswriter import SysprofWriter, trace_info_write, trace_json_write
    p1 = os.path.join(root, "out", "i-0abc_pid_100")
    p2 = os.path.join(root, "out", "i-0def_pid_300", "20250601T120000")
    os.makedirs(p1, exist_ok=True)
    os.makedirs(p2, exist_ok=True)
    write_ntrace(os.path.join(p1, "ntrace.pb"), pid=100)
    trace_info_write(os.path.join(p1, "trace_info.pb"), first_ts_ns=1748779200000000000,
                     last_ts_ns=1748779201500000000, ntff_version=6, hbm_capacity_bytes=96 << 30,
                     instance_id="i-0abc", instance_type="trn2.48xlarge", arch="trn2", runtime_version="2.31",
                     pid=100, logical_nc_size=2, num_neuron_cores=8)
    trace_json_write(os.path.join(p1, "trace.json"),
                     [{"phase": "X", "name": "step", "pid": "100", "tid": "1", "start_ts": 1000, "end_ts": 3000,
                       "extra_attributes_json": "{}"}])
    with SysprofWriter(os.path.join(p1, "cpu_util.pb"), "cpu_util", instance_id="i-0abc") as w:
        for i, cpu in enumerate(("0", "1", "0", "average")):
            w.cpu(5000 + i, 12.5 * i, cpu)
    with SysprofWriter(os.path.join(p1, "host_mem.pb"), "host_mem", instance_id="i-0abc") as w:
        for i in range(3):
            w.mem(6000 + i, (1 << 30) * (i + 1), 10.0 * (i + 1), total_bytes=(1 << 40) if i < 2 else -1)
    pair1 = make_pair(p1, iterations=2, uuid=bytes([0x10] * 16), name="tmp1")
    neff1 = os.path.join(p1, "neff_395760075800974.neff")
    ntff1 = os.path.join(p1, "395760075800974_instid_0_vnc_0.ntff")
    os.rename(pair1["neff"], neff1)
    os.rename(pair1["ntff"], ntff1)
    write_ntrace(os.path.join(p2, "ntrace.pb"), instance_id=None, pid=300)
    pair2 = make_pair(p2, iterations=3, uuid=bytes([0x55] * 16), name="tmp2")
    neff2 = os.path.join(p2, "neff_555_vnc_0.neff")
    ntff2 = os.path.join(p2, "profile_nc_0_session_1.ntff")
    os.rename(pair2["neff"], neff2)
    os.rename(pair2["ntff"], ntff2)
    other = make_pair(os.path.join(root, "scratch"), iterations=1, uuid=bytes([0x66] * 16), name="tmp3")
    ntff3 = os.path.join(p2, "profile_nc_1_session_1.ntff")
    os.rename(other["ntff"], ntff3)
    os.remove(other["neff"])
    os.rmdir(os.path.join(root, "scratch"))
    return {"root": root, "proc1": p1, "proc2": p2, "neff1": neff1, "ntff1": ntff1, "neff2": neff2,
            "ntff2": ntff2, "ntff3": ntff3, "instructions1": pair1["instructions"],
            "instructions2": pair2["instructions"], "files": 11, "processes": 2, "profiles": 3,
            "events": 2 * len(NTRACE_ROWS) + 1}
