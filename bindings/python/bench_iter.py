#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Measure how fast the Python binding iterates instruction records.

    python3 bench_iter.py                      # generate a ~1.2M-instruction profile in a temp dir
    python3 bench_iter.py --iterations 50000   # smaller generated profile (12 records per iteration)
    python3 bench_iter.py --neff X.neff --ntff X.ntff

Prints records/s for: plain iteration, iteration reading one numeric field,
reading a numeric and a string field, and full conversion (_asdict).
"""
import argparse
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nxp  # noqa: E402
import nxp.testing  # noqa: E402


def run(label, neff, ntff, body):
    with nxp.Profile(neff, ntff) as p:
        t = time.perf_counter()
        n = body(p.instructions())
        dt = time.perf_counter() - t
    print(f"{label:<34} {n:>10} records  {dt:7.3f} s  {n / dt / 1e6:6.2f} M records/s")
    return n / dt


def count(cur):
    n = 0
    for _ in cur:
        n += 1
    return n


def one_field(cur):
    n = tot = 0
    for r in cur:
        tot += r.duration_ns
        n += 1
    return n


def two_fields(cur):
    n = 0
    seen = {}
    for r in cur:
        seen[r.opcode] = seen.get(r.opcode, 0) + r.duration_ns
        n += 1
    return n


def as_dict(cur):
    n = 0
    for r in cur:
        r._asdict()
        n += 1
    return n


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--neff")
    ap.add_argument("--ntff")
    ap.add_argument("--iterations", type=int, default=100000,
                    help="program iterations of the generated profile (12 instructions each)")
    ap.add_argument("--min-rate", type=float, default=0,
                    help="exit 1 if plain iteration is slower than this many records/s")
    args = ap.parse_args()
    print(f"libnxp {nxp.version()} from {nxp.library_path}; batch {nxp.BATCH} records")
    with tempfile.TemporaryDirectory() as tmp:
        if args.neff and args.ntff:
            neff, ntff = args.neff, args.ntff
        else:
            t = time.perf_counter()
            facts = nxp.testing.make_pair(tmp, iterations=args.iterations, with_events=False, name="bench")
            neff, ntff = facts["neff"], facts["ntff"]
            print(f"generated {facts['instructions']} instructions ({os.path.getsize(ntff) / 1e6:.1f} MB NTFF) "
                  f"in {time.perf_counter() - t:.1f} s")
        rate = run("iterate", neff, ntff, count)
        run("iterate + duration_ns", neff, ntff, one_field)
        run("iterate + opcode, duration_ns", neff, ntff, two_fields)
        run("iterate + _asdict() (every field)", neff, ntff, as_dict)
    if args.min_rate and rate < args.min_rate:
        print(f"FAIL: {rate:.0f} records/s < {args.min_rate:.0f}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
