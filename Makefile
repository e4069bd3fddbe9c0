# tick — build, demo, test, install and package.
# Every build target installs libinotifytools0-dev when missing.
SWIFT ?= swift
# The demo runs on the sample store's own date (its tasks are dated around
# it), so it shows what the README's tour describes on any day.
DEMO_NOW = 2026-11-21T09:00:00Z
DEMO_ENV = TICK_NOW=$(DEMO_NOW) TZ=UTC

# ---- Install layout (GNU conventions; DESTDIR is honoured everywhere) ----
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
DOCDIR ?= $(DATADIR)/doc/tick
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
ZSHCOMPDIR ?= $(DATADIR)/zsh/site-functions
FISHCOMPDIR ?= $(DATADIR)/fish/vendor_completions.d
# systemd looks for user units in ~/.local/share/systemd/user, not ~/.local/lib.
ifeq ($(PREFIX),$(HOME)/.local)
SYSTEMDUSERDIR ?= $(DATADIR)/systemd/user
else
SYSTEMDUSERDIR ?= $(PREFIX)/lib/systemd/user
endif
APPLICATIONSDIR ?= $(DATADIR)/applications
# The list of installed files (without DESTDIR), written by `install` and
# read by `uninstall`: the one list both use.
MANIFEST = $(DATADIR)/tick/installed-files

# The binary to install. Default: the static release build (`make release`).
# `make install BIN=.build/debug/tick` installs a debug build without the
# release build (the tests do this).
RELEASE_BIN = .build/release/tick
BIN ?= $(RELEASE_BIN)

# Man pages: generated from the binary by swift-argument-parser's
# generate-manual tool (the one its GenerateManual plugin runs), with a pinned
# date so the same sources give the same pages; hand-written ones in Docs/man.
MAN_DATE ?= 2026-11-23
GEN = build/gen
GENERATE_MANUAL = .build/debug/generate-manual

VERSION = $(shell sed -n 's/^ *static let version = "\([^"]*\)".*/\1/p' Sources/tick/Tick.swift)
DEB_ARCH ?= $(shell dpkg --print-architecture 2>/dev/null || echo amd64)
DEB_ROOT = $(CURDIR)/build/deb/root
DEB = build/tick_$(VERSION)_$(DEB_ARCH).deb
DEB_COMPRESS ?= xz

.PHONY: deps build demo test test-release test-e2e-debug release all clean install uninstall man completions deb FORCE

deps:
	@./scripts/ensure-deps.sh

build: deps
	$(SWIFT) build

# Runs tick on the sample store (read-only commands; SampleData is not modified),
# with the clock at the sample's date (TICK_NOW), and says so.
demo: build
	@echo '# The sample store as of its own date: TICK_NOW=$(DEMO_NOW) (a Saturday), TZ=UTC'
	@echo '$$ tick --store SampleData today'
	@$(DEMO_ENV) $(SWIFT) run --skip-build tick --store SampleData today
	@echo
	@echo '$$ tick --store SampleData lists'
	@$(DEMO_ENV) $(SWIFT) run --skip-build tick --store SampleData lists

# The unit suite on the debug build (TickKit in-process, with its
# assertions), then the end-to-end suite on the static release build that
# `make install` and `make deb` ship (TICK_BIN names the binary under test):
# what users install is what is tested, once (Docs/DECISIONS.md, "make test
# runs each suite once").
test:
	@./scripts/ensure-deps.sh --test
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --filter TickKitTests
	$(MAKE) test-release

# The end-to-end suite on the debug build too (not part of `make test`).
test-e2e-debug:
	@./scripts/ensure-deps.sh --test
	$(SWIFT) build --build-tests
	@# The man page tests run it (a test cannot build it: swift test holds .build).
	$(SWIFT) build --product generate-manual
	$(SWIFT) test --skip-build --filter TickE2ETests

