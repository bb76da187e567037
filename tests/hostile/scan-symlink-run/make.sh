#!/bin/sh
# A run directory that is a symbolic link (to a run outside the archive):
# erg does not follow links in the archive, and skipped it without a
# word, so the run was missing from the site.  Now an error naming it.
. "$HOSTILE/lib.sh"
small "$1/../elsewhere/run"
mkdir -p "$1/2023"
ln -s ../../elsewhere/run "$1/2023/run"
