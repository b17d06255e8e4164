#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""nxp.dask on a distributed.LocalCluster: a synthetic capture of R ranks
summarised serially in this process, on 1 worker process and on 2 (speedup
ratios in one run), and the overhead per partition (many empty-window
partitions of one profile, time per partition).

    NXP_LIBRARY=build/libnxp/libnxp.so.0 PYTHONPATH=bindings/python \\
        /usr/bin/python3 bench/bench_dask.py NXP_CLI [--ranks 16] [--instructions N] [--dir D]
"""
import os
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


def timed(f, reps=2):
    best = None
    for _ in range(reps):
        t0 = time.perf_counter()
        r = f()
        t = time.perf_counter() - t0
        best = t if best is None or t < best else best
    return best, r


def main():
    if len(sys.argv) < 2 or sys.argv[1].startswith("--"):
        sys.exit(__doc__)
    cli = sys.argv[1]
    ranks = arg("--ranks", 16)
    instructions = arg("--instructions", 200000)
    base = arg("--dir", "")
    tmp = tempfile.mkdtemp(prefix="bench_dask.", dir=base or None)
    cap = os.path.join(tmp, "capture")
    try:
        subprocess.run([cli, "synth", "--workload", "mlp", "--arch", "trn2", "--seed", "1", "--capture", cap,
                        "--ranks", str(ranks), "--instructions", str(instructions), "--quiet"], check=True)
        pairs = nxp.dask.profiles(cap)
        mb = sum(os.path.getsize(n) for _, _, n in pairs) / 1e6
        print(f"capture: {len(pairs)} profiles, {mb:.1f} MB of NTFF")

        def serial():
            rows = []
            for name, neff, ntff in pairs:
                with nxp.Profile(neff, ntff) as p:
                    rows.append(p.summary())
            return rows
        t_serial, want = timed(serial)
        print(f"summaries, serial in-process: {t_serial:.2f} s ({mb / t_serial:.0f} MB/s)", flush=True)
        os.environ.setdefault("NXP_LIBRARY", nxp.library_path)
        res = {}
        for workers in (1, 2):
            with distributed.LocalCluster(n_workers=workers, processes=True, threads_per_worker=1,
                                          dashboard_address=None, silence_logs=40) as cl, distributed.Client(cl):
                nxp.dask.summaries(cap)  # warm the workers (import nxp, load libnxp)
                t, df = timed(lambda: nxp.dask.summaries(cap))
                assert len(df) == len(want)
                res[workers] = t
                print(f"summaries, LocalCluster {workers} worker process(es): {t:.2f} s ({mb / t:.0f} MB/s)",
                      flush=True)
                if workers == 2:
                    # overhead per partition: 1 profile, many empty windows (no rows to read)
                    name, neff, ntff = pairs[0]
                    n = 200
                    with nxp.Profile(neff, ntff) as p:
                        first = p.metadata["first_hw_timestamp"]
                    t0 = time.perf_counter()
                    ddf = nxp.dask.read_table([(neff, ntff)], "ExecutionInfo", partition_ns=1,
                                              start=first, end=first + n)
                    assert ddf.npartitions == n
                    ddf.compute()
                    t_part = time.perf_counter() - t0
                    t1 = time.perf_counter()
                    with nxp.Profile(neff, ntff) as p:
                        for k in range(n):
                            p.to_pandas("ExecutionInfo", start=first + k, end=first + k + 1)
                    t_local = time.perf_counter() - t1
        print(f"speedup 2 workers / 1 worker: {res[1] / res[2]:.2f}x")
        print(f"per partition ({n} empty windows on 2 workers, incl. profile open): "
              f"{1000 * t_part / n:.1f} ms; the same reads in-process on one open profile: "
              f"{1000 * t_local / n:.2f} ms")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
