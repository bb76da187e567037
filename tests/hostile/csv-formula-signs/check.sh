#!/bin/sh
. "$HOSTILE/check-lib.sh"
pages_clean
c=runs/2023/summary/t.csv
present "\"'-1+2\",1,\"'-1+2\"" $c
present "\"'+3-4\",2,\"'+3-4\"" $c
present "\"'=1\",3,\"'=1\"" $c
present "\"'@x\",4,\"'@x\"" $c
present "$(printf '"'"'"'\t=1",5,"'"'"'\t=1"')" $c
present "$(printf 'a,6,-5\r')" $c
present "$(printf 'b,7,+5\r')" $c
present "$(printf 'c,8,-1e3\r')" $c
# no cell of any CSV starts a formula bare or inside plain quotes
absent_re '(^|,)"?[=@\t]' '*.csv'
absent_re '(^|,)"?[+-][^0-9.]' '*.csv'
absent_re '(^|,)"?[+-][0-9.]+[+-]' '*.csv'
present '<td class="txt">-1+2</td>' runs/2023/summary/index.html
