#!/bin/sh
. "$HOSTILE/check-lib.sh"
pages_clean
# No CSV cell (at a line start or after a comma) starts a formula bare or
# inside plain quotes (tests/unit/test_view.c has the rule case by case).
absent_re '(^|,)"?[=@]' '*.csv'
absent_re '(^|,)"?-2\+3\+cmd' '*.csv'
present '"'"'"'=HYPERLINK(""http://x.invalid/"",""y"")"' runs/2023/run/headline.csv
present '"'"'"'@SUM(1+1)*cmd"' runs/2023/run/routes.csv
present '"'"'"'-2+3+cmd|'"'"' /C calc'"'"'!A0"' runs/2023/run/windows.csv
# The pages show the names as they are (escaped for HTML only).
present '=HYPERLINK(&quot;http://x.invalid/&quot;,&quot;y&quot;)' runs/2023/run/index.html
present '@SUM(1+1)*cmd' runs/2023/run/index.html
