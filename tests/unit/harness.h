/*
 * harness.h - a tiny TAP-style test harness for erg's C unit tests.
 *
 * Every check prints one line, "ok - ..." or "not ok - ...", which
 * tests/run.sh counts into the final "N passed, N failed" line.  A test
 * program is one test_NAME.c file with a main() that calls its cases and
 * returns th_done().  Include this header in exactly one file per program.
 */
#ifndef ERG_HARNESS_H
#define ERG_HARNESS_H

#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int th_pass, th_fail;

static void __attribute__((format(printf, 4, 5)))
th_check(int ok, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	printf("%s - %s:%d: ", ok ? "ok" : "not ok", file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (ok)
		th_pass++;
	else
		th_fail++;
}

#define CHECK(cond, ...) th_check(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

/* |got - want| <= tol, printing both so a failure shows the numbers. */
#define CHECK_NEAR(got, want, tol, what) \
	do { \
		double g_ = (got), w_ = (want), t_ = (tol); \
		th_check(isfinite(g_) && fabs(g_ - w_) <= t_, __FILE__, __LINE__, \
			 "%s: got %.10g want %.10g (tol %g)", (what), g_, w_, t_); \
	} while (0)

#define CHECK_STR(got, want, what) \
	do { \
		const char *g_ = (got), *w_ = (want); \
		th_check(g_ && w_ && !strcmp(g_, w_), __FILE__, __LINE__, \
			 "%s: got '%s' want '%s'", (what), g_ ? g_ : "(null)", \
			 w_ ? w_ : "(null)"); \
	} while (0)

/*
 * Switch LC_NUMERIC to an installed locale with a decimal comma, for the
 * checks that output does not depend on it; its name, or NULL (LC_NUMERIC
 * back to "C") when none is installed, as is often the case: then there
 * is nothing to check and no check is made.
 */
static inline const char *
th_comma_locale(void)
{
	static const char *const names[] = {
		"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8",
		"nl_NL.UTF-8", "ru_RU.UTF-8", NULL,
	};
	const char *const *n;

	for (n = names; *n; n++)
		if (setlocale(LC_NUMERIC, *n) && !strcmp(localeconv()->decimal_point, ","))
			break;
	if (!*n) {
		setlocale(LC_NUMERIC, "C");
		return NULL;
	}
	printf("# LC_NUMERIC=%s\n", *n);
	return *n;
}

/* templates/ of the source tree ($ERG_SRC, else the working directory). */
static inline const char *
th_templates_dir(void)
{
	static char dir[4096];
	const char *src = getenv("ERG_SRC");

	snprintf(dir, sizeof(dir), "%s/templates", src && *src ? src : ".");
	return dir;
}

static int
th_done(void)
{
	fflush(stdout);
	return th_fail ? 1 : 0;
}

#endif
