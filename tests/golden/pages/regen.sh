#!/bin/sh
# tests/golden/pages/regen.sh - rewrite the expected index.html and
# results.json of every page-golden case (make regen-golden) from the
# current build, and say which changed.  Review the change with git diff
# before committing it: the goldens are the expected output, not a cache.
# Environment: ERG_SRC (repo root, default .), BUILD, ERG (as build.sh).
set -eu
ERG_SRC=${ERG_SRC:-$(pwd)}
export ERG_SRC
here=$ERG_SRC/tests/golden/pages
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
n=0
for d in "$here"/*/; do
	d=${d%/}
	name=$(basename "$d")
	[ -f "$d/make.sh" ] || [ -d "$d/run" ] || continue
	sh "$here/build.sh" "$name" "$tmp/$name" 2> "$tmp/err" || {
		cat "$tmp/err" >&2
		echo "regen-golden: case $name does not build" >&2
		exit 1
	}
	for f in index.html results.json; do
		new=$tmp/$name/runs/pages/$name/$f
		if [ -f "$d/$f" ] && cmp -s "$new" "$d/$f"; then
			continue
		fi
		echo "regen-golden: wrote tests/golden/pages/$name/$f"
		cp "$new" "$d/$f"
		n=$((n + 1))
	done
done
echo "regen-golden: $n page golden files changed under tests/golden/pages"
