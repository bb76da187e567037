#!/bin/sh
. "$HOSTILE/check-lib.sh"
present '"file": "power.plistX"' runs/2023/run/results.json
present 'power.plistX' runs/2023/run/index.html