# The end-to-end suite against the static release build only.
test-release: release
	@# One static file: no program interpreter, no shared libraries.
	@! readelf -l $(RELEASE_BIN) | grep -q INTERP || { echo "$(RELEASE_BIN) is not statically linked" >&2; exit 1; }
	$(SWIFT) build --build-tests
	$(SWIFT) build --product generate-manual
	TICK_BIN=$(CURDIR)/$(RELEASE_BIN) $(SWIFT) test --skip-build --filter TickE2ETests

release: deps
	$(SWIFT) build -c release --static-swift-stdlib -Xswiftc -static-executable

# `make install` builds only what is missing or out of date, so that
# `make all && sudo make install` needs no swift as root. The release binary
# is built when it is missing; `make release` (or `make all`) rebuilds it
# after a change. Any other BIN must exist.
all: release man completions

ifeq ($(BIN),$(RELEASE_BIN))
$(RELEASE_BIN):
	$(MAKE) release
endif

$(GENERATE_MANUAL):
	$(SWIFT) build --product generate-manual

# ---- Generated files ($(GEN)) ----
# `make man` and `make completions` always regenerate; install regenerates
# them when BIN is newer.
MAN_STAMP = $(GEN)/man/tick.1
COMPLETIONS = $(GEN)/completions/tick.bash $(GEN)/completions/_tick $(GEN)/completions/tick.fish

