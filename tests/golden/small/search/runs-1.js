/* erg: runs of the search index, part 1 (data only) */
ERG_SEARCH_SHARDS[0] = [["2023-11/small","Small hand-made session",0,"2023-11-14\u00a022:13","runs/2023-11/small/index.html",[0,1]]];
