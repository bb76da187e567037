erg: @ARCHIVE@/2023/run/power\.plist:@\d+: error: sample 24: 'processor\.cpu_energy' .*
