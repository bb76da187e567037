#!/bin/sh
# ab gave up on a socket error before its report (exit status 111): the
# file holds no figures, and erg says why.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
# the window's load file is the one loadFile names, not the runner's
rm "$r/bombardier/r1-s1-alpha-a.json"
line_edit "$r/timeline.jsonl" 4 's/"bytesRead":1000000/"bytesRead":1000000,"loadFile":"ab.txt"/'
printf 'This is ApacheBench, Version 2.3 <$Revision$>\nCopyright 1996 Adam Twiss, Zeus Technology Ltd, http://www.zeustech.net/\nLicensed to The Apache Software Foundation, http://www.apache.org/\n\nBenchmarking 127.0.0.1 (be patient)...apr_socket_recv: Connection refused (111)\n' > "$r/ab.txt"
