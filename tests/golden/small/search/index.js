/* erg: the search index of search/index.html (data only) */
var ERG_SEARCH = {"runs":[["2023-11/small","Small hand-made session","test-machine","2023-11-14\u00A022:13","runs/2023-11/small/index.html"]],"machines":[["test-machine","Test1,1 \u00B7 Test chip (test-machine)","machines/test-machine/index.html"]],"targets":[["alpha","targets/alpha/index.html"],["beta","targets/beta/index.html"]]};
