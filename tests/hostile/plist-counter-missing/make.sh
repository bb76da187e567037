#!/bin/sh
# Sample 23 (inside r1-s1-alpha's route 'a') without its cpu_energy, which
# every other sample has.  The method counts a missing counter as 0, so the
# sample's 10 J became 0 J and the window lost a fifth of its energy with
# full coverage.  Now an error at the sample.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
sample_edit "$r/power.plist" 23 's/<key>cpu_energy<\/key>\n<integer>\d+<\/integer>\n//'
