#!/bin/sh
# The last sample is broken but ends with </plist>: not a truncated write,
# so an error, not a dropped sample.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
sample_edit "$r/power.plist" 106 's{<key>hw_model</key>}{<key>hw_model<key>}'
