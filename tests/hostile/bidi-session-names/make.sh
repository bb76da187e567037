#!/bin/sh
# A target (framework) "al<RLO>pha" and a route "b<LRI>x<PDI>" in an
# energy session: the run page, its CSV and Markdown exports and the
# cross-run views show them as "al[U+202E]pha", never raw.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
all_edit "$r/timeline.jsonl" 's{"framework":"alpha"}{"framework":"al\\u202Epha"}g;
	s{"route":"b"}{"route":"b\\u2066x\\u2069"}g'
