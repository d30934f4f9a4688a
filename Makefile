# minutafs: build, test and set-up targets. See README.md.

SWIFT ?= swift
# Debian packages the build and the tests need: libfuse3 and its tools, pkg-config, zlib, and the
# programs the mount tests drive through the mount (vim, nano, rsync, jq, python3).
DEBIAN_PACKAGES := libfuse3-dev fuse3 pkg-config zlib1g-dev vim nano rsync jq python3 librsvg2-bin

.PHONY: build test test-fast deps bench clean demo install uninstall fuzz fuzz-diff deb

# `make fuzz`: how long libFuzzer runs (seconds), with a new random seed each time (FUZZ_SEED=0).
# `make test` runs it deterministically instead: TEST_FUZZ_RUNS inputs from the fixed seed
# TEST_FUZZ_SEED, so a test run never fails on the luck of the draw; a crash it finds is found again
# by every run until it is fixed (then its input belongs in Tests/Fixtures/fuzz/).
FUZZ_SECONDS ?= 300
FUZZ_SEED ?= 0
FUZZ_RUNS ?= -1
TEST_FUZZ_SEED ?= 1
TEST_FUZZ_RUNS ?= 1500
# Extra flags for the debug build `make test` and `make test-fast` make; CI sets
# SWIFT_BUILD_FLAGS="-Xswiftc -warnings-as-errors", so a warning fails the run.
SWIFT_BUILD_FLAGS ?=

# The release build `make build` and `make install` use; `make deb` adds --static-swift-stdlib.
RELEASE_FLAGS ?=
# The version (from `minutafs --version`'s source) and the architecture, for `make deb`.
VERSION := $(shell sed -n 's/^ *version: "\([^"]*\)",*$$/\1/p' Sources/minutafs/Minutafs.swift | head -n 1)
DEB_ARCH := $(shell dpkg --print-architecture 2>/dev/null || echo amd64)
DEB := minutafs_$(VERSION)_$(DEB_ARCH).deb

# Where `make install` puts things. DESTDIR is prepended to every path (for packaging).
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
SBINDIR ?= $(PREFIX)/sbin
LIBEXECDIR ?= $(PREFIX)/lib/minutafs
MANDIR ?= $(PREFIX)/share/man/man1
# systemd looks for user units in /usr/lib/systemd/user and /usr/local/lib/systemd/user; for a
# PREFIX under your home, set USERUNITDIR=$$HOME/.config/systemd/user.
USERUNITDIR ?= $(PREFIX)/lib/systemd/user
# mount(8) runs helpers from /sbin only: for the default prefixes, link the fstab helper there.
MOUNT_HELPER_LINK ?= $(if $(filter /usr/local /usr,$(PREFIX)),/sbin/mount.fuse.minutafs,)

## build: release build of the minutafs binary (.build/release/minutafs)
build: deps
	$(SWIFT) build -c release $(RELEASE_FLAGS)

## test: the whole test suite; builds the binary first, because the command tests run it; then a
##       short deterministic fuzzing run (TEST_FUZZ_RUNS inputs from seed TEST_FUZZ_SEED). SOAK=1 makes the crash and sync tests six times longer
##       (with random seeds). Ends with one line: tests passed, failed and skipped (and why); the log is .build/test.log.
test: deps
	$(SWIFT) build $(SWIFT_BUILD_FLAGS)
	@mkdir -p .build; \
	{ $(SWIFT) test $(SWIFT_BUILD_FLAGS) 2>&1; echo $$? > .build/test.status; } | tee .build/test.log; \
	test_status=$$(cat .build/test.status); \
	fuzz_status=0; $(MAKE) --no-print-directory fuzz FUZZ_SEED=$(TEST_FUZZ_SEED) FUZZ_RUNS=$(TEST_FUZZ_RUNS) FUZZ_SECONDS=600 || fuzz_status=$$?; \
	tools/test-summary .build/test.log "$$test_status" "$$fuzz_status"

## test-fast: the unit suites only (the engine and the store: no mounts, no built binary, no fuzzing), in well under a minute of test time
test-fast: deps
	@mkdir -p .build; \
	{ $(SWIFT) test $(SWIFT_BUILD_FLAGS) --filter '^(AutomergeKitTests|MinutaStoreTests)\.' 2>&1; echo $$? > .build/test-fast.status; } | tee .build/test-fast.log; \
	tools/test-summary .build/test-fast.log "$$(cat .build/test-fast.status)"

