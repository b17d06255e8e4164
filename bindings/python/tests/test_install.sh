#!/bin/sh
# SPDX-License-Identifier: MIT
# The Python package as a user installs it: libnxp installed (meson install
# --destdir), `pip install --no-build-isolation` of bindings/python into a venv
# made from Debian's /usr/bin/python3, then used from outside the checkout with
# only LD_LIBRARY_PATH (no NXP_LIBRARY, no PYTHONPATH).
# Usage: test_install.sh SOURCE_ROOT BUILD_ROOT VERSION   (env: NXP_CLI)
# Exit 77 (skipped) only when a venv cannot be created on this machine.
set -eu
src=$1 build=$2 version=$3
: "${NXP_CLI:?NXP_CLI must name the nxp command-line tool}"
# meson puts the build tree on LD_LIBRARY_PATH for tests: a user has none of these.
unset NXP_LIBRARY PYTHONPATH LD_LIBRARY_PATH
py=${NXP_TEST_PYTHON:-/usr/bin/python3}

work=$(mktemp -d "${TMPDIR:-/tmp}/nxp-pyinstall.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
venv=$build/tests/py-install-venv
rm -rf "$venv"
if ! "$py" -m venv "$venv" >"$work/venv.log" 2>&1; then
	cat "$work/venv.log"
	echo "SKIP: $py -m venv cannot create a venv here (Debian: apt-get install python3-venv)"
	exit 77
fi

# pip builds with the package's own backend (nothing from an index).
"$venv/bin/python" -m pip install -q --no-build-isolation --no-index --no-deps "$src/bindings/python"

meson install -C "$build" --no-rebuild --quiet --destdir "$work/dest" >"$work/install.log" 2>&1 ||
	{ cat "$work/install.log"; exit 1; }
lib=$(find "$work/dest" -name libnxp.so.0 | head -n 1)
[ -n "$lib" ] || { echo "FAIL: meson install put no libnxp.so.0 under $work/dest"; exit 1; }
libdir=$(dirname "$lib")

# Outside the checkout, with the demo profile copied there.
mkdir "$work/user"
cp "$src/samples/demo.neff" "$src/samples/demo.ntff" "$work/user/"
cd "$work/user"
"$NXP_CLI" summary demo.neff demo.ntff --json >cli.json

cat >check.py <<'EOF'
import json, os, sys
import nxp
version, libdir, src, venv = sys.argv[1:5]
real = os.path.realpath
assert nxp.__version__ == version, (nxp.__version__, version)
assert nxp.library_version == version, nxp.library_version
# The installed package and the installed library, nothing of the checkout.
assert real(nxp.__file__).startswith(real(venv) + os.sep), nxp.__file__
assert real(os.path.dirname(nxp.library_path)) == real(libdir), nxp.library_path
assert not real(nxp.library_path).startswith(real(src) + os.sep), nxp.library_path
cli = json.load(open("cli.json"))
with nxp.Profile("demo.neff", "demo.ntff") as p:
    s = p.summary()
    n = sum(1 for _ in p.instructions())
for k in ("total_time", "model_flops", "neuroncore_cycle_count", "dma_transfer_count"):
    assert s[k] == cli[k], (k, s[k], cli[k])
assert n > 0 and s["model_flops"] > 0
try:
    nxp.Neff("no-such.neff")
except FileNotFoundError as e:
    assert e.filename == "no-such.neff"
else:
    raise SystemExit("no FileNotFoundError for a missing NEFF")
print(f"nxp {nxp.__version__} from {nxp.library_path}: total_time {s['total_time']} s, "
      f"model_flops {s['model_flops']}, {n} instructions (as nxp summary --json)")
EOF
LD_LIBRARY_PATH=$libdir "$venv/bin/python" check.py "$version" "$libdir" "$src" "$venv"

# Without LD_LIBRARY_PATH (and no libnxp in the loader's cache) the import must
# fail saying what to set, not find some build tree.
if ! /sbin/ldconfig -p 2>/dev/null | grep -q 'libnxp\.so\.0'; then
	if "$venv/bin/python" -c 'import nxp' >out.txt 2>&1; then
		echo "FAIL: nxp imported with no libnxp installed or named"; cat out.txt; exit 1
	fi
	grep -q 'ImportError: libnxp not found.*NXP_LIBRARY' out.txt || { cat out.txt; exit 1; }
fi
echo "ok: pip-installed nxp uses the installed libnxp"
