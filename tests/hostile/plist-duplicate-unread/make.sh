#!/bin/sh
# Every sample carries a gpu dict with idle_ns and idle_ratio twice, as
# macOS 13 to 15 write it (formats.md §1.2): keys erg does not read may
# repeat, and the session builds as ever.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
all_edit "$r/power.plist" 's{(<key>thermal_pressure</key>)}{<key>gpu</key>\n<dict>\n<key>idle_ns</key><integer>5</integer>\n<key>idle_ratio</key><real>0.5</real>\n<key>idle_ns</key><integer>5</integer>\n<key>idle_ratio</key><real>0.5</real>\n</dict>\n$1}'
