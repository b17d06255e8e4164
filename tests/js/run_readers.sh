#!/bin/sh
# Write the Parquet files of test_parquet's `readers` case, then read every one
# with DuckDB (@duckdb/node-api) and with hyparquet and compare with the
# aggregates the C side expects.  Exit 77 (skip) when the node packages are not
# installed (./dev.sh test installs them with `npm ci` into <builddir>/js).
#   run_readers.sh TEST_PARQUET_EXE JS_DIR SOURCE_JS_DIR
set -eu
exe=$1 jsdir=$2 src=$3
if ! command -v node >/dev/null 2>&1; then
	echo "SKIP: node not found"; exit 77
fi
for m in @duckdb/node-api hyparquet hyparquet-compressors; do
	if [ ! -d "$jsdir/node_modules/$m" ]; then
		echo "SKIP: $jsdir/node_modules/$m missing (./dev.sh test runs npm ci there; npm registry unreachable?)"
		exit 77
	fi
done
out=$(mktemp -d "${TMPDIR:-/tmp}/nxp-parquet.XXXXXX")
trap 'rm -rf "$out"' EXIT
NXP_PARQUET_OUT=$out CK_RUN_CASE=readers CK_FORK=no "$exe"
# ESM resolves packages from the script's own folder: run the scripts from JS_DIR.
cp "$src/check_duckdb.mjs" "$src/check_hyparquet.mjs" "$src/expect.mjs" "$jsdir/"
node "$jsdir/check_duckdb.mjs" "$out"
node "$jsdir/check_hyparquet.mjs" "$out"
