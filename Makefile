SHELL := /bin/bash
# ipcurl — build, test and demo. `make setup && make demo`, then `make test`.
PREFIX   ?= /usr/local
SWIFT    ?= swift
SWIFTC   ?= swiftc
LAB      := Tests/Lab/lab.sh
PACKAGES := libcurl4-openssl-dev libssl-dev libyaml-dev libmicrohttpd-dev libgnutls28-dev libcrypt-dev nginx-light \
            unbound knot-resolver openssl curl python3 groff-base python3-pip perl prometheus prometheus-blackbox-exporter \
            prometheus-pushgateway python3-html5lib chromium
# Consumers of ipcurl check's reports, the HTTPDNS fixture's AES-GCM (cryptography) and the exporter server tests'
# bcrypt hashes (bcrypt), from PyPI, and Jenkins' JUnit schema from pytest's source distribution.
PIP_PACKAGES := xmlschema prometheus-client junitparser cryptography bcrypt
JUNIT_XSD := .lab-cache/junit-10.xsd
# Release builds: start-up and resident memory are features.
# - The Swift runtime and libstdc++ link statically (Build/static-libstdc++ makes -lstdc++ pick the archive).
# - Every function in its own section, and lld packs the ones a start-up and a transfer execute at the front of
#   .text (Build/hot-text.order, written by Build/hot-text.sh): the kernel maps text in 64 KiB fault-around windows,
#   so a few hundred KiB of hot functions scattered over 6 MiB of .text kept most of it resident. Names the order
#   file lists but the binary lacks are skipped; functions it does not list follow the listed ones.
# - Relative relocations packed (DT_RELR, glibc 2.36+): about 27,000 R_X86_64_RELATIVE entries take 5 KiB instead
#   of a 646 KiB .rela.dyn that ld.so reads at every start.
# - No -export-dynamic: nothing looks the program's own symbols up by name, and an exported table of thousands
#   of Swift symbols costs ld.so larger hash tables and resident pages.
# PIE and RELRO stay. The flags live here rather than in Package.swift, so the library products stay free of
# unsafe flags for packages that depend on them.
RELEASE_LINK := -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs \
            -Xlinker --symbol-ordering-file=$(CURDIR)/Build/hot-text.order -Xlinker --no-warn-symbol-ordering \
            -Xlinker --no-export-dynamic
RELEASE  := -c release --static-swift-stdlib --disable-local-rpath -Xlinker -L$(CURDIR)/Build/static-libstdc++ \
            -Xswiftc -Xfrontend -Xswiftc -function-sections $(RELEASE_LINK)
# swift test must run real tests: fewer than this many counts as a failure ("no tests ran" can't pass).
MIN_TESTS ?= 1125

.PHONY: setup setup-apt setup-consumers build test sanitize docs install demo lab-up lab-down bench stress fuzz clean

## setup: apt-get install the C libraries and lab servers (needs root or sudo; skips when all are present),
## pip-install the report consumers and fetch junit-10.xsd (each skipped when present)
setup: setup-apt setup-consumers

