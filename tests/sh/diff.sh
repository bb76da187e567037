#!/bin/sh
# tests/sh/diff.sh - `erg diff` through the erg binary: the golden text of
# the perturbed reference session, a run against itself, JSON and HTML
# output, and usage errors.  Run by tests/run.sh (ERG, BUILD, SHARED set).
set -u
ERG=${ERG:-build/erg}
BUILD=${BUILD:-build}
SHARED=${SHARED:-../shared}
n=0
ok() { n=$((n + 1)); echo "ok - diff.sh $n: $1"; }
notok() { n=$((n + 1)); echo "not ok - diff.sh $n: $1"; }
check() { # description, then a command
	d=$1
	shift
	if "$@" >/dev/null 2>&1; then ok "$d"; else notok "$d"; fi
}

if ! "$ERG" diff --help >/dev/null 2>&1; then
	echo "ok - diff.sh: skipped, '$ERG' has no diff command yet"
	exit 0
fi
tmp=$(mktemp -d /tmp/erg-diff-sh-XXXXXX)
trap 'rm -rf "$tmp"' EXIT INT TERM
A=m5-energy/2026-08-26T0856-saturated
B=m5-energy/perturbed-express-1.05
data=$SHARED/reference/energy-benchmark-m5.json
check "rebuild reference" "$BUILD/tools/rebuild" "$data" "$tmp/$A"
check "rebuild perturbed" "$BUILD/tools/rebuild" --perturb express=1.05 "$data" "$tmp/$B"

"$ERG" diff --archive "$tmp" "$A" "$B" > "$tmp/out.txt" 2> "$tmp/err.txt"
check "text diff exits 0" test $? -eq 0
check "text diff equals tests/golden/diff/perturbed.txt" \
	cmp "$tmp/out.txt" tests/golden/diff/perturbed.txt
check "no diagnostics" test ! -s "$tmp/err.txt"

# A run directory given as a path works like an id.
"$ERG" diff "$tmp/$A" "$tmp/$B" > "$tmp/path.txt" 2>/dev/null
check "run directories as paths" grep -q '+5.00%' "$tmp/path.txt"

"$ERG" diff --archive "$tmp" "$A" "$A" > "$tmp/self.txt" 2>/dev/null
check "self diff exits 0" test $? -eq 0
check "self diff says same data" grep -q 'A and B are the same data (same run directory)' "$tmp/self.txt"
check "self diff: no significant row" grep -q '^95 comparisons: 0 significant, 95 ~, 0 ?$' "$tmp/self.txt"

"$ERG" diff --archive "$tmp" --format json --out "$tmp/d.json" "$A" "$B" 2>/dev/null
check "json diff exits 0" test $? -eq 0
check "json has rows" grep -q '"ratio_ci95"' "$tmp/d.json"
"$ERG" diff --archive "$tmp" --format markdown "$A" "$B" > "$tmp/d.md" 2>/dev/null
check "markdown table" grep -q '^| express | ' "$tmp/d.md"
"$ERG" diff --archive "$tmp" --format html --out "$tmp/d.html" "$A" "$B" 2>/dev/null
check "html diff exits 0" test $? -eq 0
check "html page" grep -q '^<!DOCTYPE html>' "$tmp/d.html"
check "html has no external resource" sh -c "! grep -Eq '<link|<script|src=' '$tmp/d.html'"

"$ERG" diff --archive "$tmp" "$A" > /dev/null 2>&1
check "one run: status 2" test $? -eq 2
"$ERG" diff --archive "$tmp" --format html "$A" "$B" > /dev/null 2>&1
check "html without --out: status 2" test $? -eq 2
"$ERG" diff --archive "$tmp" "$A" nonexistent > /dev/null 2>&1
check "missing run: status 1" test $? -eq 1
exit 0
