#!/bin/sh
# tests/sh/trials.sh - the trials runs of the committed archive
# (archive/ci-epyc-2core/2026-12-03-nginx-w1 and -w2: nginx served one
# small file to wrk over 1, 4, 16 and 64 connections, five repetitions,
# worker_processes 1 vs 2; made by tests/tools/trials-nginx.sh): their
# pages, their presence in the views, and `erg diff` of the two.
#
# The figures checked are computed here from the trials CSV with awk
# (mean and median of each cell's rps), not taken from erg's output.
# Environment: ERG, BUILD, ERG_SRC (set by tests/run.sh).
T=trials
. "${ERG_SRC:-.}/tests/lib/sh-env.sh"
check() { # description, command...
	what_=$1
	shift
	if "$@"; then ok "$what_"; else notok "$what_"; fi
}

A=ci-epyc-2core/2026-12-03-nginx-w1
B=ci-epyc-2core/2026-12-03-nginx-w2
for r in $A $B; do
	if [ ! -f "$ERG_SRC/archive/$r/trials/wrk.csv" ]; then
		notok "the trials run archive/$r is missing: nothing checked"
		exit 0
	fi
done

# a site of the two runs alone: the diff page of consecutive runs, views
mkdir -p "$tmp/archive/ci-epyc-2core"
cp -R "$ERG_SRC/archive/$A" "$ERG_SRC/archive/$B" "$tmp/archive/ci-epyc-2core/"
site=$tmp/site
if "$ERG" build --quiet --archive "$tmp/archive" --out "$site" \
	--templates "$ERG_SRC/templates" 2> "$tmp/err"; then
	ok "erg build reads and renders the two trials runs"
else
	notok "erg build reads and renders the two trials runs"
	show "$tmp/err"
	exit 0
fi
# the time as run pages show theirs: run.json's "2026-12-03T06:28Z" in UTC
when=$(sed -n 's/^ *"date": "\(.*\)",$/\1/p' "$ERG_SRC/archive/$A/run.json")
shown=$(printf '%s' "$when" | sed -n 's/^\([0-9-]*\)T\([0-9][0-9]:[0-9][0-9]\).*Z$/\1 \2 UTC/p')
check "the run's time '$when' reads '$shown'" \
	grep -q "<time datetime=\"$when\">$shown</time>" "$site/runs/$A/index.html"

# awk: mean and median of a cell's rps (column 6) in a trials CSV
cell() { # file connections -> "mean median n"
	awk -F, -v c="$2" 'NR > 2 && $3 == c { v[n++] = $6; s += $6 }
		END {
			for (i = 0; i < n; i++) for (j = i + 1; j < n; j++)
				if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
			m = n % 2 ? v[int(n / 2)] : (v[n / 2 - 1] + v[n / 2]) / 2
			printf "%.6f %.6f %d\n", s / n, m, n
		}' "$1"
}

p=$site/runs/$A/index.html
check "the run page of $A exists" test -f "$p"
check "it is a trials page" grep -q '<span class="badge">trials</span>' "$p"
check "no empty setup group (the run names no source: no bare Source heading)" \
	sh -c "! grep -q setup-source \"\$1\"" sh "$p"
check "it says the centre is the median, as run.json asks" \
	grep -q 'Each cell shows the median of the repetitions, with their range' "$p"
check "its design check: 5 repetitions in each of the 4 cells" \
	grep -q 'Repetitions per cell: 5 in each of the 4 cells.' "$p"
check "its design check: no failed trials (errors, non_2xx)" \
	grep -q 'No failed trials: all 20 have 0 in' "$p"
check "its design check: drift against the sequence column" \
	grep -q 'Trial order (&#39;sequence&#39;) against &#39;rps&#39;' "$p"
check "a line chart of throughput against connections with a min-max band" \
	sh -c "grep -q 'id=\"chart-wrk-rps-by-connections\"' '$p' && grep -q 'class=\"band s0\"' '$p'"
check "every statistic per cell (the details table)" grep -q 'id="tbl-wrk-stats"' "$p"
for f in trials-wrk.csv cells-wrk.csv tables.md results.json; do
	check "download $f" test -s "$site/runs/$A/$f"
done

