#!/bin/sh
# The reference session (500 ms samples, so the whole-second timestamps
# pin the time axis) with elapsed_ns of sample 950 30 % too long: the
# timestamps of the samples after it say that time did not pass.
. "$HOSTILE/lib.sh"
r=$1/2023/run
mkdir -p "$1/2023"
cp -r "$HOSTILE/../../archive/m5-energy/2026-08-26T0856-saturated" "$r"
gzip -d "$r/power.plist.gz"
perl -0 -i -pe 'if ($. == 950) { s{<key>elapsed_ns</key><integer>(\d+)</integer>}{"<key>elapsed_ns</key><integer>" . int($1 * 1.3) . "</integer>"}e }' "$r/power.plist"
