#!/bin/sh
# cpu_energy of sample 24 is 2^64 - 1 (libplist keeps integers as uint64).
# Refused; the message says "is negative (-1)" because power.c reads the
# uint64 through int64_t (NEEDSWORK: say "out of range" and regenerate).
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
sample_edit "$r/power.plist" 24 's{<key>cpu_energy</key>\n<integer>\d+</integer>}{<key>cpu_energy</key>\n<integer>18446744073709551615</integer>}'
# Note: libplist 2.2 keeps integers as uint64 and reads 18446744073709551615
# back as -1, the same bits as a literal -1, so the message may say the value
# is negative; what matters is that the sample is refused at its key.