setup-apt:
	@missing=""; for p in $(PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; done; \
	if [ -z "$$missing" ]; then echo "setup: already installed: $(PACKAGES)"; exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then sudo=""; \
	elif command -v sudo >/dev/null 2>&1; then sudo=sudo; \
	else echo "make setup: needs root or sudo to apt-get install:$$missing" >&2; exit 1; fi; \
	echo "setup: installing$$missing (apt-get, as root)"; \
	$$sudo apt-get update -q && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -q --no-install-recommends $$missing

setup-consumers: setup-apt
	@python3 -c 'import xmlschema, prometheus_client, junitparser, cryptography.hazmat.primitives.ciphers.aead, bcrypt' 2>/dev/null || \
	  { echo "setup: pip install $(PIP_PACKAGES)"; python3 -m pip install -q $(PIP_PACKAGES) || \
	    python3 -m pip install -q --break-system-packages $(PIP_PACKAGES); }
	@if [ ! -s $(JUNIT_XSD) ]; then \
	  echo "setup: junit-10.xsd from pytest's source distribution (pip download)"; \
	  tmp=$$(mktemp -d) && python3 -m pip download -q --no-binary :all: --no-deps pytest==9.0.3 -d "$$tmp" && \
	  mkdir -p $(dir $(JUNIT_XSD)) && tar -xzf "$$tmp"/pytest-9.0.3.tar.gz -C "$$tmp" pytest-9.0.3/testing/example_scripts/junit-10.xsd && \
	  cp "$$tmp"/pytest-9.0.3/testing/example_scripts/junit-10.xsd $(JUNIT_XSD).tmp && mv $(JUNIT_XSD).tmp $(JUNIT_XSD); \
	  status=$$?; rm -rf "$$tmp"; exit $$status; fi

## build: release binary with the Swift runtime linked statically (fast startup), and its man page and bash, zsh
## and fish completions rendered from the option tables into .build/docs (offline)
build:
	$(SWIFT) build $(RELEASE)
	"$$($(SWIFT) build $(RELEASE) --show-bin-path)/ipcurl-docs" .build/docs

# Shell lines for a recipe that runs tests: as root, `"$${confine[@]}" cmd` runs cmd in a private mount namespace
# whose resolv.conf names 127.0.0.1, so a fallback to the system resolver stays on loopback.
CONFINE = confine=(); resolv="$${IPCURL_LAB_DIR:-.lab}/resolv.conf"; printf 'nameserver 127.0.0.1\noptions timeout:1 attempts:1\n' >"$$resolv"; \
	if [ "$$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then \
	  confine=(unshare -m sh -c 'mount --bind "$$0" /etc/resolv.conf && exec "$$@"' "$$resolv"); \
	  echo "make $@: system DNS confined to 127.0.0.1 (private mount namespace)"; fi

## test: the lab fixture's self-test (python, on addresses of its own), then unit tests plus integration tests against
## the real nginx + unbound + kresd lab (started and stopped here). As root the tests run in a private mount
## namespace whose resolv.conf names 127.0.0.1, so a fallback to the system resolver stays on loopback.
test: setup
	@set -e; python3 -m unittest discover -s Tests/Lab -p 'test_*.py'; \
	$(LAB) up; trap '$(LAB) down' EXIT; \
	$(CONFINE); \
	export IPCURL_JUNIT_XSD="$(CURDIR)/$(JUNIT_XSD)"; \
	"$${confine[@]}" $(SWIFT) test 2>&1 | tee .build-test.log; status=$${PIPESTATUS[0]}; \
	count=$$(sed -n 's/.*Test run with \([0-9][0-9]*\) tests\{0,1\} .*/\1/p' .build-test.log | tail -n 1); \
	rm -f .build-test.log; \
	[ "$$status" = 0 ] || exit "$$status"; \
	if [ "$${count:-0}" -lt $(MIN_TESTS) ]; then echo "make test: only $${count:-0} tests ran (expected >= $(MIN_TESTS))" >&2; exit 1; fi; \
	echo "make test: $$count tests passed"

# make sanitize: debug builds, each in a scratch path of its own. swiftc has no -sanitize=undefined on Linux (Swift's
# own overflow and bounds checks trap in every build); -Xcc -fsanitize=undefined instruments the C shims' static
# inline functions, which clang compiles into the Swift modules that import them, and the ASan runtime carries
# UBSan's handlers. Every sanitizer writes its reports to SANITIZE_LOGS/report.PID (log_path), the test processes'
# and the ipcurl children's alike, and any report fails the run, even where the test that caused it passed.
# LeakSanitizer stays off in the test process (XCTest and Foundation leak there) and is on in ipcurl and
# ipcurl-docs: ASan reads SANITIZE_LOGS/options/<binary name> after ASAN_OPTIONS (include_if_exists, %b).
ASAN_BUILD    := --scratch-path .build-asan --sanitize=address -Xcc -fsanitize=undefined
TSAN_BUILD    := --scratch-path .build-tsan --sanitize=thread
UNIT_TESTS    := ^(CurlKitTests|OptionTableTests|HTTPDNSTests|IPCurlCoreTests|ExporterHTTPTests|LockingTests)\.
SANITIZE_LOGS := $(CURDIR)/.build-sanitize

## sanitize: the unit tests under ASan and UBSan, the integration tests against an ASan and UBSan build of ipcurl
## (leak checks in ipcurl), then all of them again under TSan, ipcurl included (parallel checks on the multi loop,
## -Z transfers on threads, the hedged HTTPDNS race, background refreshes, signal handlers); lab and DNS as in make test.
## A passing run writes its section of TESTING.md (Build/testing-md.py), as make fuzz and make stress write theirs
sanitize: setup
	@set -e; $(LAB) up; trap '$(LAB) down' EXIT; \
	$(CONFINE); \
	export IPCURL_JUNIT_XSD="$(CURDIR)/$(JUNIT_XSD)"; \
	rm -rf $(SANITIZE_LOGS); mkdir -p $(SANITIZE_LOGS)/options; \
	for binary in ipcurl ipcurl-docs; do echo detect_leaks=1 >$(SANITIZE_LOGS)/options/$$binary; done; \
	export ASAN_OPTIONS=detect_leaks=0:halt_on_error=1:log_path=$(SANITIZE_LOGS)/report:include_if_exists=$(SANITIZE_LOGS)/options/%b; \
	export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:log_path=$(SANITIZE_LOGS)/report; \
	export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:log_path=$(SANITIZE_LOGS)/report; \
	step() { \
	  name=$$1; shift; began=$$SECONDS; \
	  echo "make sanitize: $$name"; \
	  "$${confine[@]}" "$$@" 2>&1 | tee $(SANITIZE_LOGS)/step.log; status=$${PIPESTATUS[0]}; \
	  count=$$(sed -n 's/.*Test run with \([0-9][0-9]*\) tests\{0,1\} .*/\1/p' $(SANITIZE_LOGS)/step.log | tail -n 1); \
	  rm -f $(SANITIZE_LOGS)/step.log; \
	  reports=$$(find $(SANITIZE_LOGS) -maxdepth 1 -type f -name 'report.*' | sort); \
	  if [ -n "$$reports" ]; then cat $$reports >&2; echo "make sanitize: $$name: sanitizer reports:" $$reports >&2; exit 1; fi; \
	  [ "$$status" = 0 ] || { echo "make sanitize: $$name failed" >&2; exit "$$status"; }; \
	  if [ "$${count:-0}" = 0 ]; then echo "make sanitize: $$name ran no tests" >&2; exit 1; fi; \
	  summary="$$summary""make sanitize: $$name: $$count tests passed ($$((SECONDS - began)) s)"$$'\n'; \
	}; \
	began=$$SECONDS; $(SWIFT) build --build-tests $(ASAN_BUILD); \
	summary="make sanitize: ASan+UBSan build: $$((SECONDS - began)) s"$$'\n'; \
	step "ASan+UBSan unit tests" $(SWIFT) test --skip-build $(ASAN_BUILD) --filter '$(UNIT_TESTS)'; \
	export IPCURL_BIN="$$($(SWIFT) build $(ASAN_BUILD) --show-bin-path)/ipcurl"; \
	step "integration tests, ASan+UBSan ipcurl" $(SWIFT) test --skip-build $(ASAN_BUILD) --filter '^IntegrationTests\.'; \
	began=$$SECONDS; $(SWIFT) build --build-tests $(TSAN_BUILD); \
	summary="$$summary""make sanitize: TSan build: $$((SECONDS - began)) s"$$'\n'; \
	export IPCURL_BIN="$$($(SWIFT) build $(TSAN_BUILD) --show-bin-path)/ipcurl"; \
	step "TSan unit and integration tests, TSan ipcurl" $(SWIFT) test --skip-build $(TSAN_BUILD); \
	summary="$$summary""make sanitize: total: $$SECONDS s"$$'\n'; \
	printf '%s' "$$summary" | python3 Build/testing-md.py sanitize

## docs: the man page and bash, zsh and fish completions, rendered from the option tables into .build/docs
docs:
	$(SWIFT) build $(RELEASE) --product ipcurl-docs
	"$$($(SWIFT) build $(RELEASE) --show-bin-path)/ipcurl-docs" .build/docs

## install: the release binary, its man page and completions under $(DESTDIR)$(PREFIX)
install: build
	install -D -m 0755 "$$($(SWIFT) build $(RELEASE) --show-bin-path)/ipcurl" "$(DESTDIR)$(PREFIX)/bin/ipcurl"
	install -D -m 0755 "$$($(SWIFT) build $(RELEASE) --show-bin-path)/ipcurl-exporter" "$(DESTDIR)$(PREFIX)/bin/ipcurl-exporter"
	install -D -m 0644 .build/docs/ipcurl.1 "$(DESTDIR)$(PREFIX)/share/man/man1/ipcurl.1"
	install -D -m 0644 .build/docs/ipcurl.bash "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/ipcurl"
	install -D -m 0644 .build/docs/_ipcurl "$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_ipcurl"
	install -D -m 0644 .build/docs/ipcurl.fish "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/ipcurl.fish"

## demo: bring the lab up and make one visible IP-direct request (works offline)
demo: build lab-up
	@Tests/Lab/demo.sh "$$($(SWIFT) build $(RELEASE) --show-bin-path)/ipcurl"

lab-up:
	@$(LAB) up

lab-down:
	@$(LAB) down

## bench: ipcurl against curl on the lab, paired and interleaved, with callgrind counts and peak RSS, written to
## BENCHMARKS.md; also builds the floor programs of Benchmarks/Floor (needs valgrind; root for system-store rows)
bench: build lab-up
	@mkdir -p .build/bench
	$(SWIFTC) -O -static-stdlib -parse-as-library -I Sources/CCurl -L $(CURDIR)/Build/static-libstdc++ \
	  -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs -Xlinker --no-export-dynamic \
	  Benchmarks/Floor/floor.swift -o .build/bench/floor
	$(CC) -O2 Benchmarks/Floor/floor.c -lcurl -o .build/bench/floor-c
	@set -a; . "$$($(LAB) env)"; set +a; \
	python3 Benchmarks/bench.py "$$($(SWIFT) build $(RELEASE) --show-bin-path)/ipcurl" .build/bench BENCHMARKS.md

## stress: STRESS_WORKERS (8) processes x STRESS_RUNS (200) runs of the release binary on one answer cache and one -o
## directory, with random SIGKILL and SIGSTOP; the cache must read back correct, every file whole, no temporary file left
stress: build lab-up
	@set -a; . "$$($(LAB) env)"; set +a; set -o pipefail; \
	python3 Tests/Lab/stress.py "$$($(SWIFT) build $(RELEASE) --show-bin-path)/ipcurl" | python3 Build/testing-md.py stress

FUZZ_SECONDS ?= 120
FUZZ_PARALLEL ?= 1
FUZZ_WORK ?= Fuzz/.fuzz-work
FUZZ_TARGETS ?= FuzzDNSMessage FuzzDoHJSON FuzzAliyunSingle FuzzAliyunBatch FuzzAliyunV2 FuzzDNSPodPlain FuzzDNSPodAES \
            FuzzDNSPodDES FuzzResolveEntry FuzzResolverCommandLine FuzzCacheRecord FuzzWriteOut FuzzTargetsFile FuzzConfigFile \
            FuzzOptionParser FuzzExporterConfig
## fuzz: the libFuzzer targets of Fuzz/ (ASan), each FUZZ_SECONDS on a copy of its seeds in Fuzz/Corpus, FUZZ_PARALLEL
## at a time; prints executions, exec/s and crashes per target and fails on a crash (FUZZ_TARGETS picks some)
fuzz:
	cd Fuzz && $(SWIFT) build -c release -Xswiftc -sanitize=fuzzer,address --scratch-path .build-fuzz
	set -o pipefail; Fuzz/run-fuzz.sh Fuzz/.build-fuzz/release $(FUZZ_WORK) $(FUZZ_SECONDS) $(FUZZ_PARALLEL) $(FUZZ_TARGETS) | \
	  python3 Build/testing-md.py fuzz "make fuzz FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_PARALLEL=$(FUZZ_PARALLEL)"

clean:
	rm -rf .build .build-asan .build-tsan .build-sanitize .lab Fuzz/.build-fuzz Fuzz/.fuzz-work
