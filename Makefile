SHELL := /bin/bash
# ipcurl — build, test and demo. `make setup && make demo`, then `make test`.
PREFIX   ?= /usr/local
SWIFT    ?= swift
SWIFTC   ?= swiftc
LAB      := Tests/Lab/lab.sh
PACKAGES := libcurl4-openssl-dev libssl-dev libyaml-dev nginx-light unbound knot-resolver openssl curl python3 groff-base \
            python3-pip perl prometheus prometheus-blackbox-exporter prometheus-pushgateway
# Consumers of ipcurl check's reports, from PyPI, and Jenkins' JUnit schema from pytest's source distribution.
PIP_PACKAGES := xmlschema prometheus-client junitparser
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
MIN_TESTS ?= 600

.PHONY: setup setup-apt setup-consumers build test docs install demo lab-up lab-down bench fuzz clean

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
	@python3 -c 'import xmlschema, prometheus_client, junitparser' 2>/dev/null || \
	  { echo "setup: pip install $(PIP_PACKAGES)"; python3 -m pip install -q $(PIP_PACKAGES) || \
	    python3 -m pip install -q --break-system-packages $(PIP_PACKAGES); }
	@if [ ! -s $(JUNIT_XSD) ]; then \
	  echo "setup: junit-10.xsd from pytest's source distribution (pip download)"; \
	  tmp=$$(mktemp -d) && python3 -m pip download -q --no-binary :all: --no-deps pytest==9.0.3 -d "$$tmp" && \
	  mkdir -p $(dir $(JUNIT_XSD)) && tar -xzf "$$tmp"/pytest-9.0.3.tar.gz -C "$$tmp" pytest-9.0.3/testing/example_scripts/junit-10.xsd && \
	  cp "$$tmp"/pytest-9.0.3/testing/example_scripts/junit-10.xsd $(JUNIT_XSD).tmp && mv $(JUNIT_XSD).tmp $(JUNIT_XSD); \
	  status=$$?; rm -rf "$$tmp"; exit $$status; fi

## build: release binary with the Swift runtime linked statically (fast startup)
build:
	$(SWIFT) build $(RELEASE)

## test: unit tests plus integration tests against the real nginx + unbound + kresd lab (started and stopped here).
## As root the tests run in a private mount namespace whose resolv.conf names 127.0.0.1, so a fallback to the
## system resolver stays on loopback.
test: setup
	@set -e; $(LAB) up; trap '$(LAB) down' EXIT; \
	confine=(); resolv="$${IPCURL_LAB_DIR:-.lab}/resolv.conf"; printf 'nameserver 127.0.0.1\noptions timeout:1 attempts:1\n' >"$$resolv"; \
	if [ "$$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then \
	  confine=(unshare -m sh -c 'mount --bind "$$0" /etc/resolv.conf && exec "$$@"' "$$resolv"); \
	  echo "make test: system DNS confined to 127.0.0.1 (private mount namespace)"; fi; \
	export IPCURL_JUNIT_XSD="$(CURDIR)/$(JUNIT_XSD)"; \
	"$${confine[@]}" $(SWIFT) test 2>&1 | tee .build-test.log; status=$${PIPESTATUS[0]}; \
	count=$$(sed -n 's/.*Test run with \([0-9][0-9]*\) tests\{0,1\} .*/\1/p' .build-test.log | tail -n 1); \
	rm -f .build-test.log; \
	[ "$$status" = 0 ] || exit "$$status"; \
	if [ "$${count:-0}" -lt $(MIN_TESTS) ]; then echo "make test: only $${count:-0} tests ran (expected >= $(MIN_TESTS))" >&2; exit 1; fi; \
	echo "make test: $$count tests passed"

## docs: the man page and bash, zsh and fish completions, rendered from the option tables into .build/docs
docs:
	$(SWIFT) build $(RELEASE) --product ipcurl-docs
	"$$($(SWIFT) build $(RELEASE) --show-bin-path)/ipcurl-docs" .build/docs

## install: the release binary, its man page and completions under $(DESTDIR)$(PREFIX)
install: build docs
	install -D -m 0755 "$$($(SWIFT) build $(RELEASE) --show-bin-path)/ipcurl" "$(DESTDIR)$(PREFIX)/bin/ipcurl"
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

FUZZ_SECONDS ?= 120
FUZZ_PARALLEL ?= 1
FUZZ_WORK ?= Fuzz/.fuzz-work
FUZZ_TARGETS ?= FuzzDNSMessage FuzzDoHJSON FuzzAliyunSingle FuzzAliyunBatch FuzzDNSPodPlain FuzzDNSPodAES FuzzDNSPodDES \
            FuzzResolveEntry FuzzResolverCommandLine FuzzCacheRecord FuzzWriteOut FuzzTargetsFile FuzzConfigFile FuzzOptionParser
## fuzz: the libFuzzer targets of Fuzz/ (ASan), each FUZZ_SECONDS on a copy of its seeds in Fuzz/Corpus, FUZZ_PARALLEL
## at a time; prints executions, exec/s and crashes per target and fails on a crash (FUZZ_TARGETS picks some)
fuzz:
	cd Fuzz && $(SWIFT) build -c release -Xswiftc -sanitize=fuzzer,address --scratch-path .build-fuzz
	Fuzz/run-fuzz.sh Fuzz/.build-fuzz/release $(FUZZ_WORK) $(FUZZ_SECONDS) $(FUZZ_PARALLEL) $(FUZZ_TARGETS)

clean:
	rm -rf .build .lab Fuzz/.build-fuzz Fuzz/.fuzz-work
