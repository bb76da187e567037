#!/bin/sh
# Two sources that do not overlap: the plist's processor and a GPU from
# nvidia-smi (local time, its offset in meta.json erg.powerTimezone), at
# a constant 30 W from S to S + 107 s.  Summed: route a of r1-s1-alpha
# (5 s) has 50 J of processor and 150 J of GPU; alpha's headline splits
# into processor 7.21875 and gpu0 15 mJ/req (30 W x 8 s x 1000 / 16000
# requests in each measurement), 22.21875 in all (check.sh).
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
perl -0 -i -pe 's/^\{/{\n "erg": {"powerTimezone": "+01:00"},/' "$r/meta.json"
{
	echo "timestamp, index, power.draw [W]"
	# 1700000000 s = 2023-11-14T22:13:20Z = 23:13:20 at +01:00
	s=0
	while [ $s -le 107 ]; do
		printf '2023/11/14 23:%02d:%02d.000, 0, 30.00 W\n' $(( (13 * 60 + 20 + s) / 60 )) $(( (20 + s) % 60 ))
		s=$((s + 1))
	done
} > "$r/nvidia-smi.csv"
