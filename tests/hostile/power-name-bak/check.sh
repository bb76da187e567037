#!/bin/sh
. "$HOSTILE/check-lib.sh"
present '"file": "power.plist.bak"' runs/2023/run/results.json
present 'not read: the power stream is power.plist, power.plist.1, ... (each may end in .gz)' runs/2023/run/results.json
present 'power.plist.bak' runs/2023/run/index.html
present 'not read: the power stream is power.plist' runs/2023/run/index.html