# the statistics against awk's, for every connection count of both runs
for r in $A $B; do
	for c in 1 4 16 64; do
		set -- $(cell "$ERG_SRC/archive/$r/trials/wrk.csv" $c)
		got=$(awk -F, -v c="connections=$c" '$4 == c && $5 == "rps" {
			printf "%.6f %.6f %d\n", $8, $11, $7 }' "$site/runs/$r/cells-wrk.csv")
		check "$r connections $c: rps mean, median, n as awk computes them ($1 $2 $3)" \
			test "$got" = "$1 $2 $3"
	done
done
mean1=$(cell "$ERG_SRC/archive/$A/trials/wrk.csv" 1 | cut -d' ' -f2)
check "the page shows the median of connections 1 (thousands grouped)" \
	grep -q "$(printf '%.0f' "$mean1" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/;ta') (" "$p"

# the views
check "the index lists both runs" sh -c "grep -q 'runs/$A/index.html' '$site/index.html' &&
	grep -q 'runs/$B/index.html' '$site/index.html'"
m=$site/machines/ci-epyc-2core/index.html
check "the machine page lists both runs" sh -c "grep -q 'runs/$A/index.html' '$m' &&
	grep -q 'runs/$B/index.html' '$m'"
check "the target page of nginx exists" test -f "$site/targets/nginx/index.html"
d=$site/diffs/ci-epyc-2core-2026-12-03-nginx-w1_vs_ci-epyc-2core-2026-12-03-nginx-w2/index.html
check "the diff page of the two runs exists" test -f "$d"
check "the diff page tests all 32 cells (no 'no significance' sentence)" \
	sh -c "! grep -q 'No significance test' '$d' &&
	grep -Eq '32 comparisons: [0-9]+ significant, [0-9]+ ~, 0 \\?' '$d'"
check "the machine page's diff list counts the tested rows" \
	grep -Eq '>[0-9]+ of 32<' "$m"
