#!/bin/sh
# SPDX-License-Identifier: MIT
# `nxp` on bad use (issue #11): every mistake gives one line on stderr that
# names the file or the option and says what is wrong, a non-zero exit (1 for
# bad input or output, 2 for bad usage) and nothing on stdout; `--help` is on
# stdout with exit 0.  Also --limit, relative --from/--to, the trace's
# first/last timestamps, and `nxp --help` listing every command and option.
#   test_cli.sh SAMPLES_DIR      (NXP_CLI names the built nxp)
set -eu
: "${NXP_CLI:?NXP_CLI must name the built nxp}"
samples=${1:?usage: test_cli.sh SAMPLES_DIR}
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
nxp=$NXP_CLI
# Copies with plain names, so that messages can be matched exactly.
cp "$samples/demo.neff" "$tmp/demo.neff"
cp "$samples/demo.ntff" "$tmp/demo.ntff"
cd "$tmp"
mkdir adir
: > empty.neff
head -c 1 demo.neff > one.neff

# run CMD... : runs nxp, keeps its exit status in $rc, stdout in out, stderr in err
run() {
	set +e
	"$nxp" "$@" > out 2> err
	rc=$?
	set -e
}

# refused CODE PATTERN CMD... : exit CODE, the first stderr line matches the
# extended regular expression PATTERN, stdout is empty.
refused() {
	code=$1 pattern=$2
	shift 2
	run "$@"
	[ "$rc" -eq "$code" ] || fail "nxp $*: exit $rc, want $code (stderr: $(cat err))"
	head -n 1 err | grep -Eq -- "$pattern" || fail "nxp $*: first stderr line '$(head -n 1 err)' does not match '$pattern'"
	[ ! -s out ] || fail "nxp $*: wrote to stdout on failure: $(head -c 200 out)"
	if [ "$code" -eq 1 ]; then
		[ "$(wc -l < err)" -eq 1 ] || fail "nxp $*: want one line on stderr, got: $(cat err)"
	else
		sed -n 2p err | grep -q '^usage: ' || fail "nxp $*: usage does not follow the message: $(cat err)"
	fi
}

# ok CMD... : exit 0 and nothing on stderr
ok() {
	run "$@"
	[ "$rc" -eq 0 ] || fail "nxp $*: exit $rc (stderr: $(cat err))"
	[ ! -s err ] || fail "nxp $*: unexpected stderr: $(cat err)"
}

# ---- inputs recognised by content ------------------------------------------------
refused 1 '^nxp summary: error: demo\.ntff is an NTFF trace, not a NEFF \(arguments swapped\?' summary demo.ntff demo.neff
refused 1 '^nxp dump: error: demo\.ntff is an NTFF trace, not a NEFF \(arguments swapped\?' \
	dump demo.ntff demo.neff --table dma
refused 1 '^nxp info: error: demo\.ntff is an NTFF trace, not a NEFF' info demo.ntff
refused 1 '^nxp summary: error: demo\.neff is a NEFF, not an NTFF trace' summary demo.neff demo.neff
refused 1 '^nxp info: error: adir: is a directory$' info adir
refused 1 '^nxp summary: error: adir: is a directory$' summary demo.neff adir
refused 1 '^nxp dump: error: adir: is a directory$' dump adir demo.ntff --table instruction
refused 1 '^nxp info: error: /dev/null: empty file$' info /dev/null
refused 1 '^nxp info: error: empty\.neff: empty file$' info empty.neff
refused 1 '^nxp summary: error: empty\.neff: empty file$' summary empty.neff demo.ntff
refused 1 '^nxp summary: error: /dev/null: empty file$' summary demo.neff /dev/null
refused 1 '^nxp info: error: nosuch\.neff: No such file or directory$' info nosuch.neff
refused 1 '^nxp info: error: one\.neff: .*truncated' info one.neff
refused 1 '^nxp summary: error: one\.neff: ' summary one.neff demo.ntff
# A file nothing recognises goes to the decoder, whose message gets the name.
printf 'hello, world\n' > text.ntff
refused 1 '^nxp summary: error: text\.ntff: ' summary demo.neff text.ntff
refused 1 '^nxp capture: error: demo\.neff is a NEFF, not a capture directory' capture demo.neff
refused 1 '^nxp capture: error: nosuch: No such file or directory$' capture nosuch

