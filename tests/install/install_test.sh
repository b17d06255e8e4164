#!/bin/sh
# SPDX-License-Identifier: MIT
# The install path, as a user takes it: `meson install` into a staging
# directory, then from a directory outside the checkout
#  - every installed header compiles alone (C99, -pedantic -Werror), and the
#    installed set is exactly include/nxp/*.h of the source tree;
#  - a small C program is built with `pkg-config --cflags --libs libnxp`
#    (PKG_CONFIG_PATH into the staging multiarch libdir, prefix redirected) and
#    run against the installed library (LD_LIBRARY_PATH, checked with ldd) on
#    samples/demo.neff + .ntff: its instruction count, duration sum and first
#    timestamp equal those of the build tree's `nxp dump`;
#  - the installed `nxp` prints the same summary as the build tree's.
#
#   install_test.sh MESON BUILD_DIR SOURCE_DIR PREFIX LIBDIR CC SANITIZE
set -eu
meson=$1 build=$2 src=$3 prefix=$4 libdir=$5 cc=$6 sanitize=$7
case $libdir in /*) ;; *) libdir=$prefix/$libdir ;; esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nxp-install-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
case $tmp in "$src"/*) echo "staging directory $tmp is inside the checkout" >&2; exit 1 ;; esac
stage=$tmp/stage
fail() { echo "FAIL: $*" >&2; exit 1; }

"$meson" install -C "$build" --no-rebuild --quiet --destdir "$stage" > "$tmp/install.log" 2>&1 ||
	{ cat "$tmp/install.log" >&2; fail "meson install"; }
root=$stage$prefix
lib=$stage$libdir
[ -f "$lib/pkgconfig/libnxp.pc" ] || fail "no libnxp.pc in $lib/pkgconfig"

# Installed headers = the source tree's, and each compiles alone.
(cd "$src/include/nxp" && ls *.h) > "$tmp/want"
(cd "$root/include/nxp" && ls *.h) > "$tmp/got"
cmp -s "$tmp/want" "$tmp/got" || { diff "$tmp/want" "$tmp/got" >&2; fail "installed headers differ from include/nxp/*.h"; }
sh "$src/tests/headers/check_headers.sh" "$root/include" "$cc" "" || fail "an installed header does not compile alone"

# The build tree's figures, from its CLI (columns 1-3: start_ts,end_ts,duration_ns)
# and its summary, before LD_LIBRARY_PATH points at the installed copy.
"$NXP_CLI" dump "$src/samples/demo.neff" "$src/samples/demo.ntff" --table instruction --format csv > "$tmp/dump.csv"
want=$(awk -F, 'NR == 1 { next } NR == 2 { first = $1 } { n++; d += $3 }
	END { printf "instructions %d duration_ns %d first_start_ts %d\n", n, d, first }' "$tmp/dump.csv")
"$NXP_CLI" summary "$src/samples/demo.neff" "$src/samples/demo.ntff" > "$tmp/sum-build"

# A user's program, built and run outside the checkout.
mkdir "$tmp/user"
cp "$src/tests/install/use_libnxp.c" "$tmp/user/"
cd "$tmp/user"
export PKG_CONFIG_PATH="$lib/pkgconfig"
pcflags=$(pkg-config --define-variable=prefix="$root" --cflags --libs libnxp) || fail "pkg-config libnxp"
echo "pkg-config: $pcflags"
case " $pcflags " in *" -I$root/include"*) ;; *) fail "pkg-config --cflags does not point into the staged prefix" ;; esac
case " $pcflags " in *" -L$lib "*) ;; *) fail "pkg-config --libs does not point into the staged libdir" ;; esac
san=
[ "$sanitize" = none ] || san="-fsanitize=$sanitize"
# shellcheck disable=SC2086
"$cc" -std=c99 -pedantic -Wall -Wextra -Werror $san -o use_libnxp use_libnxp.c $pcflags || fail "compile the user program"
LD_LIBRARY_PATH=$lib
export LD_LIBRARY_PATH
ldd ./use_libnxp | grep 'libnxp\.so' > "$tmp/ldd" || fail "use_libnxp is not linked to libnxp"
grep -q "=> $lib/libnxp\.so" "$tmp/ldd" || { cat "$tmp/ldd" >&2; fail "libnxp does not resolve to the installed copy"; }
./use_libnxp "$src/samples/demo.neff" "$src/samples/demo.ntff" > "$tmp/got.txt" || fail "use_libnxp failed"
cat "$tmp/got.txt"

got=$(sed -n 2p "$tmp/got.txt")
[ "$got" = "$want" ] || fail "installed library: '$got'; build tree's nxp dump: '$want'"
case $got in "instructions 0 "*) fail "no instructions read" ;; esac
version=$(pkg-config --modversion libnxp)
[ "$(sed -n 1p "$tmp/got.txt")" = "version $version" ] || fail "library version differs from libnxp.pc's $version"

# The installed CLI, on the installed library.
if [ -x "$root/bin/nxp" ]; then
	ldd "$root/bin/nxp" | grep -q "libnxp\.so.* => $lib/libnxp\.so" || fail "the installed nxp does not load the installed libnxp"
	"$root/bin/nxp" summary "$src/samples/demo.neff" "$src/samples/demo.ntff" > "$tmp/sum-installed" || fail "installed nxp summary"
	cmp -s "$tmp/sum-installed" "$tmp/sum-build" || fail "installed nxp summary differs from the build tree's"
	echo "installed nxp summary: identical to the build tree's"
fi
echo "install path OK ($want)"
