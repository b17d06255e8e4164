#!/bin/sh
# SPDX-License-Identifier: MIT
# The Rust crates as a user's project uses them: libnxp installed (meson install
# --destdir), found by pkg-config; a crate created outside the checkout that
# depends on bindings/rust/nxp by path is built with `cargo build --offline`
# and run directly (its rpath comes from DEP_NXP_RS_LIB_DIR), and its figures
# are compared with `nxp summary --json`.  Then: with nothing to find, the
# build fails saying what to set.
# Usage: test_install.sh SOURCE_ROOT BUILD_ROOT   (env: NXP_CLI)
set -eu
src=$1 build=$2
: "${NXP_CLI:?NXP_CLI must name the nxp command-line tool}"
unset NXP_LIB_DIR NXP_LIBRARY PKG_CONFIG_PATH PKG_CONFIG_LIBDIR LD_LIBRARY_PATH RUSTFLAGS
command -v pkg-config >/dev/null || { echo "SKIP: no pkg-config program"; exit 77; }

work=$(mktemp -d "${TMPDIR:-/tmp}/nxp-rsinstall.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
dest=$work/dest
meson install -C "$build" --no-rebuild --quiet --destdir "$dest" >"$work/install.log" 2>&1 ||
	{ cat "$work/install.log"; exit 1; }
pc=$(find "$dest" -name libnxp.pc | head -n 1)
[ -n "$pc" ] || { echo "FAIL: no libnxp.pc installed"; exit 1; }
libdir=$(dirname "$(dirname "$pc")")

# The user's crate, outside the checkout.
app=$work/app
mkdir -p "$app/src"
cat >"$app/Cargo.toml" <<EOF
[package]
name = "nxp-user"
version = "0.1.0"
edition = "2021"
build = "build.rs"

[dependencies]
nxp = { path = "$src/bindings/rust/nxp" }
EOF
cat >"$app/build.rs" <<'EOF'
fn main() {
    if let Ok(dir) = std::env::var("DEP_NXP_RS_LIB_DIR") {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir);
    }
}
EOF
cat >"$app/src/main.rs" <<'EOF'
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let a: Vec<String> = std::env::args().collect();
    let p = nxp::Profile::open(&a[1], &a[2])?;
    let s = p.summary()?;
    let mut n = 0u64;
    for r in p.instructions(nxp::CursorOptions::default())? {
        r?;
        n += 1;
    }
    println!("instructions {}", n);
    for k in ["total_time", "model_flops", "neuroncore_cycle_count"] {
        println!("{} {:?}", k, s.get(k).ok_or(k)?);
    }
    if let Err(e) = nxp::Neff::open("no-such.neff") {
        println!("error {}", e);
    }
    Ok(())
}
EOF
cp "$src/samples/demo.neff" "$src/samples/demo.ntff" "$work/"
export CARGO_TARGET_DIR="$work/target" CARGO_TERM_COLOR=never
cd "$app"
# pkg-config finds the installed libnxp (the .pc says prefix /usr/local; the
# sysroot maps it into the destdir, as for a staged install).
PKG_CONFIG_PATH=$libdir/pkgconfig PKG_CONFIG_SYSROOT_DIR=$dest \
	cargo build --offline -q 2>"$work/cargo.log" || { cat "$work/cargo.log"; exit 1; }
bin=$CARGO_TARGET_DIR/debug/nxp-user
readelf -d "$bin" | grep -E 'R(UN)?PATH' | grep -qF "$libdir" ||
	{ echo "FAIL: no rpath to $libdir in the user's program"; readelf -d "$bin"; exit 1; }
# Run it directly: no LD_LIBRARY_PATH, no cargo.
cd "$work"
"$bin" demo.neff demo.ntff >out.txt
cat out.txt
ldd "$bin" | grep -F "$libdir/libnxp.so.0" >/dev/null ||
	{ echo "FAIL: the program does not load the installed libnxp"; ldd "$bin"; exit 1; }
"$NXP_CLI" summary demo.neff demo.ntff --json >cli.json
/usr/bin/python3 - out.txt cli.json <<'EOF'
import json, re, sys
out = open(sys.argv[1]).read()
cli = json.load(open(sys.argv[2]))
for k in ("total_time", "model_flops", "neuroncore_cycle_count"):
    m = re.search(rf"^{k} (?:Number|Int|Float)?\(?([-0-9.e+]+)\)?", out, re.M)
    assert m, (k, out)
    assert float(m.group(1)) == float(cli[k]), (k, m.group(1), cli[k])
assert int(re.search(r"^instructions (\d+)", out, re.M).group(1)) > 0
assert re.search(r"^error no-such.neff: No such file or directory$", out, re.M), out
print("ok: figures equal nxp summary --json")
EOF

# Nothing to find (a copy of the crates outside any checkout, pkg-config
# pointed at an empty directory): the build fails and says what to set.
cp -r "$src/bindings/rust" "$work/rust-copy"
rm -rf "$work/rust-copy/target"
sed -i "s#$src/bindings/rust/nxp#$work/rust-copy/nxp#" "$app/Cargo.toml"
mkdir "$work/empty"
cd "$app"
if PKG_CONFIG_PATH=$work/empty PKG_CONFIG_LIBDIR=$work/empty CARGO_TARGET_DIR=$work/target2 \
	cargo build --offline -q >"$work/fail.log" 2>&1; then
	echo "FAIL: built with no libnxp to find"; exit 1
fi
grep -q 'libnxp not found' "$work/fail.log" && grep -q 'NXP_LIB_DIR' "$work/fail.log" &&
	grep -q 'PKG_CONFIG_PATH' "$work/fail.log" || { cat "$work/fail.log"; exit 1; }
echo "ok: without libnxp the build says: $(grep -m1 'libnxp not found' "$work/fail.log")"