## fuzz: libFuzzer with the address sanitizer over Document.load for FUZZ_SECONDS (default 300;
##       FUZZ_RUNS stops it after that many inputs, FUZZ_SEED fixes its random seed), seeded with Tests/Fixtures/automerge and Tests/Fixtures/fuzz (copied to a temporary
##       folder). A crash stops it: the input is in .build/fuzz/crashes/; copy it to
##       Tests/Fixtures/fuzz/ (FuzzRegressionTests loads every file there) and fix the engine.
fuzz: deps
	$(SWIFT) build -c debug --scratch-path .build/fuzz --product minutafs-fuzz \
		-Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -use-ld=lld
	@corpus=$$(mktemp -d) && trap 'rm -rf "$$corpus"' EXIT && \
	find Tests/Fixtures/automerge Tests/Fixtures/fuzz -type f -size -33k -exec cp {} "$$corpus"/ \; && \
	mkdir -p .build/fuzz/crashes && \
	echo "fuzzing Document.load for $(FUZZ_SECONDS) s at most, $(FUZZ_RUNS) inputs (-1: no limit), seed $(FUZZ_SEED) (0: random) (log: .build/fuzz/fuzz.log)" && \
	if SWIFT_BACKTRACE=enable=no .build/fuzz/debug/minutafs-fuzz -max_total_time=$(FUZZ_SECONDS) -runs=$(FUZZ_RUNS) -seed=$(FUZZ_SEED) -max_len=32768 -timeout=30 \
		-rss_limit_mb=2048 -detect_leaks=0 -print_final_stats=1 -artifact_prefix=.build/fuzz/crashes/ \
		"$$corpus" > .build/fuzz/fuzz.log 2>&1; then \
		grep -E '^(Done|stat::(number_of_executed_units|new_units_added|peak_rss_mb))' .build/fuzz/fuzz.log; \
	else \
		tail -n 60 .build/fuzz/fuzz.log; \
		echo "fuzz: a crash, hang or runaway allocation; the input is in .build/fuzz/crashes/"; \
		exit 1; \
	fi

# `make fuzz-diff`: the reference binary (amref, the reference CLI over automerge 0.6.1; not part of
# this repository): AMREF, else an `amref` on PATH; without one the target says so and does nothing.
AMREF ?= $(shell command -v amref 2>/dev/null)
FUZZ_DIFF_RUNS ?= 50000
FUZZ_DIFF_SEED ?= 1

## fuzz-diff: differential fuzzing against the reference (AMREF=path/to/amref): FUZZ_DIFF_RUNS mutated
##            fixtures (default 50000, seed FUZZ_DIFF_SEED) loaded by minutafs and by the reference; same
##            verdict, state, heads, conflicts, history and save, and the reference's save loads here.
##            Prints the disagreements by class (deliberate ones apart) and keeps each in
##            .build/fuzz-diff/disagreements/ with the reference's verdict; fails on any that is not deliberate.
fuzz-diff:
	@if [ -z "$(AMREF)" ] || [ ! -x "$(AMREF)" ]; then \
		echo "fuzz-diff: skipped: no reference binary (set AMREF to the amref command over automerge 0.6.1, or put amref on PATH)"; \
		exit 0; \
	fi; \
	$(SWIFT) build -c release --product minutafs-fuzz && \
	tools/fuzz-diff --amref "$(AMREF)" --ours "$$($(SWIFT) build -c release --show-bin-path)/minutafs-fuzz" \
		--runs $(FUZZ_DIFF_RUNS) --seed $(FUZZ_DIFF_SEED)

## deps: install the Debian packages that are missing (apt-get update first; sudo unless root)
deps:
	@missing=""; \
	for package in $(DEBIAN_PACKAGES); do \
		status=$$(dpkg-query -W -f='$${Status}' "$$package" 2>/dev/null || true); \
		[ "$$status" = "install ok installed" ] || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi; \
		echo "Installing:$$missing"; \
		$$sudo apt-get update && \
		$$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $$missing; \
	fi

## bench: engine tables (fixtures, generated months), the mount and history benchmarks on a generated ten-year store
bench: deps
	$(SWIFT) build -c release
	.build/release/minutafs-bench Tests/Fixtures/automerge
	.build/release/minutafs-bench scaling
	bash bench/mount-bench.sh
	bash bench/history-bench.sh

## demo: install what is missing, build, write ./demo-store (once) and mount it at ./mnt in the foreground
demo: deps
	$(SWIFT) build --product minutafs
	@bin="$$($(SWIFT) build --show-bin-path)/minutafs"; \
	if [ ! -d demo-store ]; then "$$bin" demo ./demo-store || exit 1; fi; \
	mkdir -p mnt; \
	if mountpoint -q mnt; then fusermount3 -u -z mnt; fi; \
	echo ""; \
	echo "Mounting ./demo-store at ./mnt. In another terminal, look around:"; \
	echo "  ls mnt mnt/records/*/                      # years, months"; \
	echo "  ls mnt/records/$$(date +%Y)/$$(date +%m)/          # one JSON file per record, and images"; \
	echo "  cat mnt/tags.json"; \
	echo "  cat mnt/records/*/*/*.json | jq -s 'map(select(.endTime == null))'   # the running timer"; \
	echo "  cat mnt/.minutafs/status mnt/.minutafs/conflicts"; \
	echo "  vim mnt/records/.../<file>.json            # edit a record; the change goes into the documents"; \
	echo "Stop with Ctrl-C here, or: fusermount3 -u mnt"; \
	echo ""; \
	exec "$$bin" mount ./demo-store ./mnt -f