# Past the first look, the library's message names the file it is about.
head -c 2000 demo.ntff > cut.ntff
refused 1 '^nxp summary: error: cut\.ntff: .*\(truncated input, byte offset [0-9]+\)$' summary demo.neff cut.ntff
"$nxp" synth --workload matmul --arch trn2 --seed 9 -o other --quiet
refused 1 '^nxp summary: error: other\.neff and demo\.ntff: NEFF/NTFF UUID mismatch .*; --allow-mismatch reads them anyway$' \
	summary other.neff demo.ntff
ok summary other.neff demo.ntff --allow-mismatch
# export: an existing file is refused with the way out; a table name typo lists the names
ok export demo.neff demo.ntff -o tables/ --tables Instruction --quiet
[ -f tables/Instruction.parquet ] || fail "export -o tables/: $(ls tables)"
refused 1 '^nxp export: error: tables/Instruction\.parquet exists .*; --force replaces existing files$' \
	export demo.neff demo.ntff -o tables/ --tables Instruction --quiet
refused 1 '^nxp export: error: unknown table "Instrction" \(default, all, Instruction, DmaPacket, .*SchemaFields\)' \
	export demo.neff demo.ntff -o tables2 --tables Instrction --quiet
# --level: the codec's level reaches the writer (a higher zstd level, a smaller file); bad levels are usage errors
ok export demo.neff demo.ntff -o lv1 --tables DmaPacket --quiet --level -7
ok export demo.neff demo.ntff -o lv19 --tables DmaPacket --quiet --level 19
[ "$(wc -c < lv19/DmaPacket.parquet)" -lt "$(wc -c < lv1/DmaPacket.parquet)" ] ||
	fail "--level 19 ($(wc -c < lv19/DmaPacket.parquet) B) not smaller than --level -7 ($(wc -c < lv1/DmaPacket.parquet) B)"
refused 2 '^nxp export: --level needs a level' export demo.neff demo.ntff -o lv --level 0
refused 2 '^nxp export: --level needs a level' export demo.neff demo.ntff -o lv --level 23
refused 2 '^nxp export: --level needs a level' export demo.neff demo.ntff -o lv --level
refused 2 '^nxp export: --level needs a codec' export demo.neff demo.ntff -o lv --compression none --level 3
refused 2 '^nxp export: gzip --level is 1\.\.9' export demo.neff demo.ntff -o lv --compression gzip --level 10

# A damaged trace: the commands whose output would not show it say it on stderr
# (exit 0: what could be read is summarised); an intact one says nothing.
cp demo.ntff dmg.ntff
size=$(wc -c < dmg.ntff)
printf '\377\377\377\377\377\377\377\377' | dd of=dmg.ntff bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
for c in summary insights critical-path "info --verify"; do
	# shellcheck disable=SC2086
	run $c demo.neff dmg.ntff
	[ "$rc" -eq 0 ] || fail "nxp $c on a damaged trace: exit $rc ($(cat err))"
	grep -Eq "^nxp ${c%% *}: warning: damaged trace: [0-9]+ records? and [0-9]+ sections? skipped" err ||
		fail "nxp $c on a damaged trace: stderr '$(cat err)'"
	# shellcheck disable=SC2086
	ok $c demo.neff demo.ntff
done

