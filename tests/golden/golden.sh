#!/bin/sh
# SPDX-License-Identifier: MIT
# Golden outputs: the CLI's output on the bundled demo and on synthetic profiles
# of every workload x arch (LNC 1 and 2) is hashed and compared with
# tests/golden/expected.sha256, so a refactoring that changes any byte of any
# table, summary, info output or exported Parquet file fails here.
#   golden.sh NXP SAMPLES_DIR EXPECTED         compare (the test)
#   golden.sh NXP SAMPLES_DIR EXPECTED --update rewrite EXPECTED (an intended change)
set -eu
nxp=${1:?usage: golden.sh NXP SAMPLES_DIR EXPECTED [--update]}
samples=$2
expected=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# out NAME CMD... : run a command, record the hash of its stdout under NAME
out() {
	name=$1; shift
	"$@" > "$tmp/out" || { echo "FAIL: $name: exit $?" >&2; exit 1; }
	printf '%s  %s\n' "$(sha256sum < "$tmp/out" | cut -c1-64)" "$name" >> "$tmp/sums"
}

profile() { # NAME NEFF NTFF
	out "$1.info" "$nxp" info "$2" --json
	out "$1.summary" "$nxp" summary "$2" "$3" --json
	out "$1.summary-text" "$nxp" summary "$2" "$3"
	for t in instruction dma semaphore throttle error execution active_time; do
		out "$1.$t" "$nxp" dump "$2" "$3" --table "$t" --format jsonl
	done
	# every Parquet table: the encoders' loops are built twice (libnxp/common/cpu.h),
	# and the builds that run one copy or the other compare with the same hashes
	rm -rf "$tmp/x"
	"$nxp" export "$2" "$3" -o "$tmp/x" --tables all --threads 1 --quiet || { echo "FAIL: $1.export: exit $?" >&2; exit 1; }
	for f in "$tmp"/x/*.parquet; do
		out "$1.export.${f##*/}" cat "$f"
	done
}

: > "$tmp/sums"
profile demo "$samples/demo.neff" "$samples/demo.ntff"
for w in matmul mlp; do
	for a in trn1 inf2 trn2 trn3; do
		for l in 1 2; do
			[ "$l" = 2 ] && [ "$a" != trn2 ] && [ "$a" != trn3 ] && continue
			"$nxp" synth --workload "$w" --arch "$a" --seed 7 --lnc "$l" --instructions 3000 -o "$tmp/p" > /dev/null
			profile "$w-$a-lnc$l" "$tmp/p.neff" "$tmp/p.ntff"
		done
	done
done

if [ "${4:-}" = --update ]; then
	cp "$tmp/sums" "$expected"
	echo "wrote $expected ($(wc -l < "$expected") outputs)"
	exit 0
fi
if ! diff -u "$expected" "$tmp/sums"; then
	echo "FAIL: outputs differ from $expected (an intended change: rerun with --update)" >&2
	exit 1
fi
echo "ok: $(wc -l < "$expected") outputs identical"
