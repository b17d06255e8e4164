#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Instruction table -> numpy through Profile.to_numpy, four int64 columns, in
instructions/s, next to the C-side figures of bench_columnar.

    NXP_LIBRARY=build/libnxp/libnxp.so.0 PYTHONPATH=bindings/python \\
        /usr/bin/python3 bench/bench_to_numpy.py NEFF NTFF [--reps R]
"""
import sys
import time

import nxp

COLS = ["start_ts", "duration_ns", "pc", "evt_wait_time_ns"]


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    reps = int(sys.argv[sys.argv.index("--reps") + 1]) if "--reps" in sys.argv else 3
    if len(args) < 2:
        sys.exit(__doc__)
    neff, ntff = args[:2]
    with nxp.Profile(neff, ntff) as p:
        best = None
        for _ in range(reps):
            t0 = time.perf_counter()
            d = p.to_numpy("Instruction", columns=COLS)
            t = time.perf_counter() - t0
            best = t if best is None or t < best else best
        n = len(d["start_ts"])
        sums = [int(d[c].sum()) for c in COLS]
        print(f"to_numpy, 4 int64 columns: {n} instructions, best of {reps}: {best:.3f} s, "
              f"{n / best / 1e6:.1f} M instructions/s (sums {sums})")


if __name__ == "__main__":
    main()
