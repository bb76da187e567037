#!/bin/sh
# From sample 50 on the samples name another machine.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
perl -0 -i -pe 's{<string>Test1,1</string>}{<string>Mac17,3</string>} if $. >= 50' "$r/power.plist"
