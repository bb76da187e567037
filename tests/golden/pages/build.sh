#!/bin/sh
# tests/golden/pages/build.sh CASE OUT - build the site of one page-golden
# case (tests/golden/pages/CASE/) into OUT, as its expected files were
# built: the case's run, from its run/ directory or written by its make.sh,
# alone in an archive as pages/CASE, a fixed build date, C locale, UTC.
# The pages to compare are OUT/runs/pages/CASE/{index.html,results.json}.
# Shared by tests/sh/pages.sh (compare) and tests/golden/pages/regen.sh.
# Environment: ERG_SRC (repo root, default .), BUILD (default build),
# ERG (the erg binary, default $ERG_SRC/$BUILD/erg).
set -eu
name=$1
out=$2
ERG_SRC=${ERG_SRC:-.}
BUILD=${BUILD:-build}
case $BUILD in /*) b=$BUILD ;; *) b=$ERG_SRC/$BUILD ;; esac
ERG=${ERG:-$b/erg}
src=$ERG_SRC/tests/golden/pages/$name
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
mkdir -p "$work/archive/pages"
run=$work/archive/pages/$name
if [ -d "$src/run" ]; then
	cp -R "$src/run" "$run"
else
	MKSMALL=$b/tools/mksmall sh "$src/make.sh" "$run"
fi
LC_ALL=C TZ=UTC SOURCE_DATE_EPOCH=1700000000 \
	"$ERG" build --quiet --archive "$work/archive" --out "$out" \
	--templates "$ERG_SRC/templates"
