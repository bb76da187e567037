# erg - static results sites from archived HTTP-benchmark runs.
# Plain GNU make.  Local overrides go in config.mk (not committed).
-include config.mk

CC       ?= cc
BUILD    ?= build
# Libraries: pkg-config name:Debian package(s, joined by '+').  Debian's
# libcmark-gfm.pc links the extensions too, which come in their own package.
LIBPKGS  := libplist-2.0:libplist-dev \
            libcmark-gfm:libcmark-gfm-dev+libcmark-gfm-extensions-dev \
            jansson:libjansson-dev zlib:zlib1g-dev nettle:nettle-dev
PKGS     := $(foreach p,$(LIBPKGS),$(firstword $(subst :, ,$(p))))
DEB_PKGS := build-essential pkg-config \
            $(foreach p,$(LIBPKGS),$(subst +, ,$(lastword $(subst :, ,$(p)))))
# What make test needs beyond the build: python3 (tests/sh), chromium
# with a font for the browser test (not with SKIP_BROWSER=1), and a real
# server and load generator for erg record's test (not with SKIP_RECORD=1).
TEST_DEB_PKGS := python3 $(if $(filter 1,$(SKIP_BROWSER)),,chromium fonts-dejavu-core) \
                 $(if $(filter 1,$(SKIP_RECORD)),,nginx-light wrk hey apache2-utils)
PKG_CONFIG ?= pkg-config

WARN     := -Wall -Wextra -Wpedantic -Wformat=2 -Wmissing-prototypes \
            -Wstrict-prototypes -Wwrite-strings -Wvla -fno-common
OPT      ?= -O2 -g
# The libraries' flags, looked up once, and only when something is compiled:
# make deps, clean and uninstall work without the packages.  A package
# pkg-config cannot find stops the build and says which.
PKG_MISSING = $(shell if command -v $(PKG_CONFIG) > /dev/null 2>&1; then sep=; \
                for p in $(LIBPKGS); do $(PKG_CONFIG) --exists $${p%%:*} || { \
                  printf "%s'%s' (Debian %s)" "$$sep" $${p%%:*} "$$(echo $${p#*:} | sed 's/+/ and /g')"; \
                  sep=", "; }; done; \
              else echo no-pkg-config; fi)
pkg_check = $(if $(filter no-pkg-config,$(PKG_MISSING)),$(error '$(PKG_CONFIG)' is not \
              installed (Debian pkg-config): install the build dependencies with 'make deps'),$(if \
              $(PKG_MISSING),$(error pkg-config does not find $(PKG_MISSING): install the \
              build dependencies with 'make deps')))
PKG_CFLAGS = $(eval PKG_CFLAGS := $(pkg_check)$(shell $(PKG_CONFIG) --cflags $(PKGS)))$(PKG_CFLAGS)
PKG_LIBS   = $(eval PKG_LIBS := $(pkg_check)$(shell $(PKG_CONFIG) --libs $(PKGS)))$(PKG_LIBS)
ALL_CFLAGS = -std=c17 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(WARN) $(OPT) \
             -Igen $(PKG_CFLAGS) $(SANITIZE) $(CFLAGS) $(EXTRA_CFLAGS)
ALL_LDFLAGS = $(SANITIZE) $(LDFLAGS)
LIBS     = $(PKG_LIBS) -lm -lpthread

