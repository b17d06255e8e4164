#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""nxp.dask on a distributed.LocalCluster (processes, one thread each).

1. Summaries of a synthetic capture of R ranks (default 16): serially in this
   process, then on a LocalCluster of 1 and of 2 worker processes (best of
   --reps runs each).  Printed: wall time, MB/s of NTFF, the wall speedup of 2
   workers over 1, and the CPU time each worker process spent (getrusage on the
   workers, before/after), from which the speedup on two free cores follows:
   2 x (CPU of 1 worker) / (CPU of both of 2 workers) when the 16 equal tasks
   split evenly (as Dask splits them between two idle workers), and (CPU of 1
   worker) / (CPU of the busier worker) with the split this run got (on a
   loaded machine the worker that gets a core takes more tasks) — figures that
   mean something on a loaded machine, where wall times do not.

2. Overhead per partition: N partitions (default 200) of a trivial table
   (ExecutionInfo, 1-ns windows: no rows) of one profile, computed on a
   1-worker cluster (ddf.compute(), graph already built) and, in this process,
   the same task function (nxp.dask._partition: open the profile, read the
   window, add the profile column) called N times.  Overhead per partition =
   (cluster time - in-process time) / N: what Dask adds to each task
   (scheduling, serialising the task and the DataFrame, the worker round trip).
   The same in CPU time, robust to the machine's load: (CPU of this process —
   the client and, in a LocalCluster, the scheduler — plus the workers' CPU
   during the compute, minus the in-process CPU of the N tasks) / N.  Also
   shown: the same on 2 workers, and the per-call cost of read_table's set-up
   (time spans and meta, computed on the cluster once per call).

    NXP_LIBRARY=build/libnxp/libnxp.so.0 PYTHONPATH=bindings/python \\
        /usr/bin/python3 bench/bench_dask.py NXP_CLI [--ranks 16] [--instructions N] [--reps 2]
        [--partitions 200] [--dir D]
"""
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

import distributed

import nxp
import nxp.dask


def arg(name, default):
    return type(default)(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default


def timed(f, reps):
    best = None
    for _ in range(reps):
        t0 = time.perf_counter()
        r = f()
        t = time.perf_counter() - t0
        best = t if best is None or t < best else best
    return best, r


def _cpu():
    """This process's CPU time (user + system), seconds: run on every worker."""
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_utime + ru.ru_stime


def worker_cpu(client):
    return client.run(_cpu)  # {worker address: seconds}


