#!/bin/sh
# SPDX-License-Identifier: MIT
# What the optional ../shared corpus adds: every real-world trace in
# $NXP_SHARED_DIR/realworld/ is read by `nxp dump --system` (exit 0, at least
# one row, nothing on stderr), and a file the project also keeps in tests/data
# (same path under realworld/ and tests/data/) is byte-identical to it.
# Skipped (exit 77, counted as SKIP by meson) when the folder is absent, as in
# a user's clone; the project's own copies are tested by the C suites regardless.
set -u
if [ -z "${NXP_SHARED_DIR:-}" ] || [ ! -d "$NXP_SHARED_DIR/realworld" ]; then
	echo "SKIP: no ../shared corpus beside the checkout (NXP_SHARED_DIR unset or without realworld/)"
	exit 77
fi
: "${NXP_CLI:?NXP_CLI must name the nxp tool}" "${NXP_TEST_DATA:?NXP_TEST_DATA must name tests/data}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nxp-shared-XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
for f in "$NXP_SHARED_DIR"/realworld/*/*.json "$NXP_SHARED_DIR"/realworld/*/*.json.gz; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	rel=${f#"$NXP_SHARED_DIR"/realworld/}
	if ! "$NXP_CLI" dump --system "$f" --format jsonl > "$tmp/out" 2> "$tmp/err" || [ -s "$tmp/err" ]; then
		echo "FAIL: nxp dump --system $rel:"; cat "$tmp/err"; fail=$((fail + 1)); continue
	fi
	rows=$(wc -l < "$tmp/out")
	if [ "$rows" -lt 1 ]; then
		echo "FAIL: $rel: no rows"; fail=$((fail + 1)); continue
	fi
	if [ -f "$NXP_TEST_DATA/$rel" ]; then
		if cmp -s "$f" "$NXP_TEST_DATA/$rel"; then
			echo "ok: $rel ($rows rows; identical to tests/data/$rel)"
		else
			echo "FAIL: tests/data/$rel differs from the shared corpus copy"; fail=$((fail + 1))
		fi
	else
		echo "ok: $rel ($rows rows)"
	fi
done
if [ "$n" -eq 0 ]; then
	echo "FAIL: $NXP_SHARED_DIR/realworld holds no trace files"
	exit 1
fi
echo "$n shared traces, $fail failed"
[ "$fail" -eq 0 ]
