#!/bin/sh
# Same request count, but the load file has 1000 of them as 5xx where the
# timeline logs all 10000 as 2xx.
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
perl -i -pe 's/"req2xx": 10000/"req2xx": 9000/; s/"req5xx": 0/"req5xx": 1000/' \
	"$r/bombardier/r1-s1-alpha-a.json"