# ---- dump --system: the kind decided before anything is written ------------------
refused 1 '^nxp dump: error: demo\.neff is a NEFF, not a system profile' dump --system demo.neff
refused 1 '^nxp dump: error: demo\.ntff is an NTFF trace, not a system profile' dump --system demo.ntff
refused 1 '^nxp dump: error: empty\.neff: empty file$' dump --system empty.neff
refused 1 '^nxp dump: error: /dev/null: empty file$' dump --system /dev/null
refused 1 '^nxp dump: error: one\.neff is unrecognised data, not a system profile' dump --system one.neff
refused 1 '^nxp dump: error: nosuch: No such file or directory$' dump --system nosuch
"$nxp" synth --workload matmul --arch trn2 --seed 5 --capture cap --ranks 1 > synth.out
grep -q ': 1 rank, ' synth.out || fail "want '1 rank' (singular): $(cat synth.out)"
ok dump --system cap --limit 2
[ "$(wc -l < out)" -eq 3 ] || fail "dump --system --limit 2: want a header and 2 rows, got $(wc -l < out) lines"
ok dump --system cap/*/ntrace.pb --format jsonl --limit 1
[ "$(wc -l < out)" -eq 1 ] && grep -q '^{"id":' out || fail "dump --system ntrace.pb --limit 1: $(cat out)"
ok dump --system cap/*/trace.json --limit 0
[ "$(wc -l < out)" -eq 1 ] || fail "dump --system --limit 0: want the header only"
gzip -c cap/*/trace.json > trace.json.gz
ok dump --system trace.json.gz --format jsonl
[ -s out ] || fail "dump --system of a gzip'd trace.json: no rows"

# ---- output errors: exit 1 with a message --------------------------------------------
if [ -w /dev/full ]; then
	for args in "info demo.neff" "info demo.neff --json" "info demo.neff --verify" "info demo.neff demo.ntff" \
		"summary demo.neff demo.ntff" "summary demo.neff demo.ntff --json" \
		"dump demo.neff demo.ntff --table instruction" "dump demo.neff demo.ntff --table dma --format jsonl" \
		"dump --system cap" "capture cap" "--help" "dump --help"; do
		set +e
		# shellcheck disable=SC2086
		"$nxp" $args > /dev/full 2> err
		rc=$?
		set -e
		[ "$rc" -eq 1 ] || fail "nxp $args > /dev/full: exit $rc, want 1"
		grep -q 'error: cannot write the output: No space left on device' err ||
			fail "nxp $args > /dev/full: message '$(cat err)'"
	done
else
	echo "note: /dev/full is not writable here; output-error cases skipped" >&2
fi

# ---- unknown options and bad values: named first, then the usage, exit 2 ------------
refused 2 "^nxp info: unknown option '--bogus'$" info demo.neff --bogus
refused 2 "^nxp summary: unknown option '--bogus'$" summary demo.neff demo.ntff --bogus
refused 2 "^nxp dump: unknown option '--bogus'$" dump demo.neff demo.ntff --table dma --bogus
refused 2 "^nxp dump: unknown option '--bogus' \(with --system\)$" dump --system cap --bogus
refused 2 "^nxp capture: unknown option '--bogus'$" capture cap --bogus
refused 2 "^nxp synth: unknown option '--bogus'$" synth --workload matmul --arch trn2 --seed 1 -o x --bogus
refused 2 "^nxp synth: unknown option '--bogus'$" synth --bogus 1 --workload matmul
refused 2 "^nxp dump: unknown --format 'xml' \(csv, jsonl\)$" dump demo.neff demo.ntff --table dma --format xml
refused 2 "^nxp dump: unknown --format 'xml' \(csv, jsonl\)$" dump --system cap --format xml
refused 2 "^nxp dump: unknown --table 'nosuch'" dump demo.neff demo.ntff --table nosuch
refused 2 "^nxp dump: no --table given$" dump demo.neff demo.ntff
refused 2 "^nxp dump: --table needs a value$" dump demo.neff demo.ntff --table
refused 2 "^nxp dump: unknown --engine 'warp'" dump demo.neff demo.ntff --table instruction --engine warp
refused 2 "^nxp summary: unknown --arch 'trn9'" summary demo.neff demo.ntff --arch trn9
refused 2 "^nxp info: no NEFF given$" info
refused 2 "^nxp synth: --seed is required$" synth --workload matmul --arch trn2 -o x
refused 2 "^nxp: unknown command 'nosuch'$" nosuch
refused 2 "^nxp: unknown command '--bogus'$" --bogus
refused 2 "^nxp: no command given$"

# ---- filters that cannot match ---------------------------------------------------
d="dump demo.neff demo.ntff"
refused 2 '^nxp dump: --from 2000 is not before --to 1000: the window is empty$' $d --table dma --from 2000 --to 1000
refused 2 '^nxp dump: --from 1000 is not before --to 1000' $d --table dma --from 1000 --to 1000
refused 2 '^nxp dump: --from \+2us \([0-9]+ ns\) is not before --to \+1us' $d --table dma --from +2us --to +1us
refused 2 '^nxp dump: --pcore 9: this profile has 2 physical cores \(0\.\.1\)$' $d --table dma --pcore 9
refused 2 '^nxp dump: --pcore 2: this profile has 2 physical cores' $d --table instruction --pcore 2
refused 2 "^nxp dump: --queue 'nosuch': no such DMA queue \(this NEFF has: .*q_sp_in" $d --table dma --queue nosuch
refused 2 '^nxp dump: --queue selects rows of the dma and active_time tables, not instruction$' \
	$d --table instruction --queue q_sp_in
refused 2 '^nxp dump: --engine selects rows of the instruction and active_time tables, not dma$' \
	$d --table dma --engine tensor
refused 2 '^nxp dump: --engine selects rows of the instruction and active_time tables, not semaphore$' \
	$d --table semaphore --engine tensor
refused 2 '^nxp dump: --engine tensor and --queue q_sp_in together select nothing' \
	$d --table active_time --engine tensor --queue q_sp_in
for t in +1.5ns +5xs abc + +.ms 1e3; do
	refused 2 "^nxp dump: bad --from '$(printf '%s' "$t" | sed 's/[.+]/\\&/g')'" $d --table dma --from "$t"
done
refused 2 "^nxp dump: bad --limit '-1'" $d --table dma --limit -1
refused 2 "^nxp dump: bad --pcore 'x'" $d --table dma --pcore x
# the filters that do apply work
ok $d --table dma --queue q_sp_in --pcore 1
[ "$(wc -l < out)" -gt 1 ] || fail "--queue q_sp_in --pcore 1: no rows"
[ "$(tail -n +2 out | cut -d, -f4 | sort -u)" = 1 ] || fail "--pcore 1 gave rows of other cores"
[ "$(tail -n +2 out | cut -d, -f15 | sort -u)" = q_sp_in ] || fail "--queue q_sp_in gave other queues"
ok $d --table active_time --engine tensor --limit 5
[ "$(tail -n +2 out | cut -d, -f3 | sort -u)" = tensor ] || fail "active_time --engine tensor gave other engines"

# ---- the trace's first/last timestamps, relative times ---------------------------------
ok info demo.neff demo.ntff
first=$(sed -n 's/^  first timestamp *\([0-9]*\) ns$/\1/p' out)
last=$(sed -n 's/^  last timestamp *\([0-9]*\) ns$/\1/p' out)
[ -n "$first" ] && [ -n "$last" ] && [ "$first" -lt "$last" ] || fail "info NEFF NTFF: no first/last timestamps: $(cat out)"
ok info demo.neff demo.ntff --json
grep -q "\"trace\":{.*\"first_hw_timestamp\":$first,\"last_hw_timestamp\":$last" out || fail "info --json: no trace span"
ok info demo.neff --json
grep -q '"trace"' out && fail "info NEFF alone has no trace"
ok summary demo.neff demo.ntff
grep -q "^trace: first timestamp $first ns, last $last ns (" out || fail "summary: no trace span: $(head -n 2 out)"
# every instruction starts within [first, last]
ok $d --table instruction
tail -n +2 out | awk -F, -v f="$first" -v l="$last" '$1 < f || $1 > l { bad = 1 } END { exit bad }' ||
	fail "instructions outside the trace's first/last timestamps"
# +2us..+5us is [first+2000, first+5000), the same rows as the absolute times
ok $d --table instruction --from +2us --to +5us
cp out rel.csv
ok $d --table instruction --from $((first + 2000)) --to $((first + 5000))
cmp -s out rel.csv || fail "relative --from/--to differ from the same absolute times"
[ "$(wc -l < rel.csv)" -gt 1 ] || fail "+2us..+5us: no rows"
tail -n +2 rel.csv | awk -F, -v lo=$((first + 2000)) -v hi=$((first + 5000)) '$1 < lo || $1 >= hi { bad = 1 } END { exit bad }' ||
	fail "rows outside +2us..+5us"
ok $d --table instruction --from +0.002ms --to +0.000005s
cmp -s out rel.csv || fail "+0.002ms..+0.000005s differ from +2us..+5us"
ok $d --table instruction --from +2000ns --to +5000
cmp -s out rel.csv || fail "+2000ns..+5000 differ from +2us..+5us"
# an empty answer that is legitimate: exit 0, the header, and a note why
run $d --table dma --from +2s
[ "$rc" -eq 0 ] || fail "--from +2s: exit $rc"
[ "$(wc -l < out)" -eq 1 ] || fail "--from +2s: want the header only"
grep -q "^nxp dump: note: no dma rows matched the filters (the trace spans $first \.\. $last ns" err ||
	fail "--from +2s: no note on stderr: $(cat err)"

# ---- --limit ---------------------------------------------------------------------
ok $d --table instruction --limit 8
[ "$(wc -l < out)" -eq 9 ] || fail "--limit 8 (csv): want 9 lines with the header, got $(wc -l < out)"
ok $d --table dma --format jsonl --limit 300
[ "$(wc -l < out)" -eq 300 ] || fail "--limit 300 (jsonl): got $(wc -l < out) lines"
ok $d --table execution --limit 0
[ "$(wc -l < out)" -eq 1 ] || fail "--limit 0: want the header only"
ok $d --table execution --limit 1000
[ "$(wc -l < out)" -eq 4 ] || fail "--limit above the row count: want all 3 executions"

# ---- synth: paths, existing captures ---------------------------------------------------
refused 1 '^nxp synth: error: cannot write /nonexistent-dir/x\.neff: No such file or directory' \
	synth --workload matmul --arch trn2 --seed 1 -o /nonexistent-dir/x
if [ "$(id -u)" -ne 0 ]; then
	mkdir ro && chmod 555 ro
	refused 1 '^nxp synth: error: cannot write ro/x\.neff: Permission denied' \
		synth --workload matmul --arch trn2 --seed 1 -o ro/x
fi
ls -R cap > before
refused 1 '^nxp synth: error: cap is not empty: writing a capture into it would mix two captures \(--force' \
	synth --workload matmul --arch trn2 --seed 9 --capture cap --ranks 1
ls -R cap > after
cmp -s before after || fail "a refused synth --capture changed the directory"
refused 1 '^nxp synth: error: demo\.neff: Not a directory' synth --workload matmul --arch trn2 --seed 1 --capture demo.neff
mkdir emptydir
ok synth --workload matmul --arch trn2 --seed 9 --capture emptydir --ranks 2 --quiet
ok synth --workload matmul --arch trn2 --seed 9 --capture cap --ranks 2 --force
grep -q ': 2 ranks, ' out || fail "want '2 ranks': $(cat out)"

# ---- --help: stdout, exit 0, every command and option ----------------------------------
for c in info summary dump capture synth "dump --system"; do
	# shellcheck disable=SC2086
	ok $c --help
	head -n 1 out | grep -q '^usage: nxp ' || fail "nxp $c --help: $(head -n 1 out)"
done
ok --help
for want in 'nxp info NEFF \[NTFF\]' 'nxp summary NEFF NTFF' 'nxp dump NEFF NTFF' 'nxp dump --system' \
	'nxp capture DIR' 'nxp synth .*-o PREFIX' 'nxp synth .*--capture DIR' 'active_time' '--pcore' '--queue' \
	'--engine' '--from' '--to' '--limit' '--allow-mismatch' '--arch trn1' '--format csv\|jsonl' '--json' \
	'--verify' '--ranks' '--force' '--lnc' '--instructions' '--executions' '--compress' '--quiet' '--version' \
	'nxp export NEFF NTFF -o DIR' '--tables' '--compression' '--level' '--threads' '--system DIR|FILE' '--capture DIR' \
	'--format perfetto|chrome-json' '--max-events' '--no-flows' '--combined' '--execution N' '--window'; do
	grep -q -- "$want" out || fail "nxp --help does not mention '$want'"
done

echo "ok: nxp on bad use"
