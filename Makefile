# minutafs: build, test and set-up targets. See README.md.

SWIFT ?= swift
# Debian packages the build and the tests need: libfuse3 and its tools, pkg-config, zlib, and the
# programs the mount tests drive through the mount (vim, nano, rsync, jq, python3).
DEBIAN_PACKAGES := libfuse3-dev fuse3 pkg-config zlib1g-dev vim nano rsync jq python3

.PHONY: build test deps bench clean

## build: release build of the minutafs binary (.build/release/minutafs)
build: deps
	$(SWIFT) build -c release

## test: the whole test suite; builds the binary first, because the command tests run it
test: deps
	$(SWIFT) build
	$(SWIFT) test

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

## bench: load and save timings of the reference documents (release build)
bench: deps
	$(SWIFT) run -c release minutafs-bench

## clean: remove build products
clean:
	rm -rf .build
