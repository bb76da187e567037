#!/bin/sh
. "$HOSTILE/check-lib.sh"
present "hw_model 'Mac17,3' of the samples differs from meta.json's machine.model 'Test1,1'" runs/2023/run/results.json
present 'hw_model &#39;Mac17,3&#39; of the samples differs from meta.json&#39;s machine.model &#39;Test1,1&#39;' runs/2023/run/index.html
