#!/bin/sh
# tests/sh/diff.sh - `erg diff` through the erg binary: the golden text of
# the perturbed reference session, a run against itself, JSON and HTML
# output, and usage errors; then summary runs of the bundled archive (the
# M5 published headline against its reconstructed session, itself, and two
# M4 pages): exit 0, the no-significance sentence in every format, JSON
# that parses (python3, else jq).  Run by tests/run.sh (ERG, BUILD,
# SHARED, ERG_SRC set).
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
	echo "not ok - diff.sh: '$ERG' has no diff command"
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

# A run whose meta.json is a FIFO is a run that cannot be read, not "no
# run": an error naming the file, and the FIFO is never opened.
"$BUILD/tools/mksmall" "$tmp/fifo/run" >/dev/null
rm "$tmp/fifo/run/meta.json"
mkfifo "$tmp/fifo/run/meta.json"
timeout 20 "$ERG" diff "$tmp/fifo/run" "$tmp/$A" > /dev/null 2> "$tmp/fifo.err"
check "FIFO meta.json: status 1" test $? -eq 1
check "FIFO meta.json: not a regular file" grep -q "fifo/run/meta.json: error: not a regular file" "$tmp/fifo.err"
"$ERG" diff --archive "$tmp" --format html "$A" "$B" > /dev/null 2>&1
check "html without --out: status 2" test $? -eq 2
"$ERG" diff --archive "$tmp" "$A" nonexistent > /dev/null 2>&1
check "missing run: status 1" test $? -eq 1

# Summary runs of the bundled archive.
ERG_SRC=${ERG_SRC:-$(pwd)}
arch=$ERG_SRC/archive
P=m5-energy/2026-08-26-published-headline
S=m5-energy/2026-08-26T0856-saturated
if [ ! -f "$arch/$P/run.json" ] || [ ! -f "$arch/$S/meta.json" ]; then
	echo "not ok - diff.sh: no bundled archive: summary diffs not checked"
	exit 0
fi
sentence="No significance test: run $P has one value per cell (figures as published); \
Δ is a plain difference of the published values, not a tested effect."
"$ERG" diff --archive "$arch" "$P" "$S" > "$tmp/sum.txt" 2> "$tmp/sum.err"
check "summary vs session: exits 0" test $? -eq 0
check "summary vs session: no diagnostics" test ! -s "$tmp/sum.err"
check "summary vs session equals tests/golden/diff/published-vs-session.txt" \
	cmp "$tmp/sum.txt" "$ERG_SRC/tests/golden/diff/published-vs-session.txt"
check "summary vs session: the no-significance sentence" grep -qF "$sentence" "$tmp/sum.txt"
check "summary vs session: 15 comparisons, none tested" \
	grep -q '^15 comparisons, none tested for significance (one value per cell)$' "$tmp/sum.txt"
# elysia as published (0.0958 +- 0.0006, tables/headline.csv) and the
# session's mean; 0.09581 / 0.0958 = 1.0002
check "summary vs session: elysia's mJ/req row" \
	grep -q '^elysia   0\.0958 ± 0\.0006  0\.09581 ± 0\.00062 (5)  +0\.02%  1\.0002  n/a (one value per cell)$' \
	"$tmp/sum.txt"
check "summary vs session: no p, no CI" sh -c "! grep -Eq '95% CI|Mann' '$tmp/sum.txt'"
check "summary vs session: same machine, no warning" sh -c "! grep -q WARNING '$tmp/sum.txt'"
"$ERG" diff --archive "$arch" --format markdown "$P" "$S" > "$tmp/sum.md" 2>/dev/null
check "summary vs session markdown: exits 0" test $? -eq 0
check "summary vs session markdown: the sentence" grep -qF "**$sentence**" "$tmp/sum.md"
"$ERG" diff --archive "$arch" --format html --out "$tmp/sum.html" "$P" "$S" 2>/dev/null
check "summary vs session html: exits 0" test $? -eq 0
check "summary vs session html: the sentence" grep -qF "$sentence" "$tmp/sum.html"
"$ERG" diff --archive "$arch" --format json --out "$tmp/sum.json" "$P" "$S" 2>/dev/null
check "summary vs session json: exits 0" test $? -eq 0
if command -v python3 > /dev/null 2>&1; then
	check "summary vs session json: parses, 15 untested rows, the sentence" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["rows"]
assert len(rows) == 15 and d["summary"]["not_tested"] == 15
assert all(r["verdict"] == "n/a (one value per cell)" and r["p"] is None and
           r["ratio_ci95"] is None for r in rows)
assert d["no_significance"] == sys.argv[2]
e = [r for r in rows if r["metric"] == "mj_per_req" and r["target"] == "express"][0]
assert e["a"]["mean"] == 0.1702 and abs(e["b"]["mean"] - 0.1702) <= 0.000055
' "$tmp/sum.json" "$sentence"
elif command -v jq > /dev/null 2>&1; then
	check "summary vs session json: parses, 15 untested rows" \
		jq -e '.summary.not_tested == 15 and ([.rows[] | select(.p == null)] | length) == 15' \
		"$tmp/sum.json"
else
	echo "# neither python3 nor jq: the JSON is only checked for the sentence"
	check "summary vs session json: the sentence" grep -qF '"no_significance": "No significance test:' "$tmp/sum.json"
fi

"$ERG" diff --archive "$arch" "$P" "$P" > "$tmp/pself.txt" 2>/dev/null
check "summary self diff: exits 0" test $? -eq 0
check "summary self diff: same data" \
	grep -q '^note: A and B are the same data (same run directory): every delta is 0 and every ratio 1$' \
	"$tmp/pself.txt"
check "summary self diff: every delta 0" sh -c "! grep -E '[+-][0-9]+\.[0-9]+%' '$tmp/pself.txt'"
"$ERG" diff "$arch/$P" "$arch/$P/" > /dev/null 2>&1
check "summary run directory as a path: exits 0" test $? -eq 0

# Two M4 pages: startup 2 -> 21 ms for xisto (+950 %), Bun only on one.
"$ERG" diff --archive "$arch" apple-m4/2026-11-07-hello-server apple-m4/2026-11-08-conduit \
	> "$tmp/m4.txt" 2>/dev/null
check "summary vs summary: exits 0" test $? -eq 0
check "summary vs summary: xisto startup +950 %" grep -q '^xisto     2            21           +950\.00%  10\.5000  n/a (one value per cell)$' "$tmp/m4.txt"
check "summary vs summary: Bun only in A" grep -q '^targets only in A: Bun$' "$tmp/m4.txt"
check "summary vs summary: the sentence names both runs" \
	grep -q '^No significance test: runs apple-m4/2026-11-07-hello-server and apple-m4/2026-11-08-conduit have one value per cell' "$tmp/m4.txt"

# The same session, but B's load files ran 500 connections, not 50: the
# runs' own settings agree, the load files' do not, and the environment
# says so (it said "no differences (... load settings ...)").
"$BUILD/tools/mksmall" "$tmp/lc/a" > /dev/null
"$BUILD/tools/mksmall" "$tmp/lc/b" > /dev/null
sed -i 's/"numberOfConnections": 50,/"numberOfConnections": 500,/' "$tmp/lc/b/bombardier/"*.json
"$ERG" diff --archive "$tmp/lc" a b > "$tmp/lc.txt" 2> /dev/null
check "load files' connections 50 vs 500: exits 0" test $? -eq 0
check "load files' connections 50 vs 500: named in the environment" \
	grep -q '^  load files\.connections  *50  *500 *$' "$tmp/lc.txt"
exit 0
