#!/bin/sh
# SPDX-License-Identifier: MIT
# `nxp critical-path`, `nxp insights`, `nxp compare` on the demo pair and on
# a 3-rank synthetic capture: the JSON parses, the critical-path breakdown sums
# exactly to total_ns, total_ns equals the summary's total_exec_time (seconds
# in `nxp summary --json`), compare rows come slowest first with the gap to
# the fastest, and the usage conventions (--help on stdout, exit 2 naming an
# unknown option, errors naming the file).
# usage: test_analysis_cli.sh PYTHON SAMPLES_DIR   (NXP_CLI in the environment)
set -eu
: "${NXP_CLI:?NXP_CLI must name the built nxp}"
py=$1
samples=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
neff=$samples/demo.neff
ntff=$samples/demo.ntff

# --- critical-path on the demo, whole interval and each execution ----------
"$NXP_CLI" critical-path "$neff" "$ntff" --json > "$tmp/cp.json" || fail "critical-path failed"
"$NXP_CLI" summary "$neff" "$ntff" --json > "$tmp/sum.json" || fail "summary failed"
"$py" - "$tmp/cp.json" "$tmp/sum.json" <<'PY' || fail "critical-path JSON checks"
import json, sys
cp = json.load(open(sys.argv[1]))
s = json.load(open(sys.argv[2]))
tot = cp["total_ns"]
assert tot > 0, cp
assert cp["end_ts"] - cp["start_ts"] == tot, cp
b = cp["breakdown"]
assert b and all(isinstance(r["ns"], int) and r["ns"] >= 0 for r in b), b
assert sum(r["ns"] for r in b) == tot, (sum(r["ns"] for r in b), tot)
assert [r["ns"] for r in b] == sorted((r["ns"] for r in b), reverse=True), "breakdown not largest first"
assert len({r["resource"] for r in b}) == len(b), "a resource twice"
assert any(r["resource"].startswith("engine:") for r in b), b
# summary's total_exec_time is in seconds
want = round(s["total_exec_time"] * 1e9)
assert tot == want, ("total_ns", tot, "total_exec_time", s["total_exec_time"])
p = cp["path"]
assert p, "empty path"
assert sum(x["ns"] for x in p) == tot, ("path ns", sum(x["ns"] for x in p), tot)
assert p[0]["start_ts"] == cp["start_ts"], p[0]
assert p[-1]["end_ts"] == cp["end_ts"], p[-1]
# time order: each step ends no later than the next (an instruction may start
# before the semaphore update it then waits on, so start_ts can go back)
assert all(a["end_ts"] <= b2["end_ts"] for a, b2 in zip(p, p[1:])), "path not in time order"
assert p[-1]["via"] == "" and all(x["via"] for x in p[:-1]), "via"
assert {x["table"] for x in p} <= {"Instruction", "DmaPacket", "SemaphoreUpdate"}
PY
for e in 0 1 2; do
	"$NXP_CLI" critical-path "$neff" "$ntff" --execution $e --json > "$tmp/cp$e.json" ||
		fail "critical-path --execution $e failed"
done
"$py" - "$tmp/cp.json" "$tmp/cp0.json" "$tmp/cp1.json" "$tmp/cp2.json" <<'PY' || fail "per-execution checks"
import json, sys
whole = json.load(open(sys.argv[1]))
ex = [json.load(open(f)) for f in sys.argv[2:]]
for cp in ex:
    assert cp["total_ns"] > 0 and sum(r["ns"] for r in cp["breakdown"]) == cp["total_ns"], cp["breakdown"]
    assert whole["start_ts"] <= cp["start_ts"] and cp["end_ts"] <= whole["end_ts"], (cp["start_ts"], cp["end_ts"])
for a, b in zip(ex, ex[1:]):
    assert a["end_ts"] <= b["start_ts"], "executions overlap"
assert sum(cp["total_ns"] for cp in ex) < whole["total_ns"]
PY
out=$("$NXP_CLI" critical-path "$neff" "$ntff" --limit 3) || fail "critical-path text failed"
echo "$out" | grep -q '^breakdown$' || fail "no breakdown in text: $out"
echo "$out" | grep -q 'more (--limit)' || fail "--limit not applied: $out"

# --- insights on the demo ---------------------------------------------------
"$NXP_CLI" insights "$neff" "$ntff" --json > "$tmp/in.json" || fail "insights failed"
"$py" - "$tmp/in.json" <<'PY' || fail "insights JSON checks"
import json, sys
ins = json.load(open(sys.argv[1]))
assert isinstance(ins, list) and ins, ins
rank = {"critical": 3, "warning": 2, "info": 1}
for x in ins:
    assert set(x) >= {"rule", "severity", "message", "recommendation", "start_ts", "end_ts", "evidence"}, x
    assert x["severity"] in rank and x["rule"] and x["message"], x
    assert x["rule"].replace("_", "").isalnum() and x["rule"].islower(), x["rule"]
    assert set(x["evidence"]) == set(x["evidence_units"]), x
sev = [rank[x["severity"]] for x in ins]
assert sev == sorted(sev, reverse=True), "not most severe first"
rules = [x["rule"] for x in ins]
# the demo has throttle records and 3 executions with gaps between them
assert "throttling" in rules, rules
t = next(x for x in ins if x["rule"] == "throttling")
assert t["evidence"]["throttle_active_time_ns"] > 0, t
assert "straggler" not in rules, "straggler is a capture rule"
PY
"$NXP_CLI" insights "$neff" "$ntff" | grep -q '^\[warning\] throttling: ' || fail "insights text"

