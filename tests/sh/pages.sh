#!/bin/sh
# tests/sh/pages.sh - the page goldens (tests/golden/pages/, see its
# README.md): every case builds (status 0) and its run page and
# results.json equal the expected files byte for byte; on a mismatch the
# unified diff is shown.  make regen-golden rewrites them.
# Environment: ERG, BUILD, ERG_SRC (set by tests/run.sh).
T=pages
. "${ERG_SRC:-.}/tests/lib/sh-env.sh"
here=$ERG_SRC/tests/golden/pages
n=0
for d in "$here"/*/; do
	d=${d%/}
	name=$(basename "$d")
	[ -f "$d/make.sh" ] || [ -d "$d/run" ] || continue
	n=$((n + 1))
	if ! sh "$here/build.sh" "$name" "$tmp/$name" 2> "$tmp/err"; then
		notok "$name: the case does not build"
		show "$tmp/err"
		continue
	fi
	for f in index.html results.json; do
		got=$tmp/$name/runs/pages/$name/$f
		if [ ! -f "$d/$f" ]; then
			notok "$name/$f: no expected file (make regen-golden, then review)"
		elif cmp -s "$d/$f" "$got"; then
			ok "$name/$f equals the golden ($(wc -c < "$got" | tr -d ' ') bytes)"
		else
			notok "$name/$f differs from the golden (make regen-golden, then review the diff)"
			diff -u "$d/$f" "$got" | sed "s|$tmp/$name|OUT|g" | sed -n '1,80s/^/# /p'
		fi
	done
done
if [ "$n" -ge 5 ]; then
	ok "$n cases"
else
	notok "only $n cases under tests/golden/pages"
fi
exit 0
