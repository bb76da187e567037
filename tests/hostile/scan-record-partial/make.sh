#!/bin/sh
# An unfinished `erg record` run (killed mid-line) beside a good run: its
# directory, '.erg-record-<id>', is not read, and a warning says so and how
# to continue it; the good run builds.
. "$HOSTILE/lib.sh"
small "$1/2023/run"
small "$1/.erg-record-next"
head -c 300 "$1/2023/run/timeline.jsonl" > "$1/.erg-record-next/timeline.jsonl"
