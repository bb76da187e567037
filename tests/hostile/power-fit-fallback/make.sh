#!/bin/sh
# A resumed session whose continuation file holds two 0.5 s samples
# stamped with the same second: the timestamps agree with them but cannot
# pin a slope (least squares gives 0).  The fit takes 1, and the run's
# page says so.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
perl -0 -ne 'print if $. > 104' "$r/power.plist" |
	perl -0 -pe 's{<integer>1000000000</integer>}{<integer>500000000</integer>};
		s{<date>[^<]*</date>}{<date>2023-11-14T22:15:05Z</date>};
		s{(<key>cpu_energy</key>\n<integer>)\d+}{$1 . (2000 + $.)}e' > "$r/power.plist.1"
perl -0 -i -ne 'print if $. <= 104' "$r/power.plist"
