#!/bin/sh
# SPDX-License-Identifier: MIT
# `nxp synth` from the command line: the bundled demo pair is exactly what the
# command documented in samples/README.md produces; bad arguments are refused
# with the right exit status; the pair opens with `nxp info` / `nxp summary`.
set -eu
: "${NXP_CLI:?NXP_CLI must name the built nxp}"
samples=${1:?usage: test_synth.sh SAMPLES_DIR}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# The documented command (an indented line "nxp synth ... -o samples/demo").
cmd=$(sed -n 's/^    nxp synth \(.*\) -o samples\/demo$/\1/p' "$samples/README.md" | head -n 1)
[ -n "$cmd" ] || fail "no 'nxp synth ... -o samples/demo' line in samples/README.md"
# shellcheck disable=SC2086
"$NXP_CLI" synth $cmd -o "$tmp/demo" >/dev/null
cmp "$tmp/demo.neff" "$samples/demo.neff" || fail "samples/demo.neff differs from the documented command's output"
cmp "$tmp/demo.ntff" "$samples/demo.ntff" || fail "samples/demo.ntff differs from the documented command's output"
total=$(($(wc -c < "$samples/demo.neff") + $(wc -c < "$samples/demo.ntff")))
[ "$total" -lt 1048576 ] || fail "demo pair is $total bytes (limit 1 MiB)"

"$NXP_CLI" info "$tmp/demo.neff" >/dev/null || fail "nxp info cannot read the demo NEFF"
"$NXP_CLI" summary "$tmp/demo.neff" "$tmp/demo.ntff" >/dev/null || fail "nxp summary cannot read the demo pair"

# Usage errors exit 2; generator errors exit 1 with a message.
set +e
"$NXP_CLI" synth --workload matmul --arch trn2 -o "$tmp/x" 2>/dev/null; rc=$?
[ $rc -eq 2 ] || fail "missing --seed: exit $rc, want 2"
"$NXP_CLI" synth --workload matmul --arch trn2 --seed 1 --lnc 3 -o "$tmp/x" 2>/dev/null; rc=$?
[ $rc -eq 2 ] || fail "--lnc 3: exit $rc, want 2"
"$NXP_CLI" synth --workload matmul --arch trn2 --seed x -o "$tmp/x" 2>/dev/null; rc=$?
[ $rc -eq 2 ] || fail "--seed x: exit $rc, want 2"
msg=$("$NXP_CLI" synth --workload conv --arch trn2 --seed 1 -o "$tmp/x" 2>&1); rc=$?
[ $rc -eq 1 ] || fail "unknown workload: exit $rc, want 1"
case $msg in *"unknown workload 'conv'"*) ;; *) fail "unknown workload message: $msg" ;; esac
msg=$("$NXP_CLI" synth --workload matmul --arch trn2 --seed 1 --m 100 -o "$tmp/x" 2>&1); rc=$?
[ $rc -eq 1 ] || fail "--m 100: exit $rc, want 1"
case $msg in *"multiple of 128"*) ;; *) fail "--m 100 message: $msg" ;; esac
set -e
[ ! -e "$tmp/x.neff" ] || fail "a refused command wrote a file"
echo "ok"
