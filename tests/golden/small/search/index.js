/* erg: the search index of search/index.html (data only) */
var ERG_SEARCH = {"runs":1,"machines":[["test-machine","Test1,1 \u00b7 Test chip (test-machine)","machines/test-machine/index.html",1]],"targets":[["alpha","targets/alpha/index.html"],["beta","targets/beta/index.html"]],"years":[["2023",1]],"shards":[["runs-1.js","2023",1]]};
var ERG_SEARCH_SHARDS = [];
