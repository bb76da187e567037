#!/bin/sh
# tests/golden/build-small.sh OUT [ARCHIVE [ERG-OPTIONS...]] - build the
# site of the small test session into OUT, exactly as the golden pages
# under tests/golden/small/ were built.  Shared by tests/sh/site.sh
# (compare), tests/golden/regen.sh (rewrite) and tests/browser/run.sh.
# ARCHIVE, when given, is an archive already holding the session as
# 2023-11/small (so that several builds read the very same files);
# otherwise one is made and removed.
# Environment: ERG_SRC (repo root, default .), BUILD (default build),
# ERG (the erg binary, default $ERG_SRC/$BUILD/erg).
set -eu
out=$1
shift
ERG_SRC=${ERG_SRC:-.}
BUILD=${BUILD:-build}
case $BUILD in /*) b=$BUILD ;; *) b=$ERG_SRC/$BUILD ;; esac
ERG=${ERG:-$b/erg}
if [ $# -gt 0 ]; then
	archive=$1
	shift
else
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT INT TERM
	archive=$work/archive
	mkdir -p "$archive/2023-11"
	"$b/tools/mksmall" "$archive/2023-11/small"
fi
# A fixed build date exercises the footer without depending on the clock.
LC_ALL=C TZ=UTC SOURCE_DATE_EPOCH=1700000000 \
	"$ERG" build --quiet --archive "$archive" --out "$out" \
	--templates "$ERG_SRC/templates" "$@"
