#!/bin/sh
# tests/sh/browser.sh - the pages in a real browser (tests/browser/run.sh).
exec sh "${ERG_SRC:-$(pwd)}/tests/browser/run.sh"