man: $(BIN) $(GENERATE_MANUAL) FORCE
	rm -rf $(GEN)/man && mkdir -p $(GEN)/man
	TICK_DUMP_BIN=$(BIN) $(GENERATE_MANUAL) scripts/dump-help-ascii.sh \
		--multi-page --date $(MAN_DATE) --section 1 --output-directory $(GEN)/man
	./scripts/man-polish.sh $(GEN)/man/*.1

completions: $(BIN) FORCE
	mkdir -p $(GEN)/completions
	$(BIN) --generate-completion-script bash > $(GEN)/completions/tick.bash
	$(BIN) --generate-completion-script zsh > $(GEN)/completions/_tick
	$(BIN) --generate-completion-script fish > $(GEN)/completions/tick.fish

$(MAN_STAMP): $(BIN) scripts/man-polish.sh scripts/dump-help-ascii.sh
	$(MAKE) man

$(COMPLETIONS): $(BIN)
	$(MAKE) completions

# ---- install / uninstall ----
# Every installed file goes through install_file, which also records it in
# the manifest; uninstall removes exactly the manifest's files.
# $(call install_file,MODE,SOURCE,TARGET-PATH-WITHOUT-DESTDIR)
define install_file
	install -D -m $(1) "$(2)" "$(DESTDIR)$(3)" && echo "$(3)" >> "$(DESTDIR)$(MANIFEST).new"
endef

install: $(BIN) $(MAN_STAMP) $(COMPLETIONS)
	@mkdir -p "$$(dirname "$(DESTDIR)$(MANIFEST)")"
	@# Over an earlier install: its files go first (a page of a command that is gone, too).
	@if [ -f "$(DESTDIR)$(MANIFEST)" ]; then while IFS= read -r f; do rm -f "$(DESTDIR)$$f"; done < "$(DESTDIR)$(MANIFEST)"; fi
	@: > "$(DESTDIR)$(MANIFEST).new"
	install -D -m 755 -s "$(BIN)" "$(DESTDIR)$(BINDIR)/tick" && echo "$(BINDIR)/tick" >> "$(DESTDIR)$(MANIFEST).new"
	@set -e; for page in $(GEN)/man/*.1 Docs/man/*.[1-9]; do \
		section=$${page##*.}; name=$${page##*/}; \
		gzip -9 -n -c "$$page" > "$(GEN)/$$name.gz"; \
		install -D -m 644 "$(GEN)/$$name.gz" "$(DESTDIR)$(MANDIR)/man$$section/$$name.gz"; \
		echo "$(MANDIR)/man$$section/$$name.gz" >> "$(DESTDIR)$(MANIFEST).new"; \
		rm -f "$(GEN)/$$name.gz"; \
	done
	$(call install_file,644,$(GEN)/completions/tick.bash,$(BASHCOMPDIR)/tick)
	$(call install_file,644,$(GEN)/completions/_tick,$(ZSHCOMPDIR)/_tick)
	$(call install_file,644,$(GEN)/completions/tick.fish,$(FISHCOMPDIR)/tick.fish)
	sed -e 's|^ExecStart=.*|ExecStart=$(BINDIR)/tick watch|' \
		-e '/^# Install:/,/^#   journalctl/c\
# Installed by make install (or the tick package). Start it at login:\
#   systemctl --user daemon-reload\
#   systemctl --user enable --now tick-watch.service\
#   journalctl --user -u tick-watch -f        # one line per reindex\
# Override the store with: systemctl --user edit tick-watch\
#   [Service]\
#   Environment=TICK_STORE=%h/tasks' \
		-e 's|^Documentation=.*|Documentation=man:tick.watch(1) man:tick(1)|' \
		Docs/tick-watch.service > $(GEN)/tick-watch.service
	$(call install_file,644,$(GEN)/tick-watch.service,$(SYSTEMDUSERDIR)/tick-watch.service)
	sed -e 's|^Exec=tick |Exec=$(BINDIR)/tick |' Docs/desktop/tick-capture.desktop > $(GEN)/tick-capture.desktop
	$(call install_file,644,$(GEN)/tick-capture.desktop,$(APPLICATIONSDIR)/tick-capture.desktop)
	@set -e; for doc in Docs/*.md Docs/*.schema.json; do \
		install -D -m 644 "$$doc" "$(DESTDIR)$(DOCDIR)/$${doc##*/}"; \
		echo "$(DOCDIR)/$${doc##*/}" >> "$(DESTDIR)$(MANIFEST).new"; \
	done
	@echo "$(MANIFEST)" >> "$(DESTDIR)$(MANIFEST).new"
	@mv "$(DESTDIR)$(MANIFEST).new" "$(DESTDIR)$(MANIFEST)"
	@echo "installed $$(wc -l < "$(DESTDIR)$(MANIFEST)") files under $(DESTDIR)$(PREFIX) (list: $(DESTDIR)$(MANIFEST))"

uninstall:
	@test -f "$(DESTDIR)$(MANIFEST)" || { echo "tick: error: no $(DESTDIR)$(MANIFEST): tick is not installed under $(DESTDIR)$(PREFIX) (give the PREFIX and DESTDIR used for make install)" >&2; exit 1; }
	@set -e; while IFS= read -r f; do rm -f "$(DESTDIR)$$f"; done < "$(DESTDIR)$(MANIFEST)"
	@rmdir "$(DESTDIR)$(DATADIR)/tick" "$(DESTDIR)$(DOCDIR)" 2>/dev/null || true
	@echo "removed tick from $(DESTDIR)$(PREFIX)"

# ---- Debian package ----
# Stages `make install PREFIX=/usr` into $(DEB_ROOT) and packs that tree.
deb: $(BIN) $(MAN_STAMP) $(COMPLETIONS)
	rm -rf $(DEB_ROOT)
	$(MAKE) install PREFIX=/usr DESTDIR=$(DEB_ROOT) BIN=$(BIN)
	@# dpkg keeps its own list of the package's files; `make uninstall` must
	@# never act on a packaged tick.
	rm "$(DEB_ROOT)/usr/share/tick/installed-files" && rmdir "$(DEB_ROOT)/usr/share/tick"
	./scripts/deb-control.sh $(DEB_ROOT) $(VERSION) $(DEB_ARCH)
	dpkg-deb --build --root-owner-group -Z$(DEB_COMPRESS) $(DEB_ROOT) $(DEB)
	@echo "built $(DEB)"

clean:
	rm -rf .build build

FORCE:
