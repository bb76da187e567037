#!/bin/sh
# Route a of r1-s1-alpha measured with JMeter: a JTL CSV of 10000 samples
# (100 bytes each, as the timeline's bytesRead), elapsed = i mod 100 ms, so
# each of 0..99 ms occurs 100 times; streamed and summarised by erg.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
# the window's load file is the one loadFile names, not the runner's
rm "$r/bombardier/r1-s1-alpha-a.json"
line_edit "$r/timeline.jsonl" 4 's/"bytesRead":1000000/"bytesRead":1000000,"loadFile":"jmeter\/a.jtl"/'
mkdir -p "$r/jmeter"
perl -e 'print "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect\n";
	for my $i (0 .. 9999) {
		printf "%d,%d,GET /a,200,OK,Thread Group 1-%d,text,true,,100,80,8,8,http://127.0.0.1:3000/a,%d,0,0\n",
			1700000021000 + int($i / 2), $i % 100, $i % 8 + 1, $i % 100;
	}' > "$r/jmeter/a.jtl"
