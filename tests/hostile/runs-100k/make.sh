#!/bin/sh
# 100,000 tiny runs (a run.json each, 5 levels deep): more than
# --max-runs 20000 (args; the default, 1,000,000, fits them), refused with
# one message before any run is read, within the time limit.  One file per run (not the two of an
# energy session) and cp, ten copies per level, keep making them to about
# 50 processes and 200,000 inodes; the first level copies and the others
# hard-link, so no file gets more links (10,000) than a file system allows.
mkdir -p "$1/l0/r"
echo '{}' > "$1/l0/r/run.json"
prev=$1/l0/r
for lv in 1 2 3 4 5; do
	mkdir -p "$1/l$lv"
	for i in 0 1 2 3 4 5 6 7 8 9; do
		if [ "$lv" -eq 1 ]; then
			cp -a "$prev" "$1/l$lv/d$i"
		else
			cp -al "$prev" "$1/l$lv/d$i"
		fi
	done
	[ "$lv" -gt 1 ] && rm -rf "$1/l$((lv - 1))"
	prev=$1/l$lv
done
rm -rf "$1/l0"
mv "$1/l5" "$1/runs"