# a sweep's throughput in the views: the mean at the highest connection
# count both runs' targets share (64), as awk computes it, named under it
for r in $A $B; do
	set -- $(cell "$ERG_SRC/archive/$r/trials/wrk.csv" 64)
	mv=$(printf '%.0f' "$1" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/;ta')
	check "the machine page shows $r's throughput at connections 64 ($mv)" \
		grep -q ">$mv ± [0-9,]*<br><code class=\"id\">at connections 64</code>" "$m"
	check "the target page shows $r's throughput at connections 64 ($mv)" \
		grep -q ">$mv ± [0-9,]*<br><code class=\"id\">at connections 64</code>" \
		"$site/targets/nginx/index.html"
done
check "the routes table's heading says which x the throughput is at" \
	grep -q 'a trials sweep at the highest x all its targets share' "$m"
check "the diff page calls the pair trials runs, not energy sessions" \
	sh -c "grep -q 'consecutive trials runs of this machine' '$d' &&
	! grep -q 'energy sessions' '$d'"

# a sweep over two x columns: a chart along each, the other held (one
# line per value of it), and erg diff matching on both and saying so
mkdir -p "$tmp/x2/m/xa/trials" "$tmp/x2/m/xb/trials"
for r in xa xb; do
	f=1
	[ $r = xb ] && f=2	# B's figures are twice A's
	printf '{"title": "two x %s", "date": "2026-12-0%s", "machine": {"id": "m"}}\n' \
		"$r" "$f" > "$tmp/x2/m/$r/run.json"
	{
		echo "target,connections,payload_bytes,repetition,rps"
		for c in 1 2; do for p in 10 20; do for k in 1 2 3; do
			echo "a,$c,$p,$k,$(( (100 * c + p + k) * f ))"
		done; done; done
	} > "$tmp/x2/m/$r/trials/t.csv"
done
if "$ERG" build --quiet --archive "$tmp/x2" --out "$tmp/x2site" 2> "$tmp/x2err"; then
	p2=$tmp/x2site/runs/m/xa/index.html
	check "two x columns: a chart along connections" grep -q 'id="chart-t-rps-by-connections"' "$p2"
	check "two x columns: a chart along payload_bytes" \
		grep -q 'id="chart-t-rps-by-payload_bytes"' "$p2"
	check "two x columns: the connections chart has a line per payload_bytes" \
		sh -c "grep -q '>a, payload_bytes 10<' '$p2' && grep -q '>a, payload_bytes 20<' '$p2'"
	check "two x columns: its caption says the other x is held" \
		grep -q 'against Connections, one line per target (and route) and value of payload_bytes' "$p2"
else
	notok "two x columns: erg build"
	show "$tmp/x2err"
fi
"$ERG" diff "$tmp/x2/m/xa" "$tmp/x2/m/xb" > "$tmp/x2diff.txt" 2>&1
check "two x columns: erg diff says how the sweep is matched" \
	grep -q "sweeps 'connections' and 'payload_bytes': cells are matched on every one" "$tmp/x2diff.txt"
check "two x columns: erg diff has a row per (connections, payload_bytes): 4, +100%" \
	test "$(grep -Ec '^a \[payload_bytes: (10|20)\], Connections [12] .*\+100(\.0+)?%' "$tmp/x2diff.txt")" = 4

# resource metrics of each process (a nested JSONL object, a prefixed
# name): a chart of their own each, labelled with the process and unit
mkdir -p "$tmp/res/m/r/trials"
printf '{"title": "resources", "date": "2026-12-03", "machine": {"id": "m"}}\n' > "$tmp/res/m/r/run.json"
for c in 1 4; do for k in 1 2; do
	echo "{\"target\": \"a\", \"connections\": $c, \"rep\": $k, \"rps\": $((c * 100 + k)), \"server\": {\"cpu_pct\": $((c * 10 + k)), \"rss_mb\": $((50 + k))}, \"db_cpu_pct\": $((c + k))}"
done; done > "$tmp/res/m/r/trials/t.jsonl"
if "$ERG" build --quiet --archive "$tmp/res" --out "$tmp/ressite" 2> "$tmp/reserr"; then
	p3=$tmp/ressite/runs/m/r/index.html
	for ch in server_cpu_pct:'CPU (server)' server_rss_mb:'RSS (server)' db_cpu_pct:'CPU (db)'; do
		check "resources: a chart of ${ch#*:} of its own" \
			grep -q "<title id=\"chart-t-${ch%%:*}-by-connections-title\">${ch#*:} by Connections<" "$p3"
	done
	check "resources: CPU in %, RSS in MB (axis titles)" \
		sh -c "grep -q '>CPU (server) (%)<' '$p3' && grep -q '>RSS (server) (MB)<' '$p3'"
else
	notok "resources: erg build"
	show "$tmp/reserr"
fi

# erg diff
cd "$ERG_SRC" || exit 0
"$ERG" diff "archive/$A" "archive/$B" > "$tmp/diff.txt" 2> "$tmp/diff.err"
check "erg diff of the two trials runs exits 0" test $? -eq 0
check "erg diff names the configuration that differs" \
	grep -Eq '^  conditions\.worker_processes +1 +2$' "$tmp/diff.txt"
check "erg diff: 5 repetitions a side" grep -q '; 5 rounds$' "$tmp/diff.txt"
check "erg diff: 8 metrics x 4 connection counts, all tested" \
	grep -Eq '^32 comparisons: [0-9]+ significant, [0-9]+ ~, 0 \?$' "$tmp/diff.txt"
check "erg diff: a throughput table by connections" \
	grep -q '^route GET /1k.txt: Throughput \[rps\] (req/s), by Connections$' "$tmp/diff.txt"
set -- $(cell "archive/$A/trials/wrk.csv" 64)
ma=$(printf '%.0f' "$1")
set -- $(cell "archive/$B/trials/wrk.csv" 64)
mb=$(printf '%.0f' "$1")
check "erg diff: connections 64 rows show both means ($ma, $mb) over 5, a p and a verdict" \
	grep -Eq "^nginx, Connections 64 +$ma ± +[0-9]+ \(5\) +$mb ± +[0-9]+ \(5\) +[-+][0-9.]+% +\[[0-9.]+, [0-9.]+\] +[01]\.[0-9]{4} +(~|[-+][0-9.]+%)$" \
	"$tmp/diff.txt"
"$ERG" diff --format json "archive/$A" "archive/$B" > "$tmp/diff.json"
check "erg diff --format json: tested (no_significance null, not_tested 0)" \
	sh -c "grep -q '\"no_significance\": null' '$tmp/diff.json' &&
	grep -q '\"not_tested\": 0' '$tmp/diff.json'"
