#!/bin/sh
# nxp export read back by DuckDB (tests/js/export_check.mjs): the demo pair and
# a synthetic LNC=2 profile, compared with nxp dump (the cursor API) and
# nxp summary --json; a damaged trace's skipped records counted on stderr.
# Exit 77 when node or the node packages (./dev.sh installs them) are absent.
#   test_export.sh NXP_CLI JS_DIR SOURCE_JS_DIR SAMPLES_DIR
set -eu
nxp=$1 jsdir=$2 src=$3 samples=$4
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nxp-export.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# damaged input (no node needed): a byte flipped in the middle of the trace
"$nxp" synth --workload mlp --arch trn2 --lnc 2 --seed 5 --instructions 3000 -o "$tmp/d" --quiet
size=$(wc -c < "$tmp/d.ntff")
printf '\377\377\377\377\377\377\377\377' | dd of="$tmp/d.ntff" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
"$nxp" export "$tmp/d.neff" "$tmp/d.ntff" -o "$tmp/dout" --quiet 2> "$tmp/d.err" || fail "export of a damaged trace: $(cat "$tmp/d.err")"
grep -q 'skipped (see Warning.parquet' "$tmp/d.err" || fail "no skipped count on stderr: $(cat "$tmp/d.err")"
[ -f "$tmp/dout/Warning.parquet" ] || fail "no Warning.parquet"
# an intact trace says nothing
"$nxp" synth --workload mlp --arch trn2 --lnc 2 --seed 5 --instructions 3000 -o "$tmp/ok" --quiet
"$nxp" export "$tmp/ok.neff" "$tmp/ok.ntff" -o "$tmp/okout" --quiet 2> "$tmp/ok.err"
[ ! -s "$tmp/ok.err" ] || fail "stderr on an intact trace: $(cat "$tmp/ok.err")"

# --threads: the same files at 1, 2 and 0 (all cores); Flow only when asked for
for t in 1 2 0; do
	"$nxp" export "$tmp/ok.neff" "$tmp/ok.ntff" -o "$tmp/th$t" --threads $t --quiet || fail "export --threads $t"
