#!/bin/sh
# tests/sh/targets.sh - one target under several names (issue 15): names
# that differ only in ASCII case are one target page (targets/bun/, no
# bun-2), archive/targets.txt and a run's run.json "aliases" merge other
# spellings, an added targets.txt rebuilds the views of an unchanged
# archive, and erg diff matches 'Express' with 'express'.  Run by
# tests/run.sh (ERG, BUILD set).
set -u
ERG=${ERG:-build/erg}
n=0
ok() { n=$((n + 1)); echo "ok - targets.sh $n: $1"; }
notok() { n=$((n + 1)); echo "not ok - targets.sh $n: $1"; }
check() { # description, then a command
	d=$1
	shift
	if "$@" >/dev/null 2>&1; then ok "$d"; else notok "$d"; fi
}

tmp=$(mktemp -d /tmp/erg-targets-sh-XXXXXX)
trap 'rm -rf "$tmp"' EXIT INT TERM
arch=$tmp/archive
site=$tmp/site

# run DIR DATE CSV [EXTRA-JSON]: a summary run with one table
run() {
	mkdir -p "$arch/$1/tables"
	printf '{"title": "%s", "date": "%s", "machine": {"id": "m"}%s}\n' "$1" "$2" \
		"${4:+, $4}" > "$arch/$1/run.json"
	printf '%b' "$3" > "$arch/$1/tables/t.csv"
}
run m/a 2026-01-01 'target,rps\nBun,100\nExpress,50\nnode,10\n'
run m/b 2026-01-02 'target,rps\nbun,110\nexpress,55\nNode.js,12\n'
# its own alias: 'nodejs' is what this run calls node
run m/c 2026-01-03 'target,rps\nnodejs,11\n' '"aliases": {"nodejs": "node"}'
# two targets whose paths meet: the name that is its own path keeps it,
# though "a b" sorts first
run m/d 2026-01-04 'target,rps\na b,1\nA-B,2\n'

"$ERG" build -q --archive "$arch" --out "$site" 2> "$tmp/err"
check "builds without targets.txt" test $? -eq 0
check "no diagnostics" test ! -s "$tmp/err"
check "'Bun' and 'bun': one page targets/bun/" test -f "$site/targets/bun/index.html"
check "no targets/bun-2/, no targets/Bun/" \
	sh -c "! test -e '$site/targets/bun-2' && ! test -e '$site/targets/Bun'"
check "targets/bun/ lists the run spelling it 'Bun'" grep -q 'runs/m/a/index.html' \
	"$site/targets/bun/index.html"
check "targets/bun/ lists the run spelling it 'bun'" grep -q 'runs/m/b/index.html' \
	"$site/targets/bun/index.html"
# one run each: the tie goes to the first in byte order
check "targets/bun/ is titled 'Bun'" grep -q '<h1>Bun</h1>' "$site/targets/bun/index.html"
check "the targets list has one Bun row" test "$(grep -c 'href="[./]*targets/bun/index.html"' \
	"$site/targets/index.html")" -eq 1
check "without targets.txt, 'node' (a, and c by its alias) and 'Node.js' are two targets" \
	sh -c "grep -q 'runs/m/c/index.html' '$site/targets/node/index.html' &&
	       grep -q 'runs/m/a/index.html' '$site/targets/node/index.html' &&
	       grep -q 'runs/m/b/index.html' '$site/targets/node.js/index.html'"
check "'A-B' keeps targets/a-b/" grep -q '<h1>A-B</h1>' "$site/targets/a-b/index.html"
check "'a b' gets targets/a-b-2/" grep -q '<h1>a b</h1>' "$site/targets/a-b-2/index.html"

# The archive's table: an unchanged archive's views are built again.
printf '# one runtime, three spellings\nnode = Node.js  # the canonical name\n' \
	> "$arch/targets.txt"
"$ERG" build -q --archive "$arch" --out "$site" 2> "$tmp/err"
check "builds with targets.txt" test $? -eq 0
check "no diagnostics with targets.txt" test ! -s "$tmp/err"
check "targets.txt rebuilt the views: targets/node/ is gone" test ! -e "$site/targets/node"
for r in a b c; do
	check "targets/node.js/ lists run $r" grep -q "runs/m/$r/index.html" \
		"$site/targets/node.js/index.html"
done
check "targets/node.js/ is titled as targets.txt spells it" grep -q '<h1>Node.js</h1>' \
	"$site/targets/node.js/index.html"
check "the run page keeps the run's own spelling" grep -q '>nodejs<' \
	"$site/runs/m/c/index.html"
check "results.json publishes the run's aliases" grep -q '"nodejs": "node"' \
	"$site/runs/m/c/results.json"

# erg diff matches targets the same way.
"$ERG" diff --archive "$arch" --format json m/a m/b > "$tmp/d.json" 2> "$tmp/err"
check "erg diff exits 0" test $? -eq 0
check "erg diff: 'Express' and 'express' are compared (+10 %)" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
rows = [r for r in d["rows"] if r["target"] == "Express" and r["metric"] == "rps"]
assert len(rows) == 1 and abs(rows[0]["delta_pct"] - 10) < 1e-9, rows
assert "express" not in d["only_in_b"]["targets"] and "Express" not in d["only_in_a"]["targets"]
' "$tmp/d.json"
check "erg diff: 'node' and 'Node.js' are compared through targets.txt" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert any(r["target"] == "node" and r["metric"] == "rps" for r in d["rows"]), d["rows"]
assert not d["only_in_a"]["targets"] and not d["only_in_b"]["targets"], d
' "$tmp/d.json"
"$ERG" diff --archive "$tmp/none" --format json "$arch/m/a" "$arch/m/b" > "$tmp/d2.json" 2>&1
check "erg diff without the archive's table: 'node' and 'Node.js' apart" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["only_in_a"]["targets"] == ["node"] and d["only_in_b"]["targets"] == ["Node.js"], d
' "$tmp/d2.json"
