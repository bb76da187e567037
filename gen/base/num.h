/*
 * num.h - numbers as text, the part every stage needs: printf's digits
 * in the C locale's shape, and the search for the shortest decimal that
 * reads back as a double.  Messages print numbers with num_text(); the
 * pages and exports format through render/numfmt.h, which builds on
 * these.  Nothing here keeps state.
 */
#ifndef ERG_NUM_H
#define ERG_NUM_H

#include <stddef.h>

/*
 * snprintf("%.*f", "%.*g" or "%.*e" by conv) of v into out[0..cap), with
 * '.' as decimal point whatever LC_NUMERIC says (erg never calls
 * setlocale, but a library might), and no minus sign on a result whose
 * digits are all zero ("0.00", not "-0.00").  prec is clamped to 0..40;
 * a non-finite v prints as printf prints it ("nan", "inf").
 */
void num_format(char *out, size_t cap, char conv, int prec, double v);

/*
 * The fewest decimals d in [0, max_dec] for which "%.*f" of v reads back
 * as v (0.1 -> 1, 2.8510625000000003 -> 16), or -1 when there is none (or
 * v is not finite).  The same answer as trying d = 0, 1, 2 ... in turn,
 * in a handful of tries instead of up to max_dec + 1.
 */
int num_shortest_decimals(double v, int max_dec);
/* The fewest significant digits p in [1, 17] for which "%.*g" reads back
 * as v; 17 when v is not finite. */
int num_shortest_digits(double v);

/*
 * The shortest text that reads back as v: plain decimal notation while
 * |v| < 1e21 and 40 decimals suffice ("0.1", "229275", "1700000021000",
 * "0.0000001"), else the shortest %g form ("1e+21", "1e-50"); "0" for
 * both zeros; "NaN", "inf", "-inf" for the others, which only messages
 * print (pages and exports never show them: render/numfmt.h).  Never
 * more than 21 digits before the point or 17 significant ones after an
 * exponent, so never the hundreds of digits "%.0f" gives 1e300.  out
 * must hold NUM_TEXT_LEN bytes; returns out.
 */
#define NUM_TEXT_LEN 72
const char *num_text(char *out, double v);

#endif
