#!/usr/bin/env bash
# libnxp developer entry point.  Each command installs what it needs on a fresh
# Debian 12 machine (as root, or with sudo), configures, builds and runs.
#
#   ./dev.sh demo     build, then summarise the bundled sample profile
#   ./dev.sh test     build and run every test (unit, CLI, bindings), then the
#                     suite again under ASan+UBSan, then the unit suites under
#                     ThreadSanitizer; ends with
#                     "N passed, N failed, N skipped" (skipped: e.g. the tests
#                     of the optional ../shared corpus when it is absent)
#   ./dev.sh asan     only the ASan+UBSan run
#   ./dev.sh tsan     ThreadSanitizer build (clang) of the library and the unit
#                     tests, run (races fail: halt_on_error)
#   ./dev.sh abi      compare the built library's ABI with abi/libnxp.abi (abidiff)
#   ./dev.sh abi-update   rewrite the baseline (after an intended ABI addition)
#   ./dev.sh fuzz [SECONDS]   build libFuzzer targets with clang and run each
#   ./dev.sh bench    build and run the benchmarks (figures printed; the
#                     Parquet one against DuckDB's writer needs npm)
#   ./dev.sh valgrind run the unit suites under valgrind memcheck
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$PWD

PACKAGES=(meson ninja-build gcc g++ pkg-config python3 libarchive-dev libjansson-dev zlib1g-dev
	libprotobuf-c-dev protobuf-c-compiler check libmd-dev libdeflate-dev abigail-tools clang
	libclang-rt-14-dev valgrind python3-pytest chromium python3-pandas python3-dask python3-distributed
	libzstd-dev python3-numpy python3-venv libotf2-trace-dev)

log() { printf '==> %s\n' "$*" >&2; }

ensure_packages() {
	local missing=() p
	for p in "${PACKAGES[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	local sudo=()
	[ "$(id -u)" -eq 0 ] || sudo=(sudo)
	log "installing: ${missing[*]}"
	"${sudo[@]}" apt-get update -qq
	DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
}

# build DIR [meson options...]
build() {
	local dir=$1; shift
	if [ ! -f "$dir/build.ninja" ]; then
		# The log goes inside the build directory (meson accepts a directory
		# that exists but is not configured yet).
		mkdir -p "$dir"
		meson setup "$dir" --werror "$@" > "$dir/setup.log" 2>&1 || { cat "$dir/setup.log" >&2; return 1; }
	fi
	local out
	if ! out=$(ninja -C "$dir" 2>&1); then
		printf '%s\n' "$out" | tail -n 60 >&2
		log "build failed in $dir"
		return 1
	fi
}

# Count results of the `meson test` just run in DIR (its testlog*.json: a
# --wrapper run writes testlog-<wrapper>.json): prints "passed failed skipped".
# A test that exits 77 is SKIP (e.g. it needs ../shared and the folder is
# absent): counted as skipped, never as passed.  No log at all (meson test did
# not get as far as running tests) counts as one failure.
count_results() {
	local logf
	logf=$(ls -t "$1"/meson-logs/testlog*.json 2>/dev/null | head -n 1)
	if [ -z "$logf" ]; then
		echo "0 1 0"
		return
	fi
	python3 - "$logf" <<'PY'
import json, sys
p = f = s = 0
for line in open(sys.argv[1]):
    r = json.loads(line).get("result")
    if r in ("OK", "EXPECTEDFAIL"): p += 1
    elif r == "SKIP": s += 1
    elif r: f += 1
print(p, f, s)
PY
}

# install_js_readers DIR: the Parquet readers the parquet_readers test uses
# (DuckDB's @duckdb/node-api, hyparquet; pinned by tests/js/package-lock.json)
# into DIR/js/node_modules with `npm ci`.  Without node/npm or the registry the
# test skips (exit 77) and says why.
install_js_readers() {
	local dir=$1/js
	if ! command -v npm >/dev/null 2>&1; then
		log "npm not found: the Parquet reader test (DuckDB, hyparquet) will be skipped"
		return 0
	fi
	mkdir -p "$dir"
	if [ -d "$dir/node_modules" ] && cmp -s tests/js/package-lock.json "$dir/package-lock.json"; then
		return 0
	fi
	cp tests/js/package.json tests/js/package-lock.json "$dir"/
	log "npm ci (DuckDB, hyparquet) into $dir"
	if ! npm ci --prefix "$dir" --no-audit --no-fund > "$dir/npm.log" 2>&1; then
		log "npm ci failed (see $dir/npm.log): the Parquet reader test will be skipped"
		rm -rf "$dir/node_modules" "$dir/package-lock.json"
	fi
}

