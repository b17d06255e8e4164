#!/usr/bin/env python3
"""The public headers, the version script and the shared library agree.

Every function declared with NXP_API in include/nxp/*.h must be listed in
libnxp/libnxp.map and exported by libnxp.so; the library must export nothing
else (hidden visibility + the map keep internals out)."""
import glob
import os
import re
import subprocess
import sys

root, lib = sys.argv[1], sys.argv[2]

declared = set()
for h in glob.glob(os.path.join(root, "include", "nxp", "*.h")):
    text = open(h).read()
    for m in re.finditer(r"NXP_API\s+[^;(]*?\b(nxp_\w+)\s*\(", text):
        declared.add(m.group(1))

mapped = set()
in_global = False
for line in open(os.path.join(root, "libnxp", "libnxp.map")):
    line = line.split("/*")[0].strip()
    if line.startswith("global:"):
        in_global = True
        continue
    if line.startswith("local:"):
        in_global = False
        continue
    if in_global:
        for name in re.findall(r"(nxp_\w+)\s*;", line):
            mapped.add(name)

out = subprocess.run(["nm", "-D", "--defined-only", lib], capture_output=True, text=True, check=True).stdout
exported = {l.split()[-1].split("@")[0] for l in out.splitlines() if " T " in l or " D " in l or " R " in l}
exported = {e for e in exported if not e.startswith("_")}

ok = True
def report(what, names):
    global ok
    if names:
        ok = False
        print(f"{what}: {', '.join(sorted(names))}")

report("declared in headers but not in libnxp.map", declared - mapped)
report("in libnxp.map but not declared in headers", mapped - declared)
report("declared but not exported by the library", declared - exported)
report("exported but not declared", exported - declared)
print(f"{len(declared)} public functions, {len(mapped)} mapped, {len(exported)} exported")
sys.exit(0 if ok else 1)
