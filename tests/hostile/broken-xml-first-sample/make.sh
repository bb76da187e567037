#!/bin/sh
# The first sample of the power stream is not well-formed XML.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
sample_edit "$r/power.plist" 1 's{<key>elapsed_ns</key>}{<key>elapsed_ns}'
