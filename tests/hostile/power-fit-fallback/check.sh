#!/bin/sh
. "$HOSTILE/check-lib.sh"
present "the timestamps of its 2 samples cannot pin the time fit" runs/2023/run/results.json
present '"file": "power.plist.1"' runs/2023/run/results.json
present 'the timestamps of its 2 samples cannot pin the time fit' runs/2023/run/index.html
