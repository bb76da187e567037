#!/bin/sh
# A run directory whose name is Latin-1 (not UTF-8): refused with a message
# located at the directory.  Before the fix, json_string() dropped the id
# from the results and the build failed with "erg: error: run id '' is
# not a relative path" (no location, no reason).
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
mv "$r" "$1/2023/caf$(printf "\351")"
