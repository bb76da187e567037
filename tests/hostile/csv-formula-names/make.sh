#!/bin/sh
# Names a spreadsheet would run as formulas, in the run's CSV exports: a
# target "=HYPERLINK(...)", a route "@SUM(1+1)*cmd", another target
# "-2+3+cmd|' /C calc'!A0".  The run builds (odd names are names);
# check.sh proves each such cell of every CSV starts with an apostrophe
# inside quotes (shown as text), while the pages show the names as given.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
all_edit "$r/timeline.jsonl" 's{"framework":"alpha"}{"framework":"=HYPERLINK(\\"http://x.invalid/\\",\\"y\\")"}g;
	s{"framework":"beta"}{"framework":"-2+3+cmd|\x27 /C calc\x27!A0"}g;
	s{"route":"b"}{"route":"\@SUM(1+1)*cmd"}g'
