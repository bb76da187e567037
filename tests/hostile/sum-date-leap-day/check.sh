#!/bin/sh
. "$HOSTILE/check-lib.sh"
pages_clean
present '<time datetime="2024-02-29">' runs/2023/summary/index.html
