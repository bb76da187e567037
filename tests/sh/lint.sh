#!/bin/sh
# tests/sh/lint.sh - tests/lint/stages.sh holds gen/ to its stages
# (base -> model -> ingest -> analyze -> render -> site -> cmd): the tree
# passes, and copies of gen/ with one include planted backwards fail with
# the exact message, located at the planted line.  Environment: ERG_SRC.
T=lint
. "${ERG_SRC:-.}/tests/lib/sh-env.sh"
cd "$ERG_SRC" || exit 1

if sh tests/lint/stages.sh gen > "$tmp/out" 2>&1 && [ ! -s "$tmp/out" ]; then
	ok "gen/ includes only its own stage and earlier ones"
else
	notok "gen/ breaks its stages"
	show "$tmp/out"
fi

# planted FILE HEADER STAGES-MESSAGE: a copy of gen/ where FILE includes
# HEADER on a new last line; the lint must fail naming that line.
planted() {
	rm -rf "$tmp/gen"
	cp -R gen "$tmp/gen"
	n=$(wc -l < "$tmp/gen/$1")
	printf '#include "%s"\n' "$2" >> "$tmp/gen/$1"
	printf '%s:%d: error: includes "%s" from a later stage (%s)\n' \
		"$tmp/gen/$1" $((n + 1)) "$2" "$3" > "$tmp/want"
	sh tests/lint/stages.sh "$tmp/gen" > "$tmp/out" 2>&1
	st=$?
	if [ "$st" -eq 1 ] && cmp -s "$tmp/want" "$tmp/out"; then
		ok "$1 including $2: fails with the one located message"
	else
		notok "$1 including $2: status $st (want 1), or not exactly '$(cat "$tmp/want")'"
		show "$tmp/out"
	fi
}

planted base/buf.c render/html.h "render after base"
# the cycle the diff split removed: a renderer calling the command
planted render/page_views.c cmd/diff.h "cmd after render"
exit 0
