#!/bin/sh
# tests/golden/diff/regen.sh - regenerate the golden output of `erg diff`.
#
#   perturbed.txt   erg diff (text) of the reference session against a copy
#                   whose express windows carry 5 % more energy; both sides
#                   written by tests/tools/rebuild with its default seed, so
#                   only express differs.
#
# Run from the top of the source tree after `make`.  Writes the new file in
# place and prints what changed: review it (git diff) before committing.
# Environment: BUILD (default build), SHARED (../shared), ERG (erg binary,
# default $BUILD/erg).
set -eu
BUILD=${BUILD:-build}
SHARED=${SHARED:-../shared}
ERG=${ERG:-$BUILD/erg}
LC_ALL=C
TZ=UTC
export LC_ALL TZ
here=tests/golden/diff
[ -d "$here" ] || { echo "regen.sh: run from the top of the source tree" >&2; exit 1; }
tmp=$(mktemp -d /tmp/erg-diff-regen-XXXXXX)
trap 'rm -rf "$tmp"' EXIT INT TERM
data=$SHARED/reference/energy-benchmark-m5.json
"$BUILD/tools/rebuild" "$data" "$tmp/m5-energy/2026-08-26T0856-saturated"
"$BUILD/tools/rebuild" --perturb express=1.05 "$data" "$tmp/m5-energy/perturbed-express-1.05"
"$ERG" diff --archive "$tmp" m5-energy/2026-08-26T0856-saturated \
	m5-energy/perturbed-express-1.05 > "$tmp/perturbed.txt"
if [ -f "$here/perturbed.txt" ] && cmp -s "$tmp/perturbed.txt" "$here/perturbed.txt"; then
	echo "regen.sh: $here/perturbed.txt unchanged"
else
	[ -f "$here/perturbed.txt" ] && diff -u "$here/perturbed.txt" "$tmp/perturbed.txt" || true
	cp "$tmp/perturbed.txt" "$here/perturbed.txt"
	echo "regen.sh: wrote $here/perturbed.txt - review it before committing"
fi
