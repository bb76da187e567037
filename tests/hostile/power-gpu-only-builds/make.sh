#!/bin/sh
# powermetrics -s gpu_power,thermal: no processor dict, only the gpu
# dict's gpu_energy (mJ over the sample), here each sample's cpu_energy
# moved there, so every figure is the small session's: route a of
# r1-s1-alpha is 10 W x 5 s = 50 J, alpha's headline the mean of
# (10 x 5 + 20 x 3) x 1000 / 16000 = 6.875 and (11 x 5 + 22 x 3) x 1000 /
# 16000 = 7.5625 mJ/req, 7.21875, all of it domain 'gpu' (check.sh).
. "$HOSTILE/lib.sh"
r=$1/2023/run
small "$r"
perl -0777 -i -pe 's{<key>processor</key>\s*<dict>.*?<key>cpu_energy</key>\s*<integer>(\d+)</integer>.*?</dict>\s*(?=<key>thermal_pressure)}{<key>gpu</key>\n<dict>\n<key>gpu_energy</key>\n<integer>$1</integer>\n</dict>\n}gs' "$r/power.plist"
