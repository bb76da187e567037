#!/bin/sh
. "$HOSTILE/check-lib.sh"
# 40 W over 9 s and 10 s (power.csv), in each table
python3 - "$OUT/runs/2026/trials-energy/results.json" << 'PY'
import json, sys
t = json.load(open(sys.argv[1]))["trials"]
e = {x["file"]: [r[[c["name"] for c in x["columns"]].index("energy_j")] for r in x["rows"]] for x in t}
print(("ok" if e == {"trials/t.csv": [360, 400], "trials/u.csv": [360, 400]} else "not ok") +
      " - each table's trials get their energy: %s" % e)
PY
