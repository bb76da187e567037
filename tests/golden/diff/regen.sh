#!/bin/sh
# tests/golden/diff/regen.sh - regenerate the golden output of `erg diff`.
#
#   perturbed.txt   erg diff (text) of the reference session against a copy
#                   whose express windows carry 5 % more energy; both sides
#                   written by tests/tools/rebuild with its default seed, so
#                   only express differs.
#   published-vs-session.txt
#                   erg diff (text) of the bundled archive's summary run
#                   m5-energy/2026-08-26-published-headline (figures as
#                   published) against the reconstructed session
#                   m5-energy/2026-08-26T0856-saturated: no test, one
#                   value per cell.
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
"$ERG" diff --archive archive m5-energy/2026-08-26-published-headline \
	m5-energy/2026-08-26T0856-saturated > "$tmp/published-vs-session.txt"
for f in perturbed.txt published-vs-session.txt; do
	if [ -f "$here/$f" ] && cmp -s "$tmp/$f" "$here/$f"; then
		echo "regen.sh: $here/$f unchanged"
	else
		[ -f "$here/$f" ] && diff -u "$here/$f" "$tmp/$f" || true
		cp "$tmp/$f" "$here/$f"
		echo "regen.sh: wrote $here/$f - review it before committing"
	fi
done
