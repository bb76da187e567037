# A session with non-2xx responses: in the small one, window 'a' of
# r1-s2-beta answered 400 of its 10,000 requests with 4xx and 600 with 5xx
# (its load file and its timeline line agree), so the page adds the energy
# per 2xx response and warns.
set -eu
"$MKSMALL" "$1" > /dev/null
sed -i 's/"req2xx": 10000, "req3xx": 0, "req4xx": 0, "req5xx": 0/"req2xx": 9000, "req3xx": 0, "req4xx": 400, "req5xx": 600/' \
	"$1/bombardier/r1-s2-beta-a.json"
sed -i '/"event":"routeComplete","id":"r1-s2-beta".*"route":"a"/s/"req2xx":10000/"req2xx":9000/' \
	"$1/timeline.jsonl"
grep -q '"req5xx": 600' "$1/bombardier/r1-s2-beta-a.json"
grep -q '"id":"r1-s2-beta".*"route":"a".*"req2xx":9000' "$1/timeline.jsonl"
