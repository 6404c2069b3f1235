# SPDX-License-Identifier: MIT
# aieth - open test harness for AI Engine graphs on Versal boards.
#
#   make            library (static + shared + pkg-config), programs, examples
#   make test       everything below: unit + end-to-end tests (gcc), the
#                   layering check, the ABI check, the unit tests built
#                   with clang, the same under AddressSanitizer+UBSan,
#                   a short fuzzing run, and cross-check
#   make check      unit + end-to-end + Python (make pytest) tests of this
#                   build only
#   make layers     the layering of docs/architecture.md (includes, calls)
#   make abi        the exported symbols and public structs' layouts against
#                   harness/abi/ (make abi-update rewrites it: docs/api.md)
#   make format     clang-format the C code in place (.clang-format)
#   make format-check  list the C files clang-format would change (exit 1)
#   make fuzz       build the libFuzzer targets (clang) and run each briefly
#   make bench      benchmarks: figures printed, nothing asserted
#   make package-inputs  synthetic th_package inputs in $(O)/package-inputs/
#                   (PACKAGE_BOARD=vck190; docs/packaging.md)
#   make install    PREFIX=/usr/local DESTDIR= SYSCONFDIR=/etc (th_server's
#                   systemd unit, init script and config: docs/server.md;
#                   the Python package in PYTHON_SITEDIR: docs/python.md)
#   make cross-check  CROSS=aarch64 build, its unit + end-to-end tests under
#                   qemu-user, reports compared with the native build's
#   make clean
#
# Variables: O (output dir, default build), SAN=1 (sanitizer build; SAN=thread:
# ThreadSanitizer),
# CC, EXTRA_CFLAGS, FUZZ_SECONDS (per target, default 10), CROSS=aarch64
# (build for the boards' Arm cores, default O=build-aarch64), TEST_JOBS
# (make test's and cross-check's builds, compilers at a time, default nproc).

# The boards' Arm cores (PetaLinux, aarch64): Debian's cross compiler and the
# arm64 multiarch -dev packages (scripts/install-deps.sh installs them). The
# programs and tests run here under qemu-user (RUN_WRAPPER); the fuzz targets
# (libFuzzer, a host tool) and test_xclbin_xrt (links Debian's XRT) are not
# cross-built.
CROSS ?=
ifneq ($(CROSS),)
ifneq ($(CROSS),aarch64)
$(error CROSS=$(CROSS): only CROSS=aarch64 is supported)
endif
CROSS_TRIPLET := aarch64-linux-gnu
O ?= build-$(CROSS)
ifeq ($(origin CC),default)
CC := $(CROSS_TRIPLET)-gcc
endif
ifeq ($(origin AR),default)
AR := $(CROSS_TRIPLET)-ar
endif
PKG_CONFIG := PKG_CONFIG_LIBDIR=/usr/lib/$(CROSS_TRIPLET)/pkgconfig:/usr/share/pkgconfig pkg-config
# qemu's library prefix is / (the arm64 multiarch libc6 the -dev packages
# pulled in), not /usr/aarch64-linux-gnu: that ld.so with the multiarch
# libc.so.6 (another glibc build) hangs the child of every fork().
RUN_WRAPPER ?= /usr/bin/qemu-aarch64 -L /
ifneq ($(filter fuzz,$(MAKECMDGOALS)),)
$(error make fuzz: the libFuzzer targets are a host tool; run it without CROSS)
endif
ifeq ($(filter clean deps,$(MAKECMDGOALS)),)
ifeq ($(findstring aarch64,$(shell $(CC) -dumpmachine 2>/dev/null)),)
$(error CROSS=aarch64: CC=$(CC) does not build for aarch64 (bash scripts/install-deps.sh installs aarch64-linux-gnu-gcc))
endif
endif
endif

PREFIX ?= /usr/local
DESTDIR ?=
O ?= build
CC ?= cc
FUZZ_SECONDS ?= 10
PKG_CONFIG ?= pkg-config
V ?= 0
ifeq ($(V),0)
Q := @
say = @printf '  %-6s %s\n' $(1) $(2);
endif

# One version (harness/include/aieth/version.h) for the library file, its
# soname, aieth.pc and, through aieth_version(), the Python package and the
# reports (tests/python/test_version.py). The soname changes when the ABI
# breaks: from 1.0 on with the major version (libaieth.so.1); before 1.0 a
# minor release may break it, so the soname carries the minor too
# (libaieth.so.0.3): a program linked with 0.2 never loads 0.3
# (docs/api.md, "Stability").
VERSION := $(shell sed -n 's/^\#define AIETH_VERSION_STRING "\(.*\)"/\1/p' harness/include/aieth/version.h)
VERSION_MAJOR := $(word 1,$(subst ., ,$(VERSION)))
VERSION_MINOR := $(word 2,$(subst ., ,$(VERSION)))
SONAME := libaieth.so.$(if $(filter 0,$(VERSION_MAJOR)),0.$(VERSION_MINOR),$(VERSION_MAJOR))

DEPS_CFLAGS := $(shell $(PKG_CONFIG) --cflags json-c 2>/dev/null)
DEPS_LIBS := $(shell $(PKG_CONFIG) --libs json-c 2>/dev/null || echo -ljson-c) -ldl -lm -lpthread
CUNIT_LIBS := $(shell $(PKG_CONFIG) --libs cunit 2>/dev/null || echo -lcunit)
# libarchive: th_package reads the XSA (zip) and libadf.a (ar) with it, th_assets
# unpacks with it. ENGINE_DEPS_LIBS: what only the programs' engines (host/*/)
# link; libaieth never does (docs/architecture.md, "The cut").
DEPS_CFLAGS += $(shell $(PKG_CONFIG) --cflags libarchive 2>/dev/null)
ENGINE_DEPS_LIBS := $(shell $(PKG_CONFIG) --libs libarchive 2>/dev/null || echo -larchive)
# SQLite: run_test's run history (harness/src/history/, docs/farm.md)
DEPS_CFLAGS += $(shell $(PKG_CONFIG) --cflags sqlite3 2>/dev/null)
DEPS_LIBS += $(shell $(PKG_CONFIG) --libs sqlite3 2>/dev/null || echo -lsqlite3)