TOTAL_PASS=0
TOTAL_FAIL=0
TOTAL_SKIP=0
# run_suite DIR LABEL [meson test args]
run_suite() {
	local dir=$1 label=$2; shift 2
	log "tests: $label"
	rm -f "$dir"/meson-logs/testlog*.json
	set +e
	meson test -C "$dir" --print-errorlogs "$@"
	set -e
	local counts p f s
	counts=$(count_results "$dir")
	read -r p f s <<< "$counts"
	TOTAL_PASS=$((TOTAL_PASS + p))
	TOTAL_FAIL=$((TOTAL_FAIL + f))
	TOTAL_SKIP=$((TOTAL_SKIP + s))
}

# The last line of test, asan and valgrind; their exit status.
report() {
	echo "$TOTAL_PASS passed, $TOTAL_FAIL failed, $TOTAL_SKIP skipped"
	[ "$TOTAL_FAIL" -eq 0 ]
}

cmd_demo() {
	ensure_packages
	build build
	local nxp=build/examples/nxp
	log "nxp info samples/demo.neff"
	"$nxp" info samples/demo.neff
	log "nxp summary samples/demo.neff samples/demo.ntff"
	"$nxp" summary samples/demo.neff samples/demo.ntff
	log "first 8 instructions: nxp dump samples/demo.neff samples/demo.ntff --table instruction --limit 8"
	"$nxp" dump samples/demo.neff samples/demo.ntff --table instruction --format csv --limit 8
}

cmd_asan_only() {
	# Built without libdeflate so that zlib's CRC-32 path is tested too (the
	# plain build uses libdeflate's), and without the AVX2 copies of the hot
	# loops (libnxp/common/cpu.h) so that their baseline copies are too.
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		build build-asan -Db_sanitize=address,undefined -Db_lundef=false -Dlibdeflate=disabled -Dcpu_dispatch=false
	install_js_readers build-asan
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		run_suite build-asan "ASan+UBSan (unit and bindings)"
}

# ThreadSanitizer: the library and the C unit suites built with clang
# -fsanitize=thread; test_threads shares one profile between threads.  The
# script and binding suites are left out (they would check the shell and the
# interpreter, which are not instrumented).
cmd_tsan_only() {
	CC=clang build build-tsan -Db_sanitize=thread -Db_lundef=false
	TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
		run_suite build-tsan "ThreadSanitizer (unit)" --suite unit --no-suite script
}

cmd_test() {
	ensure_packages
	build build
	install_js_readers build
	run_suite build "unit, CLI and bindings"
	cmd_asan_only
	cmd_tsan_only
	report
}

cmd_abi() {
	ensure_packages
	build build
	abidw --no-corpus-path --headers-dir include/nxp build/libnxp/libnxp.so > build/libnxp.abi
	set +e
	abidiff --no-added-syms --headers-dir1 include/nxp --headers-dir2 include/nxp abi/libnxp.abi build/libnxp.abi
	local rc=$?
	set -e
	# Added functions are fine (--no-added-syms).  Any other reported change —
	# a removed symbol (8), a changed type or struct layout (4) — fails: an
	# intended change (e.g. a field appended to a size-versioned struct) is
	# accepted by refreshing the baseline with `./dev.sh abi-update` in the
	# same commit, so every ABI change is a reviewed diff of abi/libnxp.abi.
	if [ "$rc" -ne 0 ]; then
		log "ABI differs from abi/libnxp.abi (abidiff exit $rc); if intended, run ./dev.sh abi-update"
		return 1
	fi
	log "ABI compatible with the baseline (abidiff exit $rc)"
}

