#!/bin/sh
# SPDX-License-Identifier: MIT
# `nxp synth --capture`: a two-rank synthetic capture directory that the
# capture reader discovers whole (2 device profiles paired, MFU figures, no
# problems), whose runtime and framework events read back, and whose clock
# sync points put every device execution (from the NTFF) inside its
# nc_exec_running event once mapped to host time.  Also: same seed, same bytes.
set -eu
: "${NXP_CLI:?NXP_CLI must name the built nxp}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$NXP_CLI" synth --workload matmul --arch trn2 --seed 3 --capture "$tmp/cap" --ranks 2 >/dev/null

out=$("$NXP_CLI" capture "$tmp/cap") || fail "nxp capture failed: $out"
echo "$out" | grep -q '^processes: 2$' || fail "want 2 processes: $out"
echo "$out" | grep -q '^device profiles: 2$' || fail "want 2 device profiles: $out"
[ "$(echo "$out" | grep -c ' uuid ')" -eq 2 ] || fail "both profiles must be paired by uuid: $out"
echo "$out" | grep -q 'unpaired' && fail "an unpaired profile: $out"
echo "$out" | grep -q '^problems: 0$' || fail "problems listed: $out"
echo "$out" | grep -qi 'missing' && fail "missing files: $out"
echo "$out" | grep -q '^neuroncores: 0 1$' || fail "want neuroncores 0 1: $out"
# MFU column (first after the index) is a percentage on both rows
[ "$(echo "$out" | grep -cE '^  [01] +[0-9]+\.[0-9]+% ')" -eq 2 ] || fail "MFU figures missing: $out"
echo "$out" | grep -q 'n/a' && fail "a metric is n/a: $out"
[ "$(echo "$out" | grep -c 'files: ntrace.pb trace_info.pb cpu_util.pb host_mem.pb trace.json')" -eq 2 ] ||
	fail "a process lacks one of its files: $out"
[ "$(echo "$out" | grep -c 'unmatched start/stop 0/0')" -eq 2 ] || fail "unmatched START/STOP events: $out"

ev="$tmp/events.jsonl"
"$NXP_CLI" dump --system "$tmp/cap" --format jsonl > "$ev"
grep -q '"trace_event_source":"neuron_rt"' "$ev" || fail "no runtime events"
grep -q '"trace_event_source":"neuron_hw"' "$ev" || fail "no hardware events"
grep -q '"trace_event_source":"framework"' "$ev" || fail "no framework events"
[ "$(grep -c '"name":"nrt_execute"' "$ev")" -eq 6 ] || fail "want 6 paired nrt_execute rows"
[ "$(grep -c '"name":"nc_exec_running"' "$ev")" -eq 6 ] || fail "want 6 nc_exec_running rows"
[ "$(grep -c '"name":"timestamp_sync_point"' "$ev")" -eq 6 ] || fail "want 6 sync points"
grep -q '"name":"aten::matmul"' "$ev" || fail "no aten ops"

# field NAME of a jsonl line (integers only)
num() { sed -n "s/.*\"$1\":\"\{0,1\}\(-\{0,1\}[0-9]*\).*/\1/p"; }

# Clock alignment, per process (exact 64-bit shell arithmetic): execution e of
# the NTFF maps through the first sync point at or after its end — which must be
# sync point e (after its end, and the previous one before its start) — into
# [start, end] of nc_exec_running e.
n=0
for d in "$tmp"/cap/*_pid_*; do
	"$NXP_CLI" dump "$d"/neff_*.neff "$d"/*.ntff --table execution --format jsonl > "$tmp/x.jsonl"
	"$NXP_CLI" dump --system "$d" --format jsonl > "$tmp/s.jsonl"
	# Across files: the NeuronCore of the NTFF name (_vnc_<v>) is the one of
	# every runtime event (tests/test_synth_capture.c compares the rest).
	vnc=$(ls "$d"/*.ntff | sed -n 's/.*_vnc_\([0-9]*\)\.ntff$/\1/p')
	[ -n "$vnc" ] || fail "$d: no _vnc_ in the NTFF name"
	ncs=$(num nc_idx < "$tmp/s.jsonl" | grep '^[0-9]' | sort -u | tr '\n' ' ')
	[ "$ncs" = "$vnc " ] || fail "$d: runtime events on NeuronCores '$ncs', the NTFF is vnc $vnc"
	grep '"name":"timestamp_sync_point"' "$tmp/s.jsonl" > "$tmp/sync.jsonl"
	grep '"name":"nc_exec_running"' "$tmp/s.jsonl" > "$tmp/run.jsonl"
	e=0
	prev=-1
	while read -r line; do
		e=$((e + 1))
		xs=$(echo "$line" | num execution_start_ts)
		xe=$(echo "$line" | num execution_end_ts)
		sl=$(sed -n "${e}p" "$tmp/sync.jsonl")
		rl=$(sed -n "${e}p" "$tmp/run.jsonl")
		[ -n "$sl" ] && [ -n "$rl" ] || fail "$d: execution $e has no sync point or nc_exec_running"
		cpu=$(echo "$sl" | num cpu_timestamp_ns)
		nc=$(echo "$sl" | num nc_timestamp_ns)
		[ "$nc" -ge "$xe" ] || fail "$d: sync point $e ($nc) before the end of execution $e ($xe)"
		[ "$prev" -lt "$xs" ] || fail "$d: sync point $((e - 1)) ($prev) not before execution $e ($xs)"
		prev=$nc
		hs=$((cpu + xs - nc))
		he=$((cpu + xe - nc))
		rs=$(echo "$rl" | num start_ts)
		re=$(echo "$rl" | num end_ts)
		[ "$rs" -le "$hs" ] && [ "$he" -le "$re" ] ||
			fail "$d: execution $e maps to [$hs, $he], outside nc_exec_running [$rs, $re]"
		n=$((n + 1))
	done < "$tmp/x.jsonl"
	[ "$e" -eq 3 ] || fail "$d: want 3 executions in the NTFF, got $e"
done
[ "$n" -eq 6 ] || fail "checked $n executions, want 6"

# Deterministic: the same arguments write the same bytes.
"$NXP_CLI" synth --workload matmul --arch trn2 --seed 3 --capture "$tmp/cap2" --ranks 2 -q
(cd "$tmp/cap" && find . -type f | sort) > "$tmp/l1"
(cd "$tmp/cap2" && find . -type f | sort) > "$tmp/l2"
cmp -s "$tmp/l1" "$tmp/l2" || fail "file lists differ between two runs"
while read -r f; do
	cmp -s "$tmp/cap/$f" "$tmp/cap2/$f" || fail "$f differs between two runs"
done < "$tmp/l1"
# ranks differ (seed + rank)
set -- "$tmp"/cap/*_pid_*/*.ntff
cmp -s "$1" "$2" && fail "the two ranks' NTFFs are identical"

# Usage: --ranks out of range and -o with --capture are refused (exit 2).
set +e
"$NXP_CLI" synth --workload matmul --arch trn2 --seed 3 --capture "$tmp/c3" --ranks 0 2>/dev/null; rc=$?
[ $rc -eq 2 ] || fail "--ranks 0: exit $rc, want 2"
"$NXP_CLI" synth --workload matmul --arch trn2 --seed 3 --capture "$tmp/c3" -o "$tmp/x" 2>/dev/null; rc=$?
[ $rc -eq 2 ] || fail "--capture with -o: exit $rc, want 2"
set -e
echo "ok: synth --capture ($n executions aligned)"