# libmicrohttpd: th_server's HTTP API (host/th_server/http/http_server.c), in
# th_server's engine only (ENGINE_DEPS_LIBS). Where its -dev package is
# missing (for CROSS=aarch64: the arm64 one, scripts/install-deps.sh installs
# it), the server is left out and aieth_server_open fails with
# AIETH_EUNSUPPORTED.
HAVE_MHD := $(shell $(PKG_CONFIG) --exists libmicrohttpd 2>/dev/null && echo 1)
ifeq ($(HAVE_MHD),1)
DEPS_CFLAGS += -DAIETH_HAVE_MHD $(shell $(PKG_CONFIG) --cflags libmicrohttpd)
ENGINE_DEPS_LIBS += $(shell $(PKG_CONFIG) --libs libmicrohttpd) -lpthread
# GnuTLS (libmicrohttpd-dev depends on it): th_server checks its TLS
# certificate and key pair itself (host/th_server/srv_tls.c)
DEPS_CFLAGS += $(shell $(PKG_CONFIG) --cflags gnutls)
ENGINE_DEPS_LIBS += $(shell $(PKG_CONFIG) --libs gnutls)
endif
# libcurl: the remote backend (harness/src/backends/remote/); left out the
# same way where missing (the backend then answers AIETH_EUNSUPPORTED).
HAVE_CURL := $(shell $(PKG_CONFIG) --exists libcurl 2>/dev/null && echo 1)
ifeq ($(HAVE_CURL),1)
DEPS_CFLAGS += -DAIETH_HAVE_CURL $(shell $(PKG_CONFIG) --cflags libcurl)
DEPS_LIBS += $(shell $(PKG_CONFIG) --libs libcurl)
PC_REQUIRES := libcurl
endif
# Which of the two a build tree has: a stamp that changes with them rebuilds
# the objects that test AIETH_HAVE_MHD/AIETH_HAVE_CURL (after installing the
# -dev packages, an existing tree gains the server without make clean).
FEATURE_STAMP = $(O)/features.stamp

# Quoted includes resolve against these (scripts/check-layers.py reads the
# same order): the public API, the subsystem folders, the tree root (pl_dma/).
INCLUDES := -Iharness/include -Iharness/src -Iharness/base -Ihost -I.

WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wvla
CFLAGS ?= -O2 -g
ifeq ($(SAN),1)
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
endif
# SAN=thread: ThreadSanitizer (make stress-check: the remote backend's two
# threads, aieth_remote_opts.concurrent_io, and th_server's)
ifeq ($(SAN),thread)
SANFLAGS := -fsanitize=thread -fno-omit-frame-pointer
endif
ALL_CFLAGS := -std=c11 $(WARN) $(CFLAGS) $(SANFLAGS) $(EXTRA_CFLAGS) -fPIC \
	-D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
	$(INCLUDES) $(DEPS_CFLAGS) \
	-DAIETH_DATADIR=\"$(PREFIX)/share/aieth\" -MMD -MP
ALL_LDFLAGS := $(SANFLAGS) $(LDFLAGS)

