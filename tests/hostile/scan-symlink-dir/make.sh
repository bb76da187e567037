#!/bin/sh
# A symbolic link to a directory that is not a run, beside a good run:
# not followed, with a warning naming it; the run builds.
. "$HOSTILE/lib.sh"
small "$1/2023/run"
mkdir -p "$1/../elsewhere/folder"
ln -s ../elsewhere/folder "$1/linked"