# --- compare on a 3-rank synthetic capture ----------------------------------
"$NXP_CLI" synth --workload matmul --arch trn2 --seed 3 --capture "$tmp/cap" --ranks 3 >/dev/null ||
	fail "synth --capture failed"
"$NXP_CLI" compare "$tmp/cap" --json > "$tmp/cmp.json" || fail "compare failed"
for i in 0 1 2; do
	f=$(ls "$tmp"/cap/*/*_vnc_$i.ntff 2>/dev/null | head -n 1)
	[ -n "$f" ] || fail "no NTFF for rank $i"
done
"$py" - "$tmp/cmp.json" <<'PY' || fail "compare JSON checks"
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["profiles"]
assert len(rows) == 3, rows
tot = [r["total_ns"] for r in rows]
assert tot == sorted(tot, reverse=True), ("not slowest first", tot)
fastest = min(tot)
for r in rows:
    assert r["status"] == 0, r
    assert r["total_ns"] > 0 and r["gap_ns"] == r["total_ns"] - fastest, r
    assert 0 < r["mfu"] < 1, r
    assert r["engine_active_ns"]["tensor"] > 0 and r["dma_bytes"] > 0, r
    assert r["host_execute_count"] == 3 and r["host_execute_max_ns"] > 0, r
    assert r["host_start_skew_ns"] is not None and r["host_start_skew_ns"] >= 0, r
    assert r["host_execute_total_ns"] >= r["host_execute_max_ns"], r
assert rows[-1]["gap_ns"] == 0 and rows[-1]["explaining_figure"] == "", rows[-1]
assert min(r["host_start_skew_ns"] for r in rows) == 0
assert sorted(r["profile_index"] for r in rows) == [0, 1, 2]
assert isinstance(d["insights"], list)
PY
# each compare row's total equals `nxp summary`'s total_time of that profile
for f in "$tmp"/cap/*/*.ntff; do
	n=$(dirname "$f")/$(basename "$f" | sed 's/_instid_.*//').neff
	[ -f "$n" ] || n=$(ls "$(dirname "$f")"/*.neff | head -n 1)
	"$NXP_CLI" summary "$n" "$f" --json > "$tmp/s.json" || fail "summary of $f"
	"$py" - "$tmp/s.json" "$tmp/cmp.json" "$f" <<'PY' || fail "compare total of $f"
import json, sys, os
s = json.load(open(sys.argv[1]))
rows = json.load(open(sys.argv[2]))["profiles"]
r = [r for r in rows if os.path.basename(r["ntff"]) == os.path.basename(sys.argv[3])]
assert len(r) == 1, (sys.argv[3], rows)
assert r[0]["total_ns"] == round(s["total_time"] * 1e9), (r[0]["total_ns"], s["total_time"])
PY
done
out=$("$NXP_CLI" compare "$tmp/cap") || fail "compare text failed"
echo "$out" | grep -q '^3 device profiles, slowest first$' || fail "compare text: $out"
# critical-path and insights on one rank of the capture
f=$(ls "$tmp"/cap/*/*.ntff | head -n 1)
n=$(ls "$(dirname "$f")"/*.neff | head -n 1)
"$NXP_CLI" critical-path "$n" "$f" --json | "$py" -c '
import json, sys
d = json.load(sys.stdin)
assert sum(r["ns"] for r in d["breakdown"]) == d["total_ns"] > 0' || fail "critical-path on a capture rank"
"$NXP_CLI" insights "$n" "$f" --json | "$py" -c 'import json, sys; assert isinstance(json.load(sys.stdin), list)' ||
	fail "insights on a capture rank"

# --- usage conventions -------------------------------------------------------
for c in critical-path insights compare; do
	"$NXP_CLI" $c --help > "$tmp/h" 2>/dev/null || fail "$c --help exit status"
	grep -q "nxp $c " "$tmp/h" || fail "$c --help not on stdout"
	set +e
	"$NXP_CLI" $c --bogus "$neff" "$ntff" > /dev/null 2> "$tmp/e"
	rc=$?
	set -e
	[ $rc -eq 2 ] || fail "$c --bogus: exit $rc, want 2"
	grep -q "unknown option '--bogus'" "$tmp/e" || fail "$c: unknown option not named"
done
set +e
"$NXP_CLI" critical-path "$ntff" "$neff" > /dev/null 2> "$tmp/e"; rc1=$?
"$NXP_CLI" insights "$neff" "$tmp/missing.ntff" > /dev/null 2> "$tmp/e2"; rc2=$?
"$NXP_CLI" compare "$ntff" > /dev/null 2> "$tmp/e3"; rc3=$?
"$NXP_CLI" critical-path "$neff" "$ntff" --execution 99 > /dev/null 2> "$tmp/e4"; rc4=$?
"$NXP_CLI" critical-path "$neff" "$ntff" --execution x > /dev/null 2> /dev/null; rc5=$?
set -e
[ $rc1 -eq 1 ] && grep -q 'demo\.ntff is an NTFF trace, not a NEFF' "$tmp/e" || fail "swapped args: $(cat "$tmp/e")"
[ $rc2 -eq 1 ] && grep -q 'missing\.ntff' "$tmp/e2" || fail "missing file: $(cat "$tmp/e2")"
[ $rc3 -eq 1 ] && grep -q 'not a capture directory' "$tmp/e3" || fail "compare on a file: $(cat "$tmp/e3")"
[ $rc4 -eq 1 ] && grep -q 'execution 99' "$tmp/e4" || fail "--execution 99: $(cat "$tmp/e4")"
[ $rc5 -eq 2 ] || fail "--execution x: exit $rc5, want 2"
echo "ok"
