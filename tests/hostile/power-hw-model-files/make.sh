#!/bin/sh
# A resumed session whose continuation file names another machine.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
perl -0 -ne 'print if $. > 60' "$r/power.plist" | perl -0 -pe 's{<string>Test1,1</string>}{<string>Mac17,3</string>}' > "$r/power.plist.1"
perl -0 -i -ne 'print if $. <= 60' "$r/power.plist"
