#!/bin/sh
# A run refused (meta.json without timeline.jsonl) that holds an older
# attempt, whole, in a subfolder, an unfinished 'erg record' run beside
# it and in it, another attempt whose name sorts before the record's
# ('-' before '.'), and a copy of a run in a hidden folder.  The scan stops at a run's
# markers and walks the run's folders once, for its key: refused or not,
# what is inside it is said as before and in the same order (a folder's
# unfinished records, then whether it is a run, then its subfolders), and
# a hidden folder is, as in the scan, nobody's run.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
rm "$r/timeline.jsonl"
small "$r/attempts/old"
mkdir -p "$r/attempts/.erg-record-x" "$r/attempts/old/.erg-record-y"
small "$r/attempts/-older"
small "$r/.trash/copy"
