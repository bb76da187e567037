#!/bin/sh
. "$HOSTILE/check-lib.sh"
pages_clean
present '"run": "2023/run"' runs/2023/run/results.json
