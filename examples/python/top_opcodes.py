#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Print the five opcodes with the most active time, and the MFU.

    python3 examples/python/top_opcodes.py [NEFF NTFF]

Without arguments it opens the bundled sample (samples/demo.neff + .ntff).
Finds the binding in bindings/python of this checkout when it is not installed.
"""
import os
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
try:
    import nxp
except ImportError:
    sys.path.insert(0, os.path.join(ROOT, "bindings", "python"))
    import nxp


def main(argv):
    if len(argv) == 2:
        neff, ntff = argv
    elif not argv:
        neff, ntff = (os.path.join(ROOT, "samples", "demo." + ext) for ext in ("neff", "ntff"))
    else:
        print("usage: top_opcodes.py [NEFF NTFF]", file=sys.stderr)
        return 2
    try:
        with nxp.Profile(neff, ntff) as p:
            rows = p.opcode_summary()
            summary = p.summary()
    except nxp.Error as e:
        print(f"top_opcodes: {e}", file=sys.stderr)
        return 1
    rows.sort(key=lambda r: (-r["active_time_ns"], r["opcode"]))
    print(f"{'engine':<8} {'opcode':<24} {'count':>8} {'active_ns':>14} {'active%':>8}")
    for r in rows[:5]:
        print(f"{r['engine']:<8} {r['opcode']:<24} {r['instruction_count']:>8} {r['active_time_ns']:>14} "
              f"{r['active_time_percent'] * 100:>7.2f}%")
    mfu = summary.get("mfu_estimated_percent")
    print("MFU: absent (the profile has no model_flops or total_time)" if mfu is None else f"MFU: {mfu * 100:.2f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
