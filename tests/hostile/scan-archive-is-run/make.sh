#!/bin/sh
# --archive names a run directory instead of the folder holding runs: the
# run has no id (the path below the archive); refused with a hint.
. "$HOSTILE/lib.sh"
small "$1"
