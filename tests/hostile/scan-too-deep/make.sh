#!/bin/sh
# A run 18 levels below the archive: the scan stops at 16 levels, and
# the run vanished.  Now an error naming where the scan stopped.
. "$HOSTILE/lib.sh"
small "$1/1/2/3/4/5/6/7/8/9/10/11/12/13/14/15/16/17/run"