cmd_abi_update() {
	build build
	mkdir -p abi
	abidw --no-corpus-path --headers-dir include/nxp build/libnxp/libnxp.so > abi/libnxp.abi
	log "wrote abi/libnxp.abi"
}

cmd_fuzz() {
	ensure_packages
	local secs=${1:-60}
	CC=clang build build-fuzz -Dfuzzing=true -Dtests=false -Db_lundef=false
	local fails=0 t
	for t in build-fuzz/fuzz/*_fuzzer; do
		[ -x "$t" ] || continue
		local name; name=$(basename "$t")
		local corpus=build-fuzz/fuzz/corpus-run/$name
		mkdir -p "$corpus"
		cp -n build-fuzz/fuzz/corpus/"${name%_fuzzer}"/* "$corpus"/ 2>/dev/null || true
		local dict=()
		[ -f "fuzz/dict/${name%_fuzzer}.dict" ] && dict=(-dict="fuzz/dict/${name%_fuzzer}.dict")
		log "fuzzing $name for ${secs}s"
		if ! "$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 "${dict[@]}" \
			-artifact_prefix=build-fuzz/fuzz/crash-"$name"- "$corpus" 2> "build-fuzz/fuzz/$name.log"; then
			log "$name FAILED (reproducer: build-fuzz/fuzz/crash-$name-*; save it under fuzz/crashes/${name%_fuzzer}/)"
			tail -n 40 "build-fuzz/fuzz/$name.log" >&2; fails=$((fails + 1))
		else
			grep -E 'DONE|stat::average_exec_per_sec' "build-fuzz/fuzz/$name.log" | tail -n 2 >&2 || true
		fi
	done
	[ "$fails" -eq 0 ]
}

cmd_bench() {
	ensure_packages
	build build-bench --buildtype=release -Dtests=false
	# one synthetic trace (259 MB) for the benchmarks that take a profile
	local tmp b fails=0
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/nxp-bench.XXXXXX")
	trap "rm -rf '$tmp'" EXIT # (expanded now: tmp is local)
	build-bench/examples/nxp synth --workload mlp --arch trn2 --lnc 2 --seed 1 --instructions 1450000 \
		-o "$tmp/t" > /dev/null
	for b in build-bench/bench/bench_*; do
		# (meson's bench_*.p object folders are not benchmarks)
		[ -f "$b" ] && [ -x "$b" ] || continue
		log "${b##*/}"
		case "${b##*/}" in
		bench_timeline) "$b" "$tmp/t.neff" "$tmp/t.ntff" --dir "$tmp" || fails=$((fails + 1)) ;;
		*) "$b" "$@" || fails=$((fails + 1)) ;;
		esac
	done
	# Parquet writing vs DuckDB's writer (node, @duckdb/node-api from npm)
	install_js_readers build-bench
	if [ -d build-bench/js/node_modules/@duckdb/node-api ]; then
		log "bench_parquet_peer"
		cp bench/bench_parquet_peer.mjs build-bench/js/
		node build-bench/js/bench_parquet_peer.mjs --nxp build-bench/examples/nxp \
			--neff "$tmp/t.neff" --ntff "$tmp/t.ntff" || fails=$((fails + 1))
	else
		log "bench_parquet_peer skipped: no DuckDB package (npm ci into build-bench/js failed)"
	fi
	[ "$fails" -eq 0 ] || { log "$fails benchmark(s) failed"; return 1; }
}

cmd_valgrind() {
	ensure_packages
	build build
	# valgrind runs the code ~50x slower: test_hostile (~17 s plain) needs
	# more than meson's 600 s default
	run_suite build "valgrind" --suite unit --no-suite script --timeout-multiplier 4 \
		--wrapper 'valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite -q'
	report
}

case "${1:-}" in
demo) cmd_demo ;;
test) cmd_test ;;
asan) ensure_packages; cmd_asan_only; report ;;
tsan) ensure_packages; cmd_tsan_only; report ;;
abi) cmd_abi ;;
abi-update) cmd_abi_update ;;
fuzz) shift; cmd_fuzz "$@" ;;
bench) shift; cmd_bench "$@" ;;
valgrind) cmd_valgrind ;;
*) sed -n '2,/^[^#]/{/^#/p}' "$0"; exit 2 ;;
esac
