#!/bin/sh
# tests/golden/regen.sh - rewrite tests/golden/small/ from the current
# build (make regen-golden).  Review the change with git diff before
# committing it: the golden pages are the expected output, not a cache.
set -eu
ERG_SRC=${ERG_SRC:-$(pwd)}
export ERG_SRC
dir=$ERG_SRC/tests/golden/small
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
sh "$ERG_SRC/tests/golden/build-small.sh" "$tmp/site"
rm -rf "$dir"
mkdir -p "$(dirname "$dir")"
# The build cache holds keys of where the archive was, not pages.
rm -rf "$tmp/site/.erg-cache"
cp -R "$tmp/site" "$dir"
echo "regen-golden: wrote $(find "$dir" -type f | wc -l | tr -d ' ') files under tests/golden/small"
