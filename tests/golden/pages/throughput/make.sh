# A throughput-only session: the small one without its power file (no
# energy column or chart, not zeros).
set -eu
"$MKSMALL" "$1" > /dev/null
rm "$1/power.plist"
