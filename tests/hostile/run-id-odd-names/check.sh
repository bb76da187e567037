#!/bin/sh
. "$HOSTILE/check-lib.sh"
pages_clean
for id in "it's \"odd\" <b> & x" "x..." "a..b/#frag?q=%41"; do
	if [ -f "$OUT/runs/$id/index.html" ]; then
		echo "ok - page of run '$id'"
	else
		echo "not ok - no page for run '$id'"
	fi
done
absent '<b> &'
absent 'href="runs/it'"'"'s'
present 'it&#39;s &quot;odd&quot; &lt;b&gt; &amp; x' index.html
present 'href="runs/it%27s%20%22odd%22%20%3Cb%3E%20%26%20x/index.html"' index.html
present 'href="runs/a..b/%23frag%3Fq%3D%2541/index.html"' index.html
present 'href="runs/x.../index.html"' index.html
