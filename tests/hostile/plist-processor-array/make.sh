#!/bin/sh
# processor of sample 31 is an <array> instead of a <dict>.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
sample_edit "$r/power.plist" 31 's{<key>processor</key>\n<dict>}{<key>processor</key>\n<array><dict>}; s{</dict>\n<key>thermal}{</dict></array>\n<key>thermal}'
