#!/bin/sh
# idle-02 says it follows r1-s1-alpha; r1-s2-beta ran in between.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
perl -i -pe 's/("id":"idle-02".*"followsMeasurementId":)"r1-s2-beta"/$1"r1-s1-alpha"/' "$r/timeline.jsonl"
