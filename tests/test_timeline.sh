#!/bin/sh
# SPDX-License-Identifier: MIT
# Timeline export end to end: `nxp export --format perfetto|chrome-json` on the
# demo pair, a synthetic LNC=2 trn2 profile and a truncated (damaged) copy, each
# file checked by tests/pftrace_check.py -- an independent protobuf wire-format
# reader written from Perfetto's upstream field numbers -- against `nxp dump
# --format jsonl` of the same profile.  The checker itself must reject a broken
# trace.
set -eu
: "${NXP_CLI:?NXP_CLI must name the built nxp}"
py=${1:?usage: test_timeline.sh PYTHON CHECKER SAMPLES_DIR}
check=${2:?}
samples=${3:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

export_both() { # NEFF NTFF NAME [extra options...]
	neff=$1 ntff=$2 name=$3
	shift 3
	"$NXP_CLI" export "$neff" "$ntff" --format perfetto -o "$tmp/$name.pftrace" --quiet "$@" ||
		fail "perfetto export of $name"
	"$NXP_CLI" export "$neff" "$ntff" --format chrome-json -o "$tmp/$name.json.gz" --quiet "$@" ||
		fail "chrome-json export of $name"
	"$NXP_CLI" export "$neff" "$ntff" --format chrome-json -o "$tmp/$name.json" --quiet "$@" ||
		fail "chrome-json export of $name"
}

# 1. the demo pair (LNC=2 matmul)
export_both "$samples/demo.neff" "$samples/demo.ntff" demo
"$py" "$check" --cli "$NXP_CLI" --neff "$samples/demo.neff" --ntff "$samples/demo.ntff" \
	--pftrace "$tmp/demo.pftrace" --chrome "$tmp/demo.json" || fail "demo"
"$py" "$check" --cli "$NXP_CLI" --neff "$samples/demo.neff" --ntff "$samples/demo.ntff" \
	--chrome "$tmp/demo.json.gz" || fail "demo .json.gz"
[ "$(od -An -tx1 -N2 "$tmp/demo.json.gz" | tr -d ' ')" = 1f8b ] || fail ".json.gz is not gzip"

# 2. a synthetic LNC=2 mlp profile on trn2
"$NXP_CLI" synth --workload mlp --arch trn2 --lnc 2 --seed 3 -o "$tmp/mlp" --quiet >/dev/null
export_both "$tmp/mlp.neff" "$tmp/mlp.ntff" mlp
"$py" "$check" --cli "$NXP_CLI" --neff "$tmp/mlp.neff" --ntff "$tmp/mlp.ntff" \
	--pftrace "$tmp/mlp.pftrace" --chrome "$tmp/mlp.json" --expect-flows || fail "mlp lnc2"

#     The flow cursor on a thread of its own (more than one CPU) or in line
#     (NXP_THREADS=1): the same bytes.
NXP_THREADS=2 "$NXP_CLI" export "$tmp/mlp.neff" "$tmp/mlp.ntff" --format perfetto -o "$tmp/mlp-t2.pftrace" --quiet ||
	fail "perfetto export, flow cursor on a thread"
NXP_THREADS=1 "$NXP_CLI" export "$tmp/mlp.neff" "$tmp/mlp.ntff" --format perfetto -o "$tmp/mlp-t1.pftrace" --quiet ||
	fail "perfetto export, flow cursor in line"
cmp -s "$tmp/mlp-t1.pftrace" "$tmp/mlp-t2.pftrace" || fail "flow cursor on a thread: not the same trace as in line"
cmp -s "$tmp/mlp-t1.pftrace" "$tmp/mlp.pftrace" || fail "NXP_THREADS=1: not the same trace as the default"

# 2b. --compress: the same trace as zlib compressed_packets bundles (several,
#     each under 512 KB), which the checker inflates; the same events, smaller.
"$NXP_CLI" export "$tmp/mlp.neff" "$tmp/mlp.ntff" --format perfetto -o "$tmp/mlpz.pftrace" --quiet --compress ||
	fail "perfetto --compress export"
"$py" "$check" --cli "$NXP_CLI" --neff "$tmp/mlp.neff" --ntff "$tmp/mlp.ntff" \
	--pftrace "$tmp/mlpz.pftrace" --expect-flows || fail "mlp --compress"
bundles() { # FILE: "B P": top-level packets that are compressed_packets bundles, all packets
	"$py" -c 'import sys; sys.path.insert(0, sys.argv[1]); import pftrace_check as pc
top = list(pc.fields(open(sys.argv[2], "rb").read()))
print(sum(1 for n, w, p in top if any(f == pc.TP_COMPRESSED for f, _, _ in pc.fields(p))), len(top))' \
		"$(dirname "$check")" "$1" || fail "counting the bundles of $1"
}
set -- $(bundles "$tmp/mlpz.pftrace")
[ "$1" -ge 2 ] && [ "$1" -eq "$2" ] || fail "--compress: $1 of $2 packets are compressed_packets bundles"
[ $(($(wc -c <"$tmp/mlpz.pftrace") * 3)) -lt "$(wc -c <"$tmp/mlp.pftrace")" ] ||
	fail "--compress: not a third of the plain trace"

# 3. --max-events: stops with a note in the trace and on stderr
"$NXP_CLI" export "$samples/demo.neff" "$samples/demo.ntff" --format perfetto -o "$tmp/cut.pftrace" \
	--max-events 500 2>"$tmp/cut.err" || fail "max-events export"
grep -q 'max-events 500 reached' "$tmp/cut.err" || fail "no max-events note on stderr"
"$py" "$check" --cli "$NXP_CLI" --neff "$samples/demo.neff" --ntff "$samples/demo.ntff" \
	--pftrace "$tmp/cut.pftrace" --truncated || fail "max-events trace"

# 4. damaged traces: 64 bytes garbled at 20/40/60 % of the NTFF.  The export
#    holds exactly what the cursors return (nxp dump of the same file), warns
#    on stderr, and the file is well-formed.
size=$(wc -c <"$samples/demo.ntff")
for pct in 20 40 60; do
	cp "$samples/demo.ntff" "$tmp/g$pct.ntff"
	"$py" -c "import sys; f=open(sys.argv[1],'r+b'); f.seek(int(sys.argv[2])); f.write(b'\xff'*64)" \
		"$tmp/g$pct.ntff" $((size * pct / 100))
	"$NXP_CLI" export "$samples/demo.neff" "$tmp/g$pct.ntff" --format perfetto -o "$tmp/g$pct.pftrace" \
		--quiet 2>"$tmp/g$pct.err" || fail "damaged at $pct %: export failed"
	grep -q 'damaged' "$tmp/g$pct.err" || fail "damaged at $pct %: no warning on stderr"
	"$NXP_CLI" export "$samples/demo.neff" "$tmp/g$pct.ntff" --format chrome-json -o "$tmp/g$pct.json" \
		--quiet 2>/dev/null || fail "damaged at $pct %: chrome-json export failed"
	"$py" "$check" --cli "$NXP_CLI" --neff "$samples/demo.neff" --ntff "$tmp/g$pct.ntff" \
		--pftrace "$tmp/g$pct.pftrace" --chrome "$tmp/g$pct.json" || fail "damaged trace at $pct %"
done
#    A semaphore section lost in a longer trace: the waits it would have
#    resolved pile up, and hundreds of flow ids end on one slice.  The sink
#    sized a slice end's buffer at 9 bytes a flow id (it takes 10) and wrote
#    past it (heap overflow; ASan names it, a plain build may abort).  The
#    export must succeed and the pile-up must be there (else this test no
#    longer reaches the case: pick another offset).
"$NXP_CLI" synth --workload mlp --arch trn2 --lnc 2 --seed 1 --instructions 100000 -o "$tmp/pile" --quiet >/dev/null ||
	fail "synth (pile-up)"
"$py" -c "import sys; f=open(sys.argv[1],'r+b'); f.seek(10000000); f.write(b'\xff'*64)" "$tmp/pile.ntff"
"$NXP_CLI" export "$tmp/pile.neff" "$tmp/pile.ntff" --format perfetto -o "$tmp/pile.pftrace" --quiet \
	2>"$tmp/pile.err" || fail "flow pile-up: export failed: $(cat "$tmp/pile.err")"
most=$("$py" -c 'import sys; sys.path.insert(0, sys.argv[1]); import pftrace_check as pc
print(max([sum(1 for g, _, _ in pc.fields(v) if g in (47, 48))
           for n, w, p in pc.fields(open(sys.argv[2], "rb").read()) for f, _, v in pc.fields(p) if f == 11] + [0]))' \
	"$(dirname "$check")" "$tmp/pile.pftrace") || fail "flow pile-up: counting flow ids"
[ "$most" -ge 20 ] || fail "flow pile-up: at most $most flow ids on a slice (the case needs 20 or more)"
#    The NTFF cut at 60 %: the export says what is wrong or writes a well-formed file.
head -c $((size * 6 / 10)) "$samples/demo.ntff" >"$tmp/cut.ntff"
if "$NXP_CLI" export "$samples/demo.neff" "$tmp/cut.ntff" --format perfetto -o "$tmp/dmg.pftrace" --quiet \
	2>"$tmp/dmg.err"; then
	"$NXP_CLI" export "$samples/demo.neff" "$tmp/cut.ntff" --format chrome-json -o "$tmp/dmg.json" --quiet \
		2>/dev/null || fail "damaged: perfetto export worked, chrome-json did not"
	"$py" "$check" --cli "$NXP_CLI" --neff "$samples/demo.neff" --ntff "$tmp/cut.ntff" \
		--pftrace "$tmp/dmg.pftrace" --chrome "$tmp/dmg.json" --subset || fail "damaged trace"
else
	# The profile did not open at all: nothing may be left behind.
	[ ! -e "$tmp/dmg.pftrace" ] || fail "failed export left $tmp/dmg.pftrace"
fi
ls "$tmp" | grep -q '\.tmp\.' && fail "a temporary file was left behind"

# 5. an existing file is refused without --force and kept as it was
echo keep >"$tmp/exists.pftrace"
if "$NXP_CLI" export "$samples/demo.neff" "$samples/demo.ntff" --format perfetto -o "$tmp/exists.pftrace" \
	2>/dev/null; then
	fail "overwrote an existing file without --force"
fi
[ "$(cat "$tmp/exists.pftrace")" = keep ] || fail "existing file changed"

# 6. the checker must fail on a broken trace (a cut packet) and on a wrong one
head -c 100000 "$tmp/demo.pftrace" >"$tmp/broken.pftrace"
if "$py" "$check" --cli "$NXP_CLI" --neff "$samples/demo.neff" --ntff "$samples/demo.ntff" \
	--pftrace "$tmp/broken.pftrace" 2>/dev/null; then
	fail "checker accepted a truncated trace"
fi
if "$py" "$check" --cli "$NXP_CLI" --neff "$tmp/mlp.neff" --ntff "$tmp/mlp.ntff" \
	--pftrace "$tmp/demo.pftrace" 2>/dev/null; then
	fail "checker accepted another profile's trace"
fi
# 7. a capture: OUT/device_profile_<NTFF name>.pftrace per device profile, each
#    checked against its own profile, and OUT/system_profile.pftrace with one
#    slice per `nxp dump --system` row and the CPU / memory counters.
"$NXP_CLI" synth --capture "$tmp/cap" --ranks 2 --workload mlp --arch trn2 --seed 5 --instructions 3000 \
	--quiet >/dev/null || fail "synth --capture"
"$NXP_CLI" export --capture "$tmp/cap" --format perfetto -o "$tmp/capout" --quiet || fail "capture export"
want=$(for f in "$tmp"/cap/*/*.ntff; do echo "device_profile_$(basename "$f" .ntff).pftrace"; done |
	{ cat; echo system_profile.pftrace; } | LC_ALL=C sort)
got=$(ls "$tmp/capout" | LC_ALL=C sort)
[ "$want" = "$got" ] || fail "capture export files: got '$got', want '$want'"
[ "$(ls "$tmp"/cap/*/*.ntff | wc -l)" -eq 2 ] || fail "synth --ranks 2 did not make two profiles"
for f in "$tmp"/cap/*/*.ntff; do
	b=$(basename "$f" .ntff)
	neff=$(ls "$(dirname "$f")"/*.neff | head -1)
	"$py" "$check" --cli "$NXP_CLI" --neff "$neff" --ntff "$f" \
		--pftrace "$tmp/capout/device_profile_$b.pftrace" || fail "capture device profile $b"
done
"$py" "$check" --cli "$NXP_CLI" --system "$tmp/capout/system_profile.pftrace" --capture "$tmp/cap" ||
	fail "capture system profile"
#    rows of one thread that overlap partly or come out of time order go to
#    lane tracks: the system file still pairs and nests properly
mkdir -p "$tmp/capj/i-0abc_pid_7"
cat >"$tmp/capj/i-0abc_pid_7/trace.json" <<'JSON'
{"traceEvents":[
{"name":"A","ph":"X","ts":100,"dur":10,"pid":7,"tid":1},
{"name":"B","ph":"X","ts":105,"dur":10,"pid":7,"tid":1},
{"name":"C","ph":"X","ts":102,"dur":1,"pid":7,"tid":1},
{"name":"D","ph":"X","ts":101,"dur":2,"pid":7,"tid":1},
{"name":"E","ph":"X","ts":50,"dur":200,"pid":7,"tid":1}
]}
JSON
"$NXP_CLI" export --capture "$tmp/capj" --format perfetto -o "$tmp/capjout" --quiet || fail "trace.json capture export"
"$py" "$check" --cli "$NXP_CLI" --system "$tmp/capjout/system_profile.pftrace" --capture "$tmp/capj" ||
	fail "overlapping system rows"
#    the system check fails on another capture's file
"$NXP_CLI" synth --capture "$tmp/cap1" --ranks 1 --workload matmul --arch trn1 --seed 9 --quiet >/dev/null ||
	fail "synth --capture (1 rank)"
if "$py" "$check" --cli "$NXP_CLI" --system "$tmp/capout/system_profile.pftrace" --capture "$tmp/cap1" \
	>/dev/null 2>&1; then
	fail "checker accepted another capture's system trace"
fi
#    an existing file is refused without --force; with it the export is redone
"$NXP_CLI" export --capture "$tmp/cap" --format perfetto -o "$tmp/capout" 2>/dev/null &&
	fail "capture export overwrote without --force"
"$NXP_CLI" export --capture "$tmp/cap" --format perfetto -o "$tmp/capout" --force --quiet ||
	fail "capture export --force"
# 8. capture timelines (issue 14): tests/pftrace_capture_check.py decodes the
#    files itself (upstream field numbers, flows 47/48 replayed as
#    trace_processor links them) against `nxp dump` rows and a clock mapping it
#    recomputes from the timestamp_sync_point rows.
ccheck="$(dirname "$check")/pftrace_capture_check.py"
"$NXP_CLI" synth --workload mlp --arch trn2 --seed 1 --capture "$tmp/cc" --ranks 2 --instructions 10000 --quiet \
	>/dev/null || fail "synth --capture (combined)"
"$NXP_CLI" export --capture "$tmp/cc" --format perfetto -o "$tmp/ccout" --combined --quiet ||
	fail "capture export --combined"
"$py" "$ccheck" --cli "$NXP_CLI" --capture "$tmp/cc" --out "$tmp/ccout" --combined >"$tmp/cc.out" ||
	fail "combined capture"
grep -q ' 6 nrt_execute -> execution flows' "$tmp/cc.out" ||
	fail "--combined: want 6 nrt_execute arrows (2 ranks x 3 executions): $(cat "$tmp/cc.out")"
#    --compress: every file (device, system, combined: written in segments)
#    in compressed_packets bundles, the same content
"$NXP_CLI" export --capture "$tmp/cc" --format perfetto -o "$tmp/ccz" --combined --compress --quiet ||
	fail "capture export --combined --compress"
"$py" "$ccheck" --cli "$NXP_CLI" --capture "$tmp/cc" --out "$tmp/ccz" --combined >"$tmp/ccz.out" ||
	fail "combined capture --compress"
grep -q ' 6 nrt_execute -> execution flows' "$tmp/ccz.out" || fail "--compress: $(cat "$tmp/ccz.out")"
for f in "$tmp/ccz"/*.pftrace; do
	set -- $(bundles "$f")
	[ "$1" -ge 1 ] && [ "$1" -eq "$2" ] || fail "--compress: $1 of $2 packets of $f are bundles"
done
#    LNC=2 ranks (two pcores per profile) combine the same way
"$NXP_CLI" synth --workload mlp --arch trn2 --lnc 2 --seed 3 --capture "$tmp/cl2" --ranks 2 --instructions 3000 \
	--quiet >/dev/null || fail "synth --capture --lnc 2"
"$NXP_CLI" export --capture "$tmp/cl2" --format perfetto -o "$tmp/cl2out" --combined --quiet ||
	fail "capture export --combined (lnc 2)"
"$py" "$ccheck" --cli "$NXP_CLI" --capture "$tmp/cl2" --out "$tmp/cl2out" --combined >/dev/null ||
	fail "combined capture (lnc 2)"
#    other groupings: the track hierarchy follows the options
for g in "instance_id nc_idx,trace_event_source" "trace_event_source,nc_idx thread_id" "name pcore_idx" ","; do
	set -- $g
	sec=${2:-}
	rm -rf "$tmp/ccg"
	"$NXP_CLI" export --capture "$tmp/cc" --format perfetto -o "$tmp/ccg" --quiet \
		--system-trace-primary-group "$1" --system-trace-secondary-group "$sec" || fail "grouping $g"
	"$py" "$ccheck" --cli "$NXP_CLI" --capture "$tmp/cc" --out "$tmp/ccg" --primary "$1" --secondary "$sec" ||
		fail "grouping $g"
done
#    the checker sees a grouping that is not the one asked for
if "$py" "$ccheck" --cli "$NXP_CLI" --capture "$tmp/cc" --out "$tmp/ccg" --primary instance_id,process_id \
	>/dev/null 2>&1; then
	fail "checker accepted a grouping other than the one exported"
fi
#    the group fields are checked before anything is written
if "$NXP_CLI" export --capture "$tmp/cc" --format perfetto -o "$tmp/ccbad" --system-trace-primary-group \
	instance_id,pid 2>"$tmp/bad.err"; then
	fail "unknown group field accepted"
fi
grep -q "unknown field 'pid'" "$tmp/bad.err" || fail "unknown group field: $(cat "$tmp/bad.err")"
[ ! -e "$tmp/ccbad" ] || fail "a refused export created $tmp/ccbad"
"$NXP_CLI" export "$samples/demo.neff" "$samples/demo.ntff" --format perfetto -o "$tmp/x.pftrace" --combined \
	2>/dev/null && fail "--combined accepted without --capture"
#    system flows: trace.json flow rows (s/t/f, matched by id within cat) chain
#    in time order; an id seen once makes no arrow
mkdir -p "$tmp/capf/i-0abc_pid_9"
cat >"$tmp/capf/i-0abc_pid_9/trace.json" <<'JSON'
{"traceEvents":[
{"name":"fwd","ph":"X","ts":100,"dur":50,"pid":9,"tid":1},
{"name":"launch","ph":"s","ts":110,"id":7,"cat":"c","pid":9,"tid":1},
{"name":"launch","ph":"f","ts":300,"id":7,"cat":"c","pid":9,"tid":2,"bp":"e"},
{"name":"step","ph":"t","ts":200,"id":7,"cat":"c","pid":9,"tid":3},
{"name":"other","ph":"s","ts":120,"id":8,"cat":"c","pid":9,"tid":1},
{"name":"bwd","ph":"X","ts":290,"dur":30,"pid":9,"tid":2}
]}
JSON
"$NXP_CLI" export --capture "$tmp/capf" --format perfetto -o "$tmp/capfout" 2>"$tmp/capf.err" ||
	fail "flow capture export"
grep -q ' 1 flows' "$tmp/capf.err" || fail "flow capture: want 1 flow chain: $(cat "$tmp/capf.err")"
"$py" "$ccheck" --cli "$NXP_CLI" --capture "$tmp/capf" --out "$tmp/capfout" || fail "system flows"
echo "timeline: all checks passed"