def main():
    if len(sys.argv) < 2 or sys.argv[1].startswith("--"):
        sys.exit(__doc__)
    cli = sys.argv[1]
    ranks = arg("--ranks", 16)
    instructions = arg("--instructions", 200000)
    reps = arg("--reps", 2)
    n = arg("--partitions", 200)
    base = arg("--dir", "")
    tmp = tempfile.mkdtemp(prefix="bench_dask.", dir=base or None)
    cap = os.path.join(tmp, "capture")
    try:
        subprocess.run([cli, "synth", "--workload", "mlp", "--arch", "trn2", "--seed", "1", "--capture", cap,
                        "--ranks", str(ranks), "--instructions", str(instructions), "--quiet"], check=True)
        pairs = nxp.dask.profiles(cap)
        mb = sum(os.path.getsize(x) for _, _, x in pairs) / 1e6
        print(f"capture: {len(pairs)} profiles, {mb:.1f} MB of NTFF; {os.cpu_count()} CPUs, "
              f"load average {os.getloadavg()[0]:.1f} at the start")

        def serial():
            rows = []
            for _, neff, ntff in pairs:
                with nxp.Profile(neff, ntff) as p:
                    rows.append(p.summary())
            return rows
        c0 = _cpu()
        t_serial, want = timed(serial, reps)
        c_serial = (_cpu() - c0) / reps
        print(f"summaries, serial in-process: {t_serial:.2f} s wall ({mb / t_serial:.0f} MB/s), "
              f"{c_serial:.2f} s CPU per run ({mb / c_serial:.0f} MB/s of CPU)", flush=True)
        os.environ.setdefault("NXP_LIBRARY", nxp.library_path)
        wall, cpus = {}, {}
        for workers in (1, 2):
            with distributed.LocalCluster(n_workers=workers, processes=True, threads_per_worker=1,
                                          dashboard_address=None, silence_logs=40) as cl, \
                    distributed.Client(cl) as client:
                nxp.dask.summaries(cap)  # warm the workers (import nxp, load libnxp)
                before = worker_cpu(client)
                t, df = timed(lambda: nxp.dask.summaries(cap), reps)
                after = worker_cpu(client)
                assert len(df) == len(want)
                got = df.drop(columns=["profile"]).to_dict("records")
                for a, b in zip(sorted(want, key=lambda r: r["total_row_count"]),
                                sorted(got, key=lambda r: r["total_row_count"])):
                    assert a["total_row_count"] == b["total_row_count"]
                per_worker = sorted((after[w] - before[w]) / reps for w in after)
                wall[workers], cpus[workers] = t, per_worker
                print(f"summaries, LocalCluster {workers} worker process(es): {t:.2f} s wall "
                      f"({mb / t:.0f} MB/s); worker CPU per run: "
                      + ", ".join(f"{c:.2f} s" for c in per_worker), flush=True)

                # Overhead per partition (a trivial table: no rows).
                name, neff, ntff = pairs[0]
                with nxp.Profile(neff, ntff) as p:
                    first = p.metadata["first_hw_timestamp"]
                t0 = time.perf_counter()
                ddf = nxp.dask.read_table([(neff, ntff)], "ExecutionInfo", partition_ns=1, start=first,
                                          end=first + n)
                t_setup = time.perf_counter() - t0
                assert ddf.npartitions == n
                wb, cb = worker_cpu(client), _cpu()
                t_cluster, out = timed(lambda: ddf.compute(), reps)
                cpu_cluster = (sum(worker_cpu(client).values()) - sum(wb.values()) + _cpu() - cb) / reps
                assert len(out) == 0

                def local():
                    for k in range(n):
                        nxp.dask._partition(ntff, neff, ntff, "ExecutionInfo", None,
                                            {"start": first + k, "end": first + k + 1})
                cb = _cpu()
                t_local, _ = timed(local, reps)
                cpu_local = (_cpu() - cb) / reps
                over = (t_cluster - t_local) / n if workers == 1 else (workers * t_cluster - t_local) / n
                print(f"  {n} trivial partitions on {workers} worker(s): {1000 * t_cluster / n:.1f} ms each (wall); "
                      f"the same task in-process: {1000 * t_local / n:.1f} ms; "
                      f"overhead per partition {1000 * over:.1f} ms wall"
                      + ("" if workers == 1 else f" (= ({workers} x wall - in-process) / {n})")
                      + f", {1000 * (cpu_cluster - cpu_local) / n:.1f} ms CPU (client + scheduler + workers: "
                      f"{1000 * cpu_cluster / n:.1f} ms, in-process {1000 * cpu_local / n:.1f} ms); "
                      f"read_table set-up {1000 * t_setup:.0f} ms per call", flush=True)
        print(f"2 workers / 1 worker: wall speedup {wall[1] / wall[2]:.2f}x; "
              f"CPU: 1 worker {cpus[1][0]:.2f} s, 2 workers {' + '.join(f'{c:.2f}' for c in cpus[2])} s; "
              f"speedup on 2 free cores with the tasks split evenly (2 x 1-worker CPU / both workers' CPU) "
              f"{2 * cpus[1][0] / sum(cpus[2]):.2f}x, with this run's split (1-worker CPU / busier worker's CPU) "
              f"{cpus[1][0] / max(cpus[2]):.2f}x; load average {os.getloadavg()[0]:.1f} at the end")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
