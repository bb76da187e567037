#!/bin/sh
# The hostile-input corpus: tests/hostile/README.md, runner tests/hostile/run.sh.
exec sh "${ERG_SRC:-.}/tests/hostile/run.sh"