done
for f in "$tmp"/th1/*.parquet; do
	b=$(basename "$f")
	cmp -s "$f" "$tmp/th2/$b" && cmp -s "$f" "$tmp/th0/$b" || fail "$b differs between --threads 1, 2 and 0"
done
[ "$(ls "$tmp/th1" | wc -l)" -eq "$(ls "$tmp/th2" | wc -l)" ] || fail "--threads 1 and 2 wrote different file sets"
[ ! -e "$tmp/th1/Flow.parquet" ] || fail "Flow.parquet in the default export"
"$nxp" export "$tmp/ok.neff" "$tmp/ok.ntff" -o "$tmp/flow" --tables +Flow --quiet || fail "export --tables +Flow"
[ -f "$tmp/flow/Flow.parquet" ] && [ -f "$tmp/flow/Instruction.parquet" ] || fail "--tables +Flow: $(ls "$tmp/flow")"
"$nxp" export "$tmp/ok.neff" "$tmp/ok.ntff" -o "$tmp/flowall" --tables all --threads 2 --quiet || fail "--tables all"
cmp -s "$tmp/flow/Flow.parquet" "$tmp/flowall/Flow.parquet" || fail "Flow.parquet differs (+Flow vs all)"
if "$nxp" export "$tmp/ok.neff" "$tmp/ok.ntff" -o "$tmp/bad" --threads -1 2>/dev/null; then fail "--threads -1 accepted"; fi
# the damaged trace's count is the same at any width
"$nxp" export "$tmp/d.neff" "$tmp/d.ntff" -o "$tmp/dout1" --quiet --threads 1 2> "$tmp/d1.err" || fail "damaged --threads 1"
cmp -s "$tmp/d.err" "$tmp/d1.err" || fail "skipped count differs at --threads 1: $(cat "$tmp/d1.err")"

if ! command -v node >/dev/null 2>&1; then
	echo "SKIP: node not found (the damaged-trace checks passed)"; exit 77
fi
if [ ! -d "$jsdir/node_modules/@duckdb/node-api" ]; then
	echo "SKIP: $jsdir/node_modules/@duckdb/node-api missing (./dev.sh test runs npm ci there)"; exit 77
fi
cp "$src/export_check.mjs" "$src/capture_check.mjs" "$jsdir/"

# the damaged trace's Warning.parquet: the records and sections stderr counts
recs=$(sed -n 's/^nxp export: \([0-9]*\) damaged record.* and \([0-9]*\) section.*/\1/p' "$tmp/d.err")
secs=$(sed -n 's/^nxp export: \([0-9]*\) damaged record.* and \([0-9]*\) section.*/\2/p' "$tmp/d.err")
[ -n "$recs" ] && [ -n "$secs" ] && [ $((recs + secs)) -gt 0 ] || fail "no skipped count on stderr: $(cat "$tmp/d.err")"
(cd "$jsdir" && node --input-type=module -e "
import { DuckDBInstance } from '@duckdb/node-api';
const con = await (await DuckDBInstance.create(':memory:')).connect();
const [r] = (await con.runAndReadAll(\`SELECT count(*) FILTER (WHERE category IN ('skipped_records', 'skipped_sections')) AS n,
    coalesce(sum(record_count) FILTER (WHERE category = 'skipped_records'), 0) AS r,
    coalesce(sum(record_count) FILTER (WHERE category = 'skipped_sections'), 0) AS s,
    coalesce(max(record_count) FILTER (WHERE category IN ('skipped_records', 'skipped_sections')), 0) AS m
    FROM read_parquet('$tmp/dout/Warning.parquet')\`)).getRowObjectsJS();
const [n, rr, ss, m] = [r.n, r.r, r.s, r.m].map(Number);
// one row per skipped record or section when each counts one; never more rows than skipped
const ok = rr === $recs && ss === $secs && n >= 1 && n <= $recs + $secs && (m !== 1 || n === $recs + $secs);
if (!ok) { console.error('FAIL Warning.parquet:', r, 'stderr: $recs records, $secs sections'); process.exit(1); }
console.log('damaged: Warning.parquet has', n, 'rows for the $recs records and $secs sections stderr counts');
") || fail "Warning.parquet of the damaged trace"

# a capture: Hive partitions per profile, each equal to the profile's own export
"$nxp" synth --capture "$tmp/cap" --ranks 3 --workload mlp --arch trn2 --seed 7 --instructions 4000 --quiet
"$nxp" export --capture "$tmp/cap" -o "$tmp/capout" --quiet
names=
for f in "$tmp"/cap/*/*.ntff; do
	name=$(basename "$f" .ntff)
	neff=$(ls "$(dirname "$f")"/*.neff)
	"$nxp" export "$neff" "$f" -o "$tmp/per/$name" --quiet
	names="$names $name"
done
# shellcheck disable=SC2086
node "$jsdir/capture_check.mjs" "$tmp/capout" "$tmp/per" $names
# existing partitions are refused without --force, replaced with it
if "$nxp" export --capture "$tmp/cap" -o "$tmp/capout" --quiet 2>/dev/null; then fail "capture export over existing files"; fi
"$nxp" export --capture "$tmp/cap" -o "$tmp/capout" --quiet --force || fail "capture export --force"
# --system FILE: each file fills the tables of its kind (by its name), the
# others have no rows; together they are the process directory's export
pdir=$(ls -d "$tmp"/cap/*/ | head -n 1)
"$nxp" export --system "$pdir" -o "$tmp/sys/dir" --quiet || fail "export --system DIR"
for f in ntrace.pb trace.json trace_info.pb cpu_util.pb host_mem.pb; do
	[ -f "$pdir/$f" ] || fail "the synthetic capture has no $f"
	"$nxp" export --system "$pdir/$f" -o "$tmp/sys/$f" --quiet 2> "$tmp/sys.err" ||
		fail "export --system $f: $(cat "$tmp/sys.err")"
done
(cd "$jsdir" && node --input-type=module -e "
import { DuckDBInstance } from '@duckdb/node-api';
const con = await (await DuckDBInstance.create(':memory:')).connect();
const n = async (d, t) => Number((await con.runAndReadAll(\`SELECT count(*) FROM read_parquet('$tmp/sys/\${d}/\${t}.parquet')\`)).getRows()[0][0]);
const own = { 'ntrace.pb': 'SystemProfileEvents', 'trace.json': 'SystemProfileEvents', 'trace_info.pb': 'SystemProfileMetadata',
              'cpu_util.pb': 'CpuUsage', 'host_mem.pb': 'HostMemUsage' };
const tables = ['SystemProfileEvents', 'SystemProfileMetadata', 'CpuUsage', 'HostMemUsage'];
for (const t of tables) {
  let sum = 0;
  for (const [f, mine] of Object.entries(own)) {
    const k = await n(f, t);
    if (t !== mine && k !== 0) { console.error('FAIL --system', f, 'wrote', k, 'rows of', t); process.exit(1); }
    sum += k;
  }
  const d = await n('dir', t);
  if (sum !== d || d === 0) { console.error('FAIL', t, ': files', sum, 'rows, directory', d); process.exit(1); }
}
console.log('--system FILE: each file its own tables, the sums equal the directory export');
") || fail "--system FILE tables"
"$nxp" synth --workload mlp --arch trn2 --lnc 2 --seed 3 --instructions 20000 -o "$tmp/s" --quiet
for p in "$samples/demo" "$tmp/s"; do
	name=$(basename "$p")
	out=$tmp/out-$name dumps=$tmp/dump-$name
	mkdir -p "$dumps"
	"$nxp" export "$p.neff" "$p.ntff" -o "$out" --quiet
	for t in instruction dma semaphore active_time; do
		"$nxp" dump "$p.neff" "$p.ntff" --table $t --format jsonl > "$dumps/$t.jsonl"
	done
	"$nxp" summary "$p.neff" "$p.ntff" --json > "$tmp/summary-$name.json"
	node "$jsdir/export_check.mjs" "$out" "$dumps" "$tmp/summary-$name.json"
done
