#!/bin/sh
# SPDX-License-Identifier: MIT
# Every public header compiles on its own (as the only #include of a
# translation unit) as C99 and as C++11 with -pedantic -Wall -Wextra -Werror,
# and without any diagnostic at all (a warning is a failure even where -Werror
# would let a note through).
#
#   check_headers.sh INCLUDE_DIR CC CXX [CC CXX ...]
#
# Each CC/CXX pair is a compiler command (a word, no arguments); an empty word
# skips that compiler.  INCLUDE_DIR holds nxp/*.h (the source tree's include/
# or an installed prefix's include/).
set -u
inc=$1
shift
[ -d "$inc/nxp" ] || { echo "no $inc/nxp directory" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nxp-headers-XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
flags='-pedantic -Wall -Wextra -Werror'
fail=0
checked=0
compile() { # compile LANG STD COMPILER HEADER
	lang=$1 std=$2 comp=$3 h=$4
	src=$tmp/tu.$lang
	if [ "$lang" = c ]; then
		printf '#include <nxp/%s>\nint main(void) { return 0; }\n' "$h" > "$src"
	else
		printf '#include <nxp/%s>\nint main() { return 0; }\n' "$h" > "$src"
	fi
	# shellcheck disable=SC2086
	if ! "$comp" -std="$std" $flags -I"$inc" -c "$src" -o "$tmp/tu.o" > "$tmp/out" 2>&1 || [ -s "$tmp/out" ]; then
		echo "FAIL: <nxp/$h> alone, $comp -std=$std $flags:" >&2
		cat "$tmp/out" >&2
		fail=$((fail + 1))
	fi
	checked=$((checked + 1))
}
compilers=
while [ $# -ge 2 ]; do
	cc=$1 cxx=$2
	shift 2
	for h in "$inc"/nxp/*.h; do
		h=$(basename "$h")
		[ -n "$cc" ] && compile c c99 "$cc" "$h"
		[ -n "$cxx" ] && compile cpp c++11 "$cxx" "$h"
	done
	compilers="$compilers $cc $cxx"
done
nh=$(ls "$inc"/nxp/*.h | wc -l)
if [ "$nh" -eq 0 ] || [ "$checked" -eq 0 ]; then
	echo "nothing checked (headers: $nh, compilers:$compilers)" >&2
	exit 1
fi
echo "$nh headers x$compilers: $checked compilations, $fail failed"
[ "$fail" -eq 0 ]