# One folder per subsystem (docs/architecture.md); their sources, found per
# folder. Includes name the folder: "util/error.h", "pld/protocol.h".
LIB_DIRS := $(sort $(dir $(wildcard harness/base/*/ harness/base/*/*/ harness/src/*/ harness/src/*/*/))) pl_dma/ pl_dma/models/
LIB_SRC := $(sort $(foreach d,$(LIB_DIRS),$(wildcard $(d)*.c)))
LIB_OBJ := $(LIB_SRC:%.c=$(O)/obj/%.o)
# Each program's engine (docs/architecture.md, "The cut"): host/<engine>/,
# an internal archive that only the programs of ENGINES_<program> link (and
# the tests, which test internals); never part of libaieth.
ENGINES := $(sort $(notdir $(patsubst %/,%,$(wildcard host/*/))))
ENGINE_SRC_OF = $(sort $(wildcard host/$(1)/*.c host/$(1)/*/*.c))
ENGINE_SRC := $(foreach e,$(ENGINES),$(call ENGINE_SRC_OF,$(e)))
ENGINE_OBJ := $(ENGINE_SRC:%.c=$(O)/obj/%.o)
ENGINE_ARCHIVES := $(ENGINES:%=$(O)/lib/engines/lib%.a)
ENGINES_run_test := upload
ENGINES_th_assets := th_assets
ENGINES_th_package := th_package th_assets
ENGINES_th_server := th_server
ENGINE_A = $(foreach e,$(ENGINES_$(1)),$(O)/lib/engines/lib$(e).a)
HOST_COMMON := $(sort $(wildcard host/cli_*.c))
HOST_PROGS := $(filter-out $(HOST_COMMON),$(sort $(wildcard host/*.c)))
BINS := $(HOST_PROGS:host/%.c=$(O)/bin/%)
EXAMPLE_SRC := $(sort $(wildcard examples/c_api/*.c))
EXAMPLES := $(EXAMPLE_SRC:examples/c_api/%.c=$(O)/bin/%)
PLUGIN_SRC := $(sort $(wildcard examples/models/*.c tests/plugins/*.c))
PLUGINS := $(patsubst %.c,$(O)/plugins/%.so,$(notdir $(PLUGIN_SRC)))
UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
UNIT_COMMON := $(filter-out $(UNIT_SRC),$(sort $(wildcard tests/unit/*.c)))
UNITS := $(UNIT_SRC:tests/unit/%.c=$(O)/tests/%)
ifneq ($(CROSS),)
UNITS := $(filter-out $(O)/tests/test_xclbin_xrt,$(UNITS))
endif
E2E := $(sort $(wildcard tests/e2e/*/*.sh))
ifneq ($(CROSS),)
# not under qemu-user: install.sh builds and runs a client natively,
# xrt_noop.sh needs Debian's x86 XRT, the benchmarks measure the host
E2E := $(filter-out %/install.sh %/xrt_noop.sh %/bench_smoke.sh %/th_package_bench.sh,$(E2E))
endif
FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))

STATIC := $(O)/lib/libaieth.a
# every public struct's layout (make abi, tests/python/test_abi_layouts.py)
ABI_LAYOUTS := $(O)/tests/abi_layouts
PUBLIC_HEADERS := $(sort $(wildcard harness/include/*.h harness/include/aieth/*.h))
SHARED := $(O)/lib/libaieth.so.$(VERSION)
PCFILE := $(O)/lib/pkgconfig/aieth.pc

.PHONY: package-inputs
.PHONY: all lib test check check-build unit e2e pytest layers abi abi-update format format-check fuzz bench install uninstall clean deps cross-check stress-check deb deb-check deb-changelog-check FORCE
.DEFAULT_GOAL := all

XRT_DOUBLE := $(O)/tests/libxrt_double.so $(O)/tests/xrt_mkxclbin

all: lib $(BINS) $(EXAMPLES) $(PLUGINS) $(UNITS) $(O)/tests/bench $(O)/tests/tcp_loopback \
	$(O)/tests/gen_package_inputs $(O)/tests/bench_package $(O)/tests/bench_history \
	$(XRT_DOUBLE)

lib: $(STATIC) $(SHARED) $(PCFILE)

$(O)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(call say,CC,$<)$(CC) $(ALL_CFLAGS) -c $< -o $@

$(STATIC): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(call say,AR,$@)rm -f $@ && $(AR) rcs $@ $^

# --no-undefined: a symbol left out (a server source built without
# libmicrohttpd) fails here, not when Python or a program loads the library
# (not under SAN: clang leaves the sanitizer runtime to the program).
$(SHARED): $(LIB_OBJ) harness/libaieth.map
	@mkdir -p $(dir $@)
	$(call say,LD,$@)$(CC) -shared -Wl,-soname,$(SONAME) -Wl,--version-script=harness/libaieth.map $(if $(SAN),,-Wl,--no-undefined) $(ALL_LDFLAGS) -o $@ $(LIB_OBJ) $(DEPS_LIBS)
	$(Q)ln -sf $(notdir $@) $(O)/lib/$(SONAME)
	$(Q)ln -sf $(SONAME) $(O)/lib/libaieth.so

# PREFIX is compiled into the library (data directory) and the .pc file:
# a stamp that changes with it rebuilds both.
PREFIX_STAMP := $(O)/prefix.stamp
$(PREFIX_STAMP): FORCE
	@mkdir -p $(dir $@)
	@echo '$(PREFIX)' | cmp -s - $@ || echo '$(PREFIX)' > $@
FORCE:
$(O)/obj/harness/base/util/path.o: $(PREFIX_STAMP)
$(FEATURE_STAMP): FORCE
	@mkdir -p $(dir $@)
	@echo 'mhd=$(HAVE_MHD) curl=$(HAVE_CURL)' | cmp -s - $@ || echo 'mhd=$(HAVE_MHD) curl=$(HAVE_CURL)' > $@
$(filter $(O)/obj/host/th_server/% $(O)/obj/harness/src/backends/remote/% $(O)/obj/host/th_assets/% $(O)/obj/host/upload/%,$(LIB_OBJ) $(ENGINE_OBJ)): $(FEATURE_STAMP)
$(filter $(O)/tests/test_server $(O)/tests/test_remote_reply $(O)/tests/test_remote_pieces,$(UNITS)): $(FEATURE_STAMP)

$(PCFILE): Makefile harness/include/aieth/version.h $(PREFIX_STAMP) $(FEATURE_STAMP)
	@mkdir -p $(dir $@)
	$(call say,GEN,$@)printf 'prefix=%s\nlibdir=$${prefix}/lib\nincludedir=$${prefix}/include\n\nName: aieth\nDescription: Open test harness for AI Engine graphs on Versal boards\nVersion: %s\nRequires.private: json-c sqlite3$(if $(PC_REQUIRES), $(PC_REQUIRES))\nLibs: -L$${libdir} -laieth\nLibs.private: -ldl -lm -lpthread\nCflags: -I$${includedir}\n' \
		'$(PREFIX)' '$(VERSION)' > $@

define ENGINE_RULE
$(O)/lib/engines/lib$(1).a: $(patsubst %.c,$(O)/obj/%.o,$(call ENGINE_SRC_OF,$(1)))
	@mkdir -p $$(dir $$@)
	$$(call say,AR,$$@)rm -f $$@ && $$(AR) rcs $$@ $$^
endef
$(foreach e,$(ENGINES),$(eval $(call ENGINE_RULE,$(e))))

# Programs link their engine and the static library so they run from the
# tree as they are.
define PROG_RULE
$(O)/bin/$(1): host/$(1).c $(HOST_COMMON) $(call ENGINE_A,$(1)) $(STATIC)
	@mkdir -p $$(dir $$@)
	$$(call say,LINK,$$@)$$(CC) $$(ALL_CFLAGS) -o $$@ $$< $(HOST_COMMON) $(call ENGINE_A,$(1)) $(STATIC) $$(ALL_LDFLAGS) $$(DEPS_LIBS) $$(ENGINE_DEPS_LIBS)
endef
$(foreach p,$(HOST_PROGS:host/%.c=%),$(eval $(call PROG_RULE,$(p))))

$(O)/bin/%: examples/c_api/%.c $(STATIC)
	@mkdir -p $(dir $@)
	$(call say,LINK,$@)$(CC) $(ALL_CFLAGS) -o $@ $< $(STATIC) $(ALL_LDFLAGS) $(DEPS_LIBS)

$(O)/plugins/%.so: examples/models/%.c harness/include/aieth_model.h
	@mkdir -p $(dir $@)
	$(call say,SO,$@)$(CC) $(ALL_CFLAGS) -shared -o $@ $< $(ALL_LDFLAGS)

$(O)/plugins/%.so: tests/plugins/%.c harness/include/aieth_model.h
	@mkdir -p $(dir $@)
	$(call say,SO,$@)$(CC) $(ALL_CFLAGS) -shared -o $@ $< $(ALL_LDFLAGS)

$(O)/tests/test_%: tests/unit/test_%.c $(UNIT_COMMON) $(ENGINE_ARCHIVES) $(STATIC)
	@mkdir -p $(dir $@)
	$(call say,LINK,$@)$(CC) $(ALL_CFLAGS) -Itests/unit -o $@ $< $(UNIT_COMMON) $(ENGINE_ARCHIVES) $(STATIC) $(ALL_LDFLAGS) $(DEPS_LIBS) $(ENGINE_DEPS_LIBS) $(CUNIT_LIBS)

# th_package: the fixture generator (tests/data/package) is linked into its
# tests and programs; only the XRT cross-check links Debian's XRT (libaieth
# never does). Debian 12's xrt.pc is wrong (prefix /usr//usr, links the hardware shim).
PKG_FIX := tests/data/package/pkg_fixtures.c
PKG_FIX_TESTS := $(filter $(O)/tests/test_xclbin_package $(O)/tests/test_xclbin_xrt,$(UNITS))
XRT_CFLAGS := -isystem /usr/include/xrt
XRT_LIBS := -lxrt_coreutil
$(PKG_FIX_TESTS): $(O)/tests/test_%: tests/unit/test_%.c $(PKG_FIX) $(UNIT_COMMON) $(ENGINE_ARCHIVES) $(STATIC)
	@mkdir -p $(dir $@)
	$(call say,LINK,$@)$(CC) $(ALL_CFLAGS) $(if $(findstring xrt,$*),$(XRT_CFLAGS)) -Itests/unit \
		-Itests/data/package -o $@ $< $(PKG_FIX) $(UNIT_COMMON) $(ENGINE_ARCHIVES) $(STATIC) $(ALL_LDFLAGS) \
		$(DEPS_LIBS) $(ENGINE_DEPS_LIBS) $(CUNIT_LIBS) $(if $(findstring xrt,$*),$(XRT_LIBS))

$(O)/tests/gen_package_inputs: tests/data/package/gen_package_inputs.c $(PKG_FIX) $(STATIC)
	@mkdir -p $(dir $@)
	$(call say,LINK,$@)$(CC) $(ALL_CFLAGS) -Itests/data/package -o $@ $< $(PKG_FIX) $(STATIC) \
		$(ALL_LDFLAGS) $(DEPS_LIBS) $(ENGINE_DEPS_LIBS)

# Synthetic th_package inputs (a harness XSA, libadf.a, ...; tests/data/package/
# README.md) to try th_package without AMD's tools: docs/packaging.md.
PACKAGE_BOARD ?= vck190
package-inputs: $(O)/tests/gen_package_inputs
	$(RUN_WRAPPER) $(O)/tests/gen_package_inputs --board $(PACKAGE_BOARD) \
		--out $(O)/package-inputs/$(PACKAGE_BOARD)
	@echo "package-inputs: $(O)/package-inputs/$(PACKAGE_BOARD)/ (harness.xsa, libadf.a, Work/, ...)"

$(O)/tests/bench_package: tests/bench/bench_package.c $(PKG_FIX) $(ENGINE_ARCHIVES) $(STATIC)
	@mkdir -p $(dir $@)
	$(call say,LINK,$@)$(CC) $(ALL_CFLAGS) -O2 -Itests/data/package -o $@ $< $(PKG_FIX) \
		$(ENGINE_ARCHIVES) $(STATIC) $(ALL_LDFLAGS) $(DEPS_LIBS) $(ENGINE_DEPS_LIBS)

# The XRT C API test double (tests/xrt_double/): the emulated board behind
# XRT's function names; only those are exported.
$(O)/tests/libxrt_double.so: $(wildcard tests/xrt_double/*.c tests/xrt_double/*.h) tests/xrt_double/exports.map $(ENGINE_ARCHIVES) $(STATIC)
	@mkdir -p $(dir $@)
	$(call say,SO,$@)$(CC) $(ALL_CFLAGS) -shared -Wl,-Bsymbolic \
		-Wl,--version-script=tests/xrt_double/exports.map -o $@ \
		$(wildcard tests/xrt_double/*.c) $(ENGINE_ARCHIVES) $(STATIC) $(ALL_LDFLAGS) $(DEPS_LIBS) $(ENGINE_DEPS_LIBS)

# hash128 (util/hash.c) runs next to every packaged byte: -O3 is what lets
# gcc and clang unroll and vectorise its lanes (about 2 x at -O2).
$(O)/obj/harness/base/util/hash.o: ALL_CFLAGS += -O3

# XRT's own headers (when installed) check the xrt backend's prototypes.
$(O)/tests/test_xrt: ALL_CFLAGS += -isystem /usr/include/xrt

$(O)/tests/xrt_mkxclbin: tests/xrt_double/tools/xrt_mkxclbin.c $(ENGINE_ARCHIVES) $(STATIC)
	@mkdir -p $(dir $@)
	$(call say,LINK,$@)$(CC) $(ALL_CFLAGS) -o $@ $< $(ENGINE_ARCHIVES) $(STATIC) $(ALL_LDFLAGS) $(DEPS_LIBS) $(ENGINE_DEPS_LIBS)

$(O)/tests/bench: tests/bench/bench.c $(ENGINE_ARCHIVES) $(STATIC)
	@mkdir -p $(dir $@)
	$(call say,LINK,$@)$(CC) $(ALL_CFLAGS) -O2 -o $@ $< $(ENGINE_ARCHIVES) $(STATIC) $(ALL_LDFLAGS) $(DEPS_LIBS) $(ENGINE_DEPS_LIBS)

# The run history over 10,000 runs (make bench)
$(O)/tests/bench_history: tests/bench/bench_history.c $(ENGINE_ARCHIVES) $(STATIC)
	@mkdir -p $(dir $@)
	$(call say,LINK,$@)$(CC) $(ALL_CFLAGS) -O2 -o $@ $< $(ENGINE_ARCHIVES) $(STATIC) $(ALL_LDFLAGS) $(DEPS_LIBS) $(ENGINE_DEPS_LIBS)

# A client of AMD's protocol for th_server --amd-listen (tests/e2e/amd/amd_listen.sh).
$(O)/tests/amd_client: tests/tools/amd_client.c $(ENGINE_ARCHIVES) $(STATIC)
	@mkdir -p $(dir $@)
	$(call say,LINK,$@)$(CC) $(ALL_CFLAGS) -o $@ $< $(ENGINE_ARCHIVES) $(STATIC) $(ALL_LDFLAGS) $(DEPS_LIBS) $(ENGINE_DEPS_LIBS)

# report.html and the charts of a report.json read back (campaign_html.sh).
$(O)/tests/report_render: tests/tools/report_render.c $(ENGINE_ARCHIVES) $(STATIC)
	@mkdir -p $(dir $@)
	$(call say,LINK,$@)$(CC) $(ALL_CFLAGS) -o $@ $< $(ENGINE_ARCHIVES) $(STATIC) $(ALL_LDFLAGS) $(DEPS_LIBS) $(ENGINE_DEPS_LIBS)

# raw TCP on 127.0.0.1, the yardstick of the remote benchmark (bench_remote.sh)
$(O)/tests/tcp_loopback: tests/bench/tcp_loopback.c
	@mkdir -p $(dir $@)
	$(call say,LINK,$@)$(CC) $(ALL_CFLAGS) -O2 -o $@ $< $(ALL_LDFLAGS) -lpthread

# Environment of every test: data from this tree, plugins from this build.
TEST_ENV := AIETH_DATA_DIR=$(CURDIR) AIETH_BUILD=$(abspath $(O)) AIETH_SRC=$(CURDIR) \
	AIETH_SAN=$(SAN) AIETH_SANFLAGS="$(SANFLAGS)" AIETH_CC=$(CC) \
	AIETH_RUN_WRAPPER="$(RUN_WRAPPER)"

# pytest after the end-to-end tests, not beside them under -j.
check: all unit e2e
	@$(MAKE) --no-print-directory pytest
# what check runs on (its build alone: make test builds it with -j)
check-build: all $(O)/tests/amd_client $(O)/tests/report_render $(ABI_LAYOUTS)

unit: $(UNITS) $(PLUGINS)
	@set -e; for t in $(UNITS); do echo "== $$t"; $(TEST_ENV) $(RUN_WRAPPER) $$t; done

# Three scripts at a time (E2E_JOBS), two under qemu (CROSS):
# scripts/run-e2e.sh. Most of a script's time is waiting: on the 2-core CI
# machine three took 194 s where two took 260 s (make e2e, native), every
# script passing either way; under qemu-user a script's CPU is many times a
# native one's, so two.
E2E_JOBS ?= $(if $(CROSS),2,3)
e2e: all $(O)/tests/amd_client $(O)/tests/report_render
	@$(TEST_ENV) E2E_JOBS=$(E2E_JOBS) bash scripts/run-e2e.sh $(E2E)

# The Python package (python/aieth) over this build's shared library, with
# Debian's python3-pytest and python3-numpy (PYTHON: the interpreter they
# belong to). In the sanitizer build the interpreter needs the sanitizer
# runtimes preloaded; leak detection is off there (the interpreter keeps
# memory at exit by design; the C tests check the library's leaks). Under
# CROSS the aarch64 library cannot load into the host's interpreter.
PYTHON ?= $(firstword $(wildcard /usr/bin/python3) python3)
ifeq ($(SAN),1)
PYTEST_ENV := LD_PRELOAD="$(shell $(CC) -print-file-name=libasan.so) $(shell $(CC) -print-file-name=libubsan.so)" \
	ASAN_OPTIONS=detect_leaks=0
endif
pytest: all $(O)/tests/libxrt_double.so $(O)/tests/xrt_mkxclbin $(ABI_LAYOUTS)
ifneq ($(CROSS),)
	@echo "pytest: skipped under CROSS=$(CROSS) (an aarch64 libaieth does not load into the host's python)"
else
	@echo "== tests/python ($(PYTHON) -m pytest$(if $(PYTEST_ENV), with the sanitizer runtimes preloaded))"
	@$(TEST_ENV) AIETH_LIB=$(abspath $(SHARED)) PYTHONDONTWRITEBYTECODE=1 $(PYTEST_ENV) \
		$(PYTHON) -m pytest -q -p no:cacheprovider tests/python
endif

# The full suite: gcc build, clang build, sanitizer build, short fuzzing,
# the aarch64 cross build under qemu-user.
# Each stage prints its time when it ends, and all of them at the end
# (scripts/stage.sh): CI has 90 minutes on 2 cores, make test stays well
# under 20.
# Each stage builds first, TEST_JOBS compilers at a time (make test is run
# without -j), then runs its tests as make check does, never beside the build.
STAGES = $(O)/stage-times.txt
STAGE = @bash scripts/stage.sh $(STAGES)
TEST_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
TEST_BUILD = $(MAKE) --no-print-directory -j$(TEST_JOBS)
test:
	@mkdir -p $(O) && bash scripts/stage.sh --begin $(STAGES)
	$(STAGE) "check (gcc)" sh -c '$(TEST_BUILD) check-build && $(MAKE) check'
	$(STAGE) "layers, SPDX, format" $(MAKE) layers format-check deb-changelog-check
	$(STAGE) "ABI (symbols, layouts, abidiff)" $(MAKE) abi
	$(STAGE) "unit tests (clang)" sh -c '$(TEST_BUILD) O=build-clang CC=clang all && $(MAKE) O=build-clang CC=clang unit'
	$(STAGE) "check (ASan+UBSan)" sh -c '$(TEST_BUILD) O=build-asan SAN=1 check-build && $(MAKE) O=build-asan SAN=1 check'
	$(STAGE) "fuzz" sh -c '$(TEST_BUILD) $(FUZZERS) && $(MAKE) fuzz'
	$(STAGE) "cross-check (aarch64, qemu)" $(MAKE) cross-check
	@bash scripts/stage.sh --summary $(STAGES)
	@echo "make test: all suites passed"

# The server and remote suites three times in a row with two CPU-bound
# loops beside them (nothing in them depends on scheduling); then
# the remote runs that use two client threads (aieth_remote_opts.concurrent_io)
# and th_server's under ThreadSanitizer (build-tsan; a report fails the
# program, so the suite). Not part of make test (about 20 minutes).
TSAN_E2E = tests/e2e/server/remote.sh tests/e2e/server/remote_cpu.sh tests/e2e/server/server_stream.sh
stress-check: all $(O)/tests/amd_client
	@$(TEST_ENV) bash scripts/stress-check.sh
	$(TEST_BUILD) O=build-tsan SAN=thread all build-tsan/tests/amd_client build-tsan/tests/report_render
	TSAN_OPTIONS=halt_on_error=1 $(MAKE) --no-print-directory O=build-tsan SAN=thread e2e E2E="$(TSAN_E2E)"

# The layering of docs/architecture.md: every #include of the library and the
# programs, and the calls between this build's objects; the cut (what the
# library links, every global public or aieth__: docs/architecture.md, The
# cut); then the checkers' own test (breaks made on purpose in a copy of the
# tree, scripts/check-cut.sh's too).
layers: lib $(ENGINE_ARCHIVES)
	python3 scripts/check-layers.py --objects $(O)/obj
	bash scripts/check-cut.sh $(SHARED) $(STATIC) $(ENGINE_ARCHIVES)
	python3 scripts/check-spdx.py
	python3 scripts/check-comments.py
	@$(TEST_ENV) bash tests/layers/check_layers.sh

# The binary interface (docs/api.md, "Stability"): the exported symbols,
# the layout of every public struct and libabigail's view of the exported
# functions, against harness/abi/ (scripts/abi.py). abi-update rewrites
# those files and debian/libaieth0.symbols: a deliberate change, said in
# CHANGELOG.md. Read from the
# default build only (gcc, CFLAGS -O2 -g): abidw records what the compiler's
# debug information holds; clang's differs in details that are not the ABI
# (abidiff reports none of them, but the file is not the same; gcc -O0
# writes the same file as -O2).
$(O)/gen/abi_layouts.inc: scripts/abi.py $(PUBLIC_HEADERS)
	$(call say,GEN,$@)python3 scripts/abi.py layouts-inc $@
$(ABI_LAYOUTS): tests/tools/abi_layouts.c $(O)/gen/abi_layouts.inc
	@mkdir -p $(dir $@)
	$(call say,LINK,$@)$(CC) $(ALL_CFLAGS) -I$(O)/gen -o $@ $< $(ALL_LDFLAGS)
ABI_DEFAULT_BUILD = $(and $(filter build,$(O)),$(filter default,$(origin CC)),$(filter file,$(origin CFLAGS)),$(if $(SAN)$(CROSS)$(EXTRA_CFLAGS),,1))
ifneq ($(filter abi abi-update,$(MAKECMDGOALS)),)
ifeq ($(ABI_DEFAULT_BUILD),)
$(error make abi, make abi-update: the ABI is read from the default build: run them without O, CC, CFLAGS, SAN, CROSS or EXTRA_CFLAGS)
endif
endif
abi abi-update: lib $(ABI_LAYOUTS)
	$(Q)python3 scripts/abi.py $(if $(filter abi,$@),check,update) $(O)
	$(if $(filter abi-update,$@),$(Q)python3 tests/pkg/check_debian.py --update)

# The C code as .clang-format says (scripts/check-format.sh: every .c and .h
# of harness/, host/, pl_dma/, tests/, examples/ and python/); format-check is
# a stage of make test.
format:
	bash scripts/check-format.sh --fix

format-check:
	bash scripts/check-format.sh

# The cross build for the board, tested under qemu-user: its unit and
# end-to-end tests (E2E above, th_server and the remote backend included:
# the build must have them), every example's report compared with the
# native build's (tests/e2e/tree/cross_compare.sh), and the aarch64 th_server
# serving the native run_test (tests/e2e/server/server_board.sh).
cross-check:
	$(TEST_BUILD) all
	$(TEST_BUILD) CROSS=aarch64 check-build
	@file -L build-aarch64/bin/run_test build-aarch64/lib/libaieth.so
	@file -L build-aarch64/bin/run_test | grep -q 'ARM aarch64' || { echo "build-aarch64/bin/run_test is not aarch64" >&2; exit 1; }
	@grep -qx 'mhd=1 curl=1' build-aarch64/features.stamp || { echo "build-aarch64 has no th_server HTTP side or remote backend ($$(cat build-aarch64/features.stamp)): the arm64 libmicrohttpd/libcurl -dev packages are missing (bash scripts/install-deps.sh)" >&2; exit 1; }
	AIETH_NATIVE_BUILD=$(CURDIR)/build $(MAKE) CROSS=aarch64 check

FUZZ_CC ?= clang
FUZZ_FLAGS := -std=c11 -g -O1 -fno-sanitize-recover=all \
	-D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(INCLUDES) \
	$(DEPS_CFLAGS) -DAIETH_DATADIR=\"$(CURDIR)\"
FUZZERS := $(FUZZ_SRC:tests/fuzz/%.c=build-fuzz/%)

FUZZ_OBJ := $(LIB_SRC:%.c=build-fuzz/obj/%.o) $(ENGINE_SRC:%.c=build-fuzz/obj/%.o)

build-fuzz/obj/%.o: %.c $(foreach d,$(LIB_DIRS) $(ENGINES:%=host/%/) harness/include/ harness/include/aieth/,$(wildcard $(d)*.h))
	@mkdir -p $(dir $@)
	$(call say,CC,$<)$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link,address,undefined -c $< -o $@

build-fuzz/%: tests/fuzz/%.c $(FUZZ_OBJ)
	@mkdir -p $(dir $@)
	$(call say,LINK,$@)$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer,address,undefined -o $@ $< $(FUZZ_OBJ) $(DEPS_LIBS) $(ENGINE_DEPS_LIBS)

.SECONDARY: $(FUZZ_OBJ)

fuzz: $(FUZZERS)
	@for f in $(FUZZERS); do echo $$f; done | \
		AIETH_DATA_DIR=$(CURDIR) xargs -P 2 -I{} sh -c 'n=$$(basename {}); \
		mkdir -p build-fuzz/corpus/$$n; \
		{} -max_total_time=$(FUZZ_SECONDS) -print_final_stats=0 \
			build-fuzz/corpus/$$n tests/fuzz/corpus/$$n 2>build-fuzz/$$n.log \
			|| { echo "== fuzz $$n FAILED"; tail -n 40 build-fuzz/$$n.log; exit 255; }; \
		echo "== fuzz $$n ($(FUZZ_SECONDS)s): $$(grep -E "^Done|^#[0-9]+ *DONE" build-fuzz/$$n.log | tail -n 1)"'

# (e): remote vs local through th_server on loopback, against raw TCP
# measured in the same run (tests/bench/bench_remote.sh; its data files are
# generated under $(O)/bench-data/)
# The host line first: wall-time ratios depend on the machine (scripts/bench-host.sh).
bench: $(O)/tests/bench $(O)/tests/bench_package $(O)/tests/tcp_loopback $(BINS) $(O)/tests/amd_client \
		$(O)/tests/bench_history
	@bash scripts/bench-host.sh
	AIETH_DATA_DIR=$(CURDIR) $(RUN_WRAPPER) $(O)/tests/bench
	$(RUN_WRAPPER) $(O)/tests/bench_history 10000
	AIETH_DATA_DIR=$(CURDIR) AIETH_RUN_WRAPPER="$(RUN_WRAPPER)" $(RUN_WRAPPER) $(O)/tests/bench_package
	$(TEST_ENV) bash tests/bench/bench_remote.sh
	$(TEST_ENV) bash tests/bench/amd_latency.sh
	$(TEST_ENV) bash tests/bench/bench_sweep.sh

# th_server as a service (docs/server.md, "Install on a board"): the systemd
# unit in $(PREFIX)/lib/systemd/system; the init script, an example config
# and token file in $(PREFIX)/share/aieth/dist. Into a staging root
# (DESTDIR set: a board image) also $(SYSCONFDIR)/init.d/th_server and
# $(SYSCONFDIR)/aieth/th_server.conf; a plain install leaves /etc alone.
# Its unprivileged user: $(PREFIX)/lib/sysusers.d/aieth.conf (with
# PREFIX=/usr where systemd-sysusers creates it at boot).
SYSCONFDIR ?= /etc
DIST_SUBST = sed -e 's|@BINDIR@|$(PREFIX)/bin|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' \
	-e 's|@DATADIR@|$(PREFIX)/share/aieth|g'

# The Python package goes to PYTHON_SITEDIR (default: the prefix's
# dist-packages of $(PYTHON)'s version, on Debian's sys.path for /usr and
# /usr/local; other prefixes need PYTHONPATH, docs/python.md).
PYTHON_VERSION = $(shell $(PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)
PYTHON_SITEDIR ?= $(PREFIX)/lib/python$(PYTHON_VERSION)/dist-packages
PY_FILES := $(sort $(wildcard python/aieth/*.py)) python/aieth/py.typed

install: lib $(BINS)
	install -d $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include/aieth \
		$(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/aieth/platforms \
		$(DESTDIR)$(PREFIX)/share/aieth/cfg
	install -m 644 $(STATIC) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(SHARED) $(DESTDIR)$(PREFIX)/lib/
	ln -sf $(notdir $(SHARED)) $(DESTDIR)$(PREFIX)/lib/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(PREFIX)/lib/libaieth.so
	install -m 644 $(PCFILE) $(DESTDIR)$(PREFIX)/lib/pkgconfig/
	install -m 644 harness/include/aieth.h harness/include/aieth_model.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 harness/include/aieth/*.h $(DESTDIR)$(PREFIX)/include/aieth/
	install -m 644 platforms/*.json $(DESTDIR)$(PREFIX)/share/aieth/platforms/
	install -m 644 cfg/*.json cfg/*.cfg $(DESTDIR)$(PREFIX)/share/aieth/cfg/
	install -d $(DESTDIR)$(PREFIX)/share/aieth/cfg/graph-models
	install -m 644 cfg/graph-models/*.json $(DESTDIR)$(PREFIX)/share/aieth/cfg/graph-models/
	$(if $(BINS),install -m 755 $(BINS) $(DESTDIR)$(PREFIX)/bin/)
	install -d $(DESTDIR)$(PREFIX)/lib/systemd/system $(DESTDIR)$(PREFIX)/share/aieth/dist
	$(DIST_SUBST) dist/systemd/th_server.service > $(DESTDIR)$(PREFIX)/lib/systemd/system/th_server.service
	$(DIST_SUBST) dist/init.d/th_server > $(DESTDIR)$(PREFIX)/share/aieth/dist/th_server.init
	chmod 644 $(DESTDIR)$(PREFIX)/lib/systemd/system/th_server.service
	chmod 755 $(DESTDIR)$(PREFIX)/share/aieth/dist/th_server.init
	install -m 644 dist/etc/th_server.conf dist/etc/tokens.example $(DESTDIR)$(PREFIX)/share/aieth/dist/
	install -d $(DESTDIR)$(PREFIX)/lib/sysusers.d
	install -m 644 dist/sysusers.d/aieth.conf $(DESTDIR)$(PREFIX)/lib/sysusers.d/aieth.conf
	install -d $(DESTDIR)$(PREFIX)/share/aieth/grafana
	install -m 644 dist/grafana/aieth-influxdb.json $(DESTDIR)$(PREFIX)/share/aieth/grafana/
	install -d $(DESTDIR)$(PYTHON_SITEDIR)/aieth
	install -m 644 $(PY_FILES) $(DESTDIR)$(PYTHON_SITEDIR)/aieth/
ifneq ($(DESTDIR),)
	install -d $(DESTDIR)$(SYSCONFDIR)/init.d $(DESTDIR)$(SYSCONFDIR)/aieth
	install -m 755 $(DESTDIR)$(PREFIX)/share/aieth/dist/th_server.init $(DESTDIR)$(SYSCONFDIR)/init.d/th_server
	install -m 644 dist/etc/th_server.conf $(DESTDIR)$(SYSCONFDIR)/aieth/th_server.conf
else
	$(call ldconfig_note)
endif

# Into the system (no DESTDIR; a staging root's own system runs ldconfig):
# refresh the dynamic linker's cache, so that a program linked with
# `pkg-config --libs aieth` finds $(SONAME); where ldconfig cannot run
# (not root) or PREFIX/lib is not on its path, say what to do.
define ldconfig_note
	@if [ "$$(id -u)" = 0 ] && command -v ldconfig >/dev/null 2>&1; then echo ldconfig; ldconfig; fi; \
	if ! { command -v ldconfig >/dev/null 2>&1 && ldconfig -p | grep -qF '$(PREFIX)/lib/$(SONAME)'; }; then \
		echo "make install: the dynamic linker does not know $(PREFIX)/lib: run ldconfig as root, or add $(PREFIX)/lib to /etc/ld.so.conf.d/ (or LD_LIBRARY_PATH) so that programs find $(SONAME)"; fi
endef

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/lib/libaieth.* $(DESTDIR)$(PREFIX)/lib/pkgconfig/aieth.pc \
		$(DESTDIR)$(PREFIX)/include/aieth.h $(DESTDIR)$(PREFIX)/include/aieth_model.h \
		$(BINS:$(O)/bin/%=$(DESTDIR)$(PREFIX)/bin/%) \
		$(DESTDIR)$(PREFIX)/lib/systemd/system/th_server.service \
		$(DESTDIR)$(PREFIX)/lib/sysusers.d/aieth.conf
	rm -rf $(DESTDIR)$(PREFIX)/share/aieth $(DESTDIR)$(PREFIX)/include/aieth \
		$(DESTDIR)$(PYTHON_SITEDIR)/aieth

deps:
	bash scripts/install-deps.sh

# The Debian packages (debian/README.source, docs/on-board.md): make deb
# builds them for the host into build-deb/ARCH/ (a local apt repository),
# make deb ARCH=arm64 cross-builds the boards' set, lintian checks both.
# make deb-check installs them into clean Debian 12 roots (amd64, and arm64
# under qemu-user) and tests them there (tests/pkg/clean_root.sh): a stage
# of .ci/run. deb-changelog-check: debian/changelog and the symbols file in
# step with version.h, CHANGELOG.md and harness/abi/ (make test's lint stage).
ARCH ?=
deb:
	bash debian/make-deb.sh $(ARCH)

deb-check:
	bash tests/pkg/clean_root.sh

deb-changelog-check:
	python3 tests/pkg/check_debian.py
	@bash tests/pkg/check_debian_test.sh

clean:
	rm -rf build build-asan build-fuzz build-aarch64 build-deb

-include $(shell find $(O) -name '*.d' 2>/dev/null)
