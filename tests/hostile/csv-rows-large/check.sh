#!/bin/sh
. "$HOSTILE/check-lib.sh"
pages_clean
p=runs/2023/summary/index.html
present '<p class="from">No charts: 1500 rows are more than a chart can show (at most 1000); the table and the CSV hold every value.</p>' $p
present 'not in the cross-run views: 1500 rows are more than they compare (at most 1000).' $p
grep -q '<svg' "$OUT/$p" && echo "not ok - a chart on the run page" || echo "ok - no chart on the run page"
n=$(grep -c '^<tr id="r-t-' "$OUT/$p")
[ "$n" -eq 1500 ] && echo "ok - 1500 rows on the page" || echo "not ok - $n rows on the page, not 1500"
n=$(grep -c '^t[0-2],r' "$OUT/runs/2023/summary/t.csv")
[ "$n" -eq 1500 ] && echo "ok - 1500 rows in t.csv" || echo "not ok - $n rows in t.csv, not 1500"
grep -rqF r1499 "$OUT/targets" "$OUT/compare" "$OUT/machines" 2>/dev/null &&
	echo "not ok - a route of the large table in the cross-run views" ||
	echo "ok - no route of the large table in the cross-run views"