# gen/<stage>/*.c: base, model, ingest, analyze, render, site, cmd (gen/README.md).
SRC      := $(sort $(wildcard gen/*/*.c))
LIBSRC   := $(filter-out gen/cmd/main.c,$(SRC))
LIBOBJ   := $(LIBSRC:gen/%.c=$(BUILD)/gen/%.o)
UNITSRC  := $(sort $(wildcard tests/unit/test_*.c))
UNITBIN  := $(UNITSRC:tests/unit/%.c=$(BUILD)/tests/%)
TOOLSRC  := $(sort $(wildcard tests/tools/*.c))
TOOLBIN  := $(TOOLSRC:tests/tools/%.c=$(BUILD)/tools/%)

FUZZSRC  := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_TARGETS := $(FUZZSRC:tests/fuzz/fuzz_%.c=%)
REPLAYBIN := $(FUZZ_TARGETS:%=$(BUILD)/fuzz/replay_%)
INJECT   := $(BUILD)/inject/inject.so

ERG      := $(BUILD)/erg
ARCHIVE  ?= archive
OUT      ?= site
SHARED   ?= ../shared

.PHONY: all deps test-deps site test check asan valgrind clean regen-archive check-archive \
        bench install uninstall

all: $(ERG) $(UNITBIN) $(TOOLBIN) $(REPLAYBIN) $(INJECT)

# Install the missing Debian packages of a list (sudo only when not root).
define apt_install
	@missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q ' installed$$' || \
	    missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi
endef

deps:
	$(call apt_install,$(DEB_PKGS))

# What the tests need (TEST_DEB_PKGS), so that no test skips on a fresh machine.
test-deps:
	$(call apt_install,$(TEST_DEB_PKGS))

# Header dependencies come from the compiler (-MMD -MP: a removed header
# does not break the build).
$(BUILD)/gen/%.o: gen/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<
-include $(LIBOBJ:.o=.d) $(BUILD)/gen/cmd/main.d $(UNITBIN:=.d) $(TOOLBIN:=.d)

$(BUILD)/liberg.a: $(LIBOBJ)
	@rm -f $@
	ar rcs $@ $^

$(ERG): $(BUILD)/gen/cmd/main.o $(BUILD)/liberg.a
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/tests/%: tests/unit/%.c tests/unit/harness.h $(BUILD)/liberg.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -MMD -MP $(ALL_LDFLAGS) -o $@ $< $(BUILD)/liberg.a $(LIBS)

$(BUILD)/tools/%: tests/tools/%.c $(BUILD)/liberg.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -MMD -MP $(ALL_LDFLAGS) -o $@ $< $(BUILD)/liberg.a $(LIBS)

site: deps
	$(MAKE) all
	$(ERG) build --archive $(ARCHIVE) --out $(OUT)

# Every test runs: a test that cannot (no chromium) fails, unless its
# SKIP_ variable allows the skip (SKIP_BROWSER=1; tests/run.sh).
# TEST_JOBS tests at a time (default 3 on two cores: the record tests
# mostly wait on servers, samplers and sleeps, 2-4 times their CPU time,
# so a third keeps both cores busy), TEST_TIMES=1 for a table of each
# test's wall and CPU seconds (tests/run.sh).
TEST_JOBS ?= 3
test: all test-deps
	@BUILD=$(BUILD) SHARED=$(SHARED) TEST_JOBS=$(TEST_JOBS) TEST_TIMES=$(TEST_TIMES) \
	  SKIP_BROWSER=$(SKIP_BROWSER) SKIP_RECORD=$(SKIP_RECORD) sh tests/run.sh

check: test

# gen/ held to its stages: a file includes headers of its own stage or
# earlier ones only (tests/lint/stages.sh; tests/sh/lint.sh tests it).
.PHONY: lint
lint:
	@sh tests/lint/stages.sh

# ASan + UBSan over the whole suite, in a separate build tree.  The
# property test runs a quarter of make test's trials there (2,000 of the
# small session, 75 of the reference one): each is a build of a session
# under the sanitizers, and the full count took 580 of the step's 1,013 s
# (CI's budget is 20 minutes); make test runs them all.  ERG_TEST_LIGHT:
# test_plistfast reads 1 of its 8 rebuilt sessions (as under valgrind;
# 98 of the step's CPU seconds).
asan:
	$(MAKE) BUILD=build-asan OPT="-O1 -g" TEST_JOBS=3 PROP_ITER=2000 PROP_REF_ITER=75 \
	  ERG_TEST_LIGHT=1 \
	  SANITIZE="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" test

# Valgrind over the C test programs (two at a time) and the fuzz-corpus
# replays; the shell tests, which run erg itself, are make test's.
# ERG_TEST_LIGHT: test_plistfast compares none of its 8 rebuilt sessions
# (PLISTFAST_REBUILDS=0; make asan: 1) and 300 mutated documents, not
# 2,500; test_views' machine of many targets has 12, not 30; test_num
# searches 10,000 numbers, not 60,000.
valgrind: all
	@BUILD=$(BUILD) SHARED=$(SHARED) TEST_JOBS=2 ERG_TEST_LIGHT=1 PLISTFAST_MUTATIONS=300 \
	  PLISTFAST_REBUILDS=0 \
	  VALGRIND="valgrind -q --leak-check=full --error-exitcode=99" sh tests/run.sh
	@BUILD=$(BUILD) SHARED=$(SHARED) sh tests/threads/helgrind.sh

# The binary, its templates and the man page.  erg finds the templates
# from its own directory (bin/erg -> ../share/erg/templates), so all three
# go under one PREFIX.  Uninstall removes only what install wrote.
PREFIX    ?= /usr/local
DESTDIR   ?=
TEMPLATES := $(sort $(wildcard templates/*))
I_BIN     = $(DESTDIR)$(PREFIX)/bin
I_DATA    = $(DESTDIR)$(PREFIX)/share/erg
I_TMPL    = $(I_DATA)/templates
I_MAN     = $(DESTDIR)$(PREFIX)/share/man/man1
install: $(ERG)
	install -d "$(I_BIN)" "$(I_TMPL)" "$(I_MAN)"
	install -m 755 $(ERG) "$(I_BIN)/erg"
	install -m 644 $(TEMPLATES) "$(I_TMPL)"
	install -m 644 erg.1 "$(I_MAN)/erg.1"

uninstall:
	rm -f "$(I_BIN)/erg" "$(I_MAN)/erg.1" $(TEMPLATES:templates/%="$(I_TMPL)/%")
	@for d in "$(I_TMPL)" "$(I_DATA)"; do \
	  if [ -d "$$d" ]; then rmdir --ignore-fail-on-non-empty "$$d" || exit 1; fi; done

clean:
	rm -rf build build-asan build-fuzz site tests/out

# The example archive's reference session is generated from the published
# dataset; CI checks that regeneration reproduces the committed bytes.
REF_RUN := archive/m5-energy/2026-08-26T0856-saturated
ATTRIB_RUN := archive/m5-energy/2026-08-26T1023-attrib
regen-archive: $(BUILD)/tools/rebuild
	rm -rf $(REF_RUN) $(ATTRIB_RUN)
	$(BUILD)/tools/rebuild $(SHARED)/reference/energy-benchmark-m5.json $(REF_RUN)
	$(BUILD)/tools/rebuild --attribution $(SHARED)/reference/energy-benchmark-m5.json $(ATTRIB_RUN)

check-archive: $(BUILD)/tools/rebuild
	@tmp=$$(mktemp -d) && \
	$(BUILD)/tools/rebuild $(SHARED)/reference/energy-benchmark-m5.json $$tmp/run && \
	$(BUILD)/tools/rebuild --attribution $(SHARED)/reference/energy-benchmark-m5.json $$tmp/attrib && \
	if diff -r $$tmp/run $(REF_RUN) >/dev/null && diff -r $$tmp/attrib $(ATTRIB_RUN) >/dev/null; then \
	  echo "check-archive: regenerated reference sessions are identical"; rm -rf $$tmp; \
	else echo "check-archive: $(REF_RUN) or $(ATTRIB_RUN) differs from a fresh regeneration" >&2; \
	  diff -rq $$tmp/run $(REF_RUN) >&2; diff -rq $$tmp/attrib $(ATTRIB_RUN) >&2; rm -rf $$tmp; exit 1; fi

.PHONY: regen-golden
# Rewrite every golden from the current build: the small session's site
# (tests/golden/small/), the page goldens (tests/golden/pages/) and the
# text of erg diff (tests/golden/diff/).  Review the change with git diff.
regen-golden: $(ERG) $(BUILD)/tools/mksmall $(BUILD)/tools/rebuild
	@ERG_SRC=$(CURDIR) BUILD=$(BUILD) sh tests/golden/regen.sh
	@ERG_SRC=$(CURDIR) BUILD=$(BUILD) sh tests/golden/pages/regen.sh
	@BUILD=$(BUILD) SHARED=$(SHARED) sh tests/golden/diff/regen.sh

# Benchmark, not part of test: the full-fidelity reference session (plain and
# gzipped) against cat/zcat, peak RSS (also with a 4x power file), no-op
# rebuild of 100 runs, full build of 1,000 runs; writes tests/bench/last.txt.
# REPS=N repetitions (default 5), JOBS=N for erg -j.
bench: all
	@BUILD=$(BUILD) SHARED=$(SHARED) REPS="$(REPS)" JOBS="$(JOBS)" sh tests/bench/bench.sh

# Fuzz targets (tests/fuzz/README.md).  Under the project's compiler each
# target links tests/fuzz/replay.c as main and replays its checked-in
# corpus inside make test; `make fuzz` builds them with clang 14 and
# libFuzzer and runs each for FUZZ_SECONDS.
FUZZ_COMMON := tests/fuzz/common.c tests/fuzz/fuzz.h
$(BUILD)/fuzz/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c $(FUZZ_COMMON) $(BUILD)/liberg.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Itests/fuzz $(ALL_LDFLAGS) -o $@ $< tests/fuzz/replay.c tests/fuzz/common.c $(BUILD)/liberg.a $(LIBS)

# LD_PRELOAD shim making writes and renames fail (tests/sh/inject.sh).
$(INJECT): tests/inject/inject.c
	@mkdir -p $(@D)
	$(CC) -std=c17 -D_GNU_SOURCE -Wall -Wextra -O2 -g -fPIC -shared $(EXTRA_CFLAGS) -o $@ $< -ldl

FUZZ_SECONDS ?= 60
FUZZ_JOBS    ?= 1
FUZZ_BUILD   := build-fuzz
FUZZ_BASE     = -std=c17 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -O1 -g -Igen \
                -fno-sanitize-recover=all $(PKG_CFLAGS)
# gen/ is compiled once with fuzzer-no-link (coverage without libFuzzer's
# main) and linked into every target; only the target file itself is
# compiled per target.
FUZZ_LIBOBJ  := $(LIBSRC:gen/%.c=$(FUZZ_BUILD)/gen/%.o)
FUZZ_BINS    := $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz/fuzz_%)
$(FUZZ_BUILD)/gen/%.o: gen/%.c $(wildcard gen/*/*.h)
	@mkdir -p $(@D)
	clang-14 $(FUZZ_BASE) -fsanitize=fuzzer-no-link,address,undefined -c -o $@ $<
$(FUZZ_BUILD)/liberg-fuzz.a: $(FUZZ_LIBOBJ)
	@rm -f $@
	ar rcs $@ $^
$(FUZZ_BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_COMMON) $(FUZZ_BUILD)/liberg-fuzz.a
	@mkdir -p $(@D)
	clang-14 $(FUZZ_BASE) -fsanitize=fuzzer,address,undefined -Igen -Itests/fuzz -o $@ \
	  $< tests/fuzz/common.c $(FUZZ_BUILD)/liberg-fuzz.a $(PKG_LIBS) -lm -lpthread
.PHONY: fuzz fuzz-build
fuzz-build: $(FUZZ_BINS)
fuzz: fuzz-build
	FUZZ_JOBS=$(FUZZ_JOBS) sh tests/fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGETS)
