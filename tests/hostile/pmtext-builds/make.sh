#!/bin/sh
# powermetrics text (the default format) in place of the plist: samples
# of 1000 ms whose headers name S + i, so each ends in the middle of its
# second and covers S + i - 0.5 to S + i + 0.5.  Combined Power is
# 40000 mW over the measurements (the samples at S + 21 to 30, + 42 to 51,
# + 63 to 72, + 84 to 93), 30000 mW otherwise; CPU Power (reported only)
# is 1 mW less.  Route a of r1-s1-alpha (5 s) has 40 x 5 = 200 J;
# alpha's headline is 40 W x 8 s x 1000 / 16000 requests = 20 mJ/req, all
# of it combined (check.sh).
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
rm "$r/power.plist"
perl -MPOSIX=strftime -e '
	print "Machine model: Test1,1\nOS version: 22G91\n\n";
	for my $i (-1 .. 107) {
		my $mw = 30000;
		for my $m (21, 42, 63, 84) { $mw = 40000 if $i >= $m && $i <= $m + 9 }
		my $d = strftime("%a %b %e %H:%M:%S %Y +0000", gmtime(1700000000 + $i));
		printf "*** Sampled system activity (%s) (1000.00ms elapsed) ***\n\n", $d;
		printf "**** Processor usage ****\n\nCPU Power: %d mW\nGPU Power: 1 mW\nANE Power: 0 mW\n", $mw - 1;
		printf "Combined Power (CPU + GPU + ANE): %d mW\n\n**** GPU usage ****\n\nGPU Power: 1 mW\n\n", $mw;
	}' > "$r/powermetrics.txt"
