#!/bin/sh
# SPDX-License-Identifier: MIT
# `nxp report` end to end: the one-page HTML report of the demo pair, of a
# profile whose strings are script-injection attempts (tests/report_hostile.c),
# of a large synthetic trace (size must stay small) and of a synthetic capture;
# each page checked by tests/report_check.py for self-containment and its
# sections, then rendered by headless Chromium: the screenshot must not be
# blank and must show the activity picture, the log must hold no console
# message, the DOM dump must hold the sections and no injected element.
# The checker must also reject pages that break each rule (negative controls).
# Without chromium the browser half is skipped (exit 77) after the rest ran.
set -eu
: "${NXP_CLI:?NXP_CLI must name the built nxp}"
py=${1:?usage: test_report.sh PYTHON CHECKER HOSTILE_GENERATOR SAMPLES_DIR}
check=${2:?}
hostile=${3:?}
samples=${4:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
SECTIONS=figures,insights,timeline,utilisation-over-time,critical-path,opcodes,dma

# 1. the demo pair
"$NXP_CLI" report "$samples/demo.neff" "$samples/demo.ntff" -o "$tmp/demo.html" --quiet || fail "report of the demo"
"$py" "$check" html "$tmp/demo.html" --sections "$SECTIONS" --max-bytes 400000 || fail "demo page"
ls "$tmp" | grep -q '\.tmp\.' && fail "a temporary file was left behind"
grep -q 'MATMUL' "$tmp/demo.html" || fail "demo: top opcodes lack MATMUL"
grep -q 'engine:tensor\|dma:' "$tmp/demo.html" || fail "demo: no critical-path resource rows"
# an existing file is kept without --force; replaced with it
cp "$tmp/demo.html" "$tmp/keep.html"
set +e
"$NXP_CLI" report "$samples/demo.neff" "$samples/demo.ntff" -o "$tmp/demo.html" --quiet 2>"$tmp/err"
rc=$?
set -e
[ $rc = 1 ] || fail "existing output: exit $rc, expected 1"
grep -q 'exists' "$tmp/err" || fail "existing output: $(cat "$tmp/err")"
cmp -s "$tmp/demo.html" "$tmp/keep.html" || fail "existing output was changed"
"$NXP_CLI" report "$samples/demo.neff" "$samples/demo.ntff" -o "$tmp/demo.html" --force --quiet --columns 300 ||
	fail "--force"
cmp -s "$tmp/demo.html" "$tmp/keep.html" && fail "--force --columns 300 gave the same page"
"$NXP_CLI" report "$samples/demo.neff" "$samples/demo.ntff" -o "$tmp/demo.html" --force --quiet || fail "--force"
# bad use: exit 2 and the usage
for args in "-o $tmp/x.html" "$samples/demo.neff $samples/demo.ntff" \
	"$samples/demo.neff $samples/demo.ntff -o $tmp/x.html --columns 5" \
	"--capture $tmp $samples/demo.neff -o $tmp/x.html"; do
	set +e
	# shellcheck disable=SC2086
	"$NXP_CLI" report $args >/dev/null 2>"$tmp/err"
	rc=$?
	set -e
	[ $rc = 2 ] || fail "report $args: exit $rc, expected 2"
	grep -q '^usage:\|nxp report' "$tmp/err" || fail "report $args: $(cat "$tmp/err")"
done
[ ! -e "$tmp/x.html" ] || fail "bad use wrote a file"
"$NXP_CLI" report "$samples/demo.ntff" "$samples/demo.neff" -o "$tmp/x.html" 2>"$tmp/err" && fail "swapped inputs"
[ ! -e "$tmp/x.html" ] || fail "a failed report left a file"

# 2. strings from the profile are injection attempts
"$hostile" "$tmp/evil" || fail "report_hostile"
"$NXP_CLI" report "$tmp/evil.neff" "$tmp/evil.ntff" -o "$tmp/evil.html" --quiet || fail "report of the hostile pair"
"$py" "$check" html "$tmp/evil.html" --sections "$SECTIONS" --hostile || fail "hostile page"

# 3. a large trace still gives a small page
"$NXP_CLI" synth --workload mlp --arch trn2 --seed 1 --instructions 2000000 -o "$tmp/big" --quiet >/dev/null ||
	fail "synth of the large trace"
"$NXP_CLI" report "$tmp/big.neff" "$tmp/big.ntff" -o "$tmp/big.html" --quiet || fail "report of the large trace"
"$py" "$check" html "$tmp/big.html" --sections "$SECTIONS" --max-bytes 3000000 || fail "large page"
echo "large trace: $(wc -c <"$tmp/big.ntff") NTFF bytes -> $(wc -c <"$tmp/big.html") HTML bytes"
rm -f "$tmp/big.neff" "$tmp/big.ntff"

# 4. a capture: the rank comparison, then the slowest profile's page
"$NXP_CLI" synth --workload matmul --arch trn2 --seed 2 --capture "$tmp/cap" --ranks 3 >/dev/null 2>&1 ||
	fail "synth --capture"
"$NXP_CLI" report --capture "$tmp/cap" -o "$tmp/cap.html" --quiet || fail "report --capture"
"$py" "$check" html "$tmp/cap.html" --sections "comparison,$SECTIONS" || fail "capture page"
[ "$(grep -o '<tr><td>[^<]*ntff</td>' "$tmp/cap.html" | wc -l)" = 3 ] || fail "capture: not 3 comparison rows"

# 5. negative controls: the checker rejects what it must
printf '<!DOCTYPE html><html><head><link rel="stylesheet" href="https://example.invalid/a.css"></head><body>%2000s</body></html>\n' x \
	>"$tmp/bad1.html"
"$py" "$check" html "$tmp/bad1.html" 2>/dev/null && fail "checker accepted a <link> to the network"
sed 's#<style>#<style>@import "x.css";#' "$tmp/demo.html" >"$tmp/bad2.html"
"$py" "$check" html "$tmp/bad2.html" 2>/dev/null && fail "checker accepted an @import"
sed 's#</main>#<img src="pic.png"></main>#' "$tmp/demo.html" >"$tmp/bad3.html"
"$py" "$check" html "$tmp/bad3.html" 2>/dev/null && fail "checker accepted a file reference"
sed 's#&lt;script&gt;#<script>#g' "$tmp/evil.html" >"$tmp/bad4.html"
"$py" "$check" html "$tmp/bad4.html" --hostile 2>/dev/null && fail "checker accepted an unescaped <script>"

# 6. the browser
browser=
for b in chromium chromium-browser; do
	command -v "$b" >/dev/null 2>&1 && browser=$(command -v "$b") && break
done
if [ -z "$browser" ]; then
	echo "SKIP: chromium is not installed (apt-get install chromium); the pages were checked without a browser"
	exit 77
fi
chrome() { # OUT LOG ARGS...: one headless run with a fresh profile directory
	out=$1 log=$2
	shift 2
	ud=$(mktemp -d)
	rc=0
	timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$ud" --enable-logging=stderr --v=0 "$@" >"$out" 2>>"$log" || rc=$?
	rm -rf "$ud"
	return $rc
}
browse() { # NAME: $tmp/NAME.html -> NAME.png, NAME.dom, NAME.log
	chrome /dev/null "$tmp/$1.log" --screenshot="$tmp/$1.png" --window-size=1280,2400 "file://$tmp/$1.html" ||
		fail "chromium --screenshot of $1.html"
	chrome "$tmp/$1.dom" "$tmp/$1.log" --dump-dom "file://$tmp/$1.html" || fail "chromium --dump-dom of $1.html"
	[ -s "$tmp/$1.png" ] || fail "chromium wrote no screenshot of $1.html"
}
for name in demo evil cap; do
	browse $name
	"$py" "$check" log "$tmp/$name.log" || fail "$name: console messages"
done
"$py" "$check" dom "$tmp/demo.dom" --sections "$SECTIONS" || fail "demo DOM"
"$py" "$check" dom "$tmp/evil.dom" --sections "$SECTIONS" --hostile || fail "hostile DOM"
"$py" "$check" dom "$tmp/cap.dom" --sections "comparison,$SECTIONS" || fail "capture DOM"
"$py" "$check" png "$tmp/demo.png" || fail "demo screenshot"
"$py" "$check" png "$tmp/cap.png" || fail "capture screenshot"
if [ -n "${NXP_REPORT_PNG:-}" ]; then
	cp "$tmp/demo.png" "$NXP_REPORT_PNG"
fi

# negative controls in the browser: a script error is seen, a blank page is blank
printf '<!DOCTYPE html><html><body><script>no_such_function()</script></body></html>\n' >"$tmp/bad5.html"
browse bad5
"$py" "$check" log "$tmp/bad5.log" 2>/dev/null && fail "checker missed an uncaught script error"
"$py" "$check" png "$tmp/bad5.png" 2>/dev/null && fail "checker accepted a blank page"
echo "report: all checks passed"
