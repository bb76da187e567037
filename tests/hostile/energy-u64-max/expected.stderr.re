erg: @ARCHIVE@/2023/run/power\.plist:@19089: error: sample 24: 'processor\.cpu_energy' .*