## install: release build, then the binary, the mount scripts, the systemd user unit and the man page under PREFIX
install: build
	install -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(SBINDIR)" "$(DESTDIR)$(LIBEXECDIR)" "$(DESTDIR)$(MANDIR)" "$(DESTDIR)$(USERUNITDIR)"
	install -m 755 "$$($(SWIFT) build -c release $(RELEASE_FLAGS) --show-bin-path)/minutafs" "$(DESTDIR)$(BINDIR)/minutafs"
	sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@LIBEXECDIR@|$(LIBEXECDIR)|g' mount-scripts/minutafs-wait-and-mount > .minutafs-wait-and-mount.tmp
	install -m 755 .minutafs-wait-and-mount.tmp "$(DESTDIR)$(LIBEXECDIR)/minutafs-wait-and-mount"
	sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@LIBEXECDIR@|$(LIBEXECDIR)|g' mount-scripts/mount.fuse.minutafs > .mount.fuse.minutafs.tmp
	install -m 755 .mount.fuse.minutafs.tmp "$(DESTDIR)$(SBINDIR)/mount.fuse.minutafs"
	sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@LIBEXECDIR@|$(LIBEXECDIR)|g' 'mount-scripts/minutafs@.service' > .minutafs.service.tmp
	install -m 644 .minutafs.service.tmp "$(DESTDIR)$(USERUNITDIR)/minutafs@.service"
	rm -f .minutafs-wait-and-mount.tmp .mount.fuse.minutafs.tmp .minutafs.service.tmp
	install -m 644 docs/minutafs.1 "$(DESTDIR)$(MANDIR)/minutafs.1"
	@if [ -n "$(MOUNT_HELPER_LINK)" ] && [ -z "$(DESTDIR)" ] && [ -w "$$(dirname $(MOUNT_HELPER_LINK))" ] \
		&& [ "$(SBINDIR)/mount.fuse.minutafs" != "$(MOUNT_HELPER_LINK)" ]; then \
		ln -sf "$(SBINDIR)/mount.fuse.minutafs" "$(MOUNT_HELPER_LINK)" && echo "linked $(MOUNT_HELPER_LINK)"; \
	fi
	@echo "installed minutafs in $(DESTDIR)$(BINDIR); see 'man minutafs'"

## uninstall: remove what install put under PREFIX (stores, mounts and backups are not touched)
uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/minutafs" "$(DESTDIR)$(SBINDIR)/mount.fuse.minutafs" \
		"$(DESTDIR)$(LIBEXECDIR)/minutafs-wait-and-mount" "$(DESTDIR)$(USERUNITDIR)/minutafs@.service" \
		"$(DESTDIR)$(MANDIR)/minutafs.1"
	-rmdir "$(DESTDIR)$(LIBEXECDIR)" 2>/dev/null
	@if [ -n "$(MOUNT_HELPER_LINK)" ] && [ -z "$(DESTDIR)" ] && [ -L "$(MOUNT_HELPER_LINK)" ] \
		&& [ "$$(readlink $(MOUNT_HELPER_LINK))" = "$(SBINDIR)/mount.fuse.minutafs" ]; then \
		rm -f "$(MOUNT_HELPER_LINK)" && echo "removed $(MOUNT_HELPER_LINK)"; \
	fi

## deb: minutafs_VERSION_ARCH.deb (dpkg-deb) for machines without a Swift toolchain: the Swift runtime
##      linked in (--static-swift-stdlib), what `make install PREFIX=/usr` installs, Depends worked out
##      from the libraries the binary loads (Debian packages only); then tools/test-deb tries it
deb: deps
	rm -rf .build/deb-root
	$(MAKE) --no-print-directory install PREFIX=/usr DESTDIR="$(CURDIR)/.build/deb-root" \
		RELEASE_FLAGS="--static-swift-stdlib --scratch-path .build/static"
	@depends=$$(tools/deb-depends .build/deb-root/usr/bin/minutafs) || exit 1; \
	mkdir -p .build/deb-root/DEBIAN && \
	printf '%s\n' "Package: minutafs" "Version: $(VERSION)" "Architecture: $(DEB_ARCH)" \
		"Maintainer: minutafs developers <minutafs@example.invalid>" "Section: utils" "Priority: optional" \
		"Depends: fuse3, $$depends" \
		"Installed-Size: $$(du -sk .build/deb-root/usr | cut -f1)" \
		"Description: mount a Minuta time tracker store as JSON and image files" \
		" minutafs serves a folder of Automerge documents (the Minuta app's store, kept in step by a" \
		" sync tool) as one JSON file per record; edits become Automerge operations." \
		> .build/deb-root/DEBIAN/control && \
	dpkg-deb --root-owner-group --build .build/deb-root "$(DEB)" && \
	tools/test-deb "$(DEB)"

## clean: remove build products
clean:
	rm -rf .build
