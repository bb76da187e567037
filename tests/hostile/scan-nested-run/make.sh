#!/bin/sh
# A run kept inside another run (an older attempt in a subfolder): the
# scan stopped at the outer run, so the inner one vanished.  Now an error
# naming it.
. "$HOSTILE/lib.sh"
small "$1/2023/run"
small "$1/2023/run/old-attempt"
