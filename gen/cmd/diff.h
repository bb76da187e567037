/*
 * diff.h - `erg diff A B`: the command.  Reads each run as `erg build`
 * does (build_process), compares them (analyze/compare.h) and writes the
 * document in one format (render/diff_text.h, render/diff_html.h).
 */
#ifndef ERG_DIFF_H
#define ERG_DIFF_H

/*
 * argv[0] is "diff".  Returns the exit status: 0, 1 after an error
 * (diagnostics printed), 2 for a usage error.
 */
int diff_main(int argc, char **argv);

extern const char diff_usage[];

#endif
