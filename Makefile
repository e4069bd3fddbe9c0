# tick — build, demo and test. Every target installs libinotifytools0-dev when missing.
SWIFT ?= swift
DEMO_ENV = NO_COLOR= TICK_STORE=

.PHONY: deps build demo test release clean

deps:
	@./scripts/ensure-deps.sh

build: deps
	$(SWIFT) build

# Runs tick on the sample store (read-only commands; SampleData is not modified).
demo: build
	@echo '$$ tick --store SampleData today'
	@$(SWIFT) run --skip-build tick --store SampleData today
	@echo
	@echo '$$ tick --store SampleData lists'
	@$(SWIFT) run --skip-build tick --store SampleData lists

test:
	@./scripts/ensure-deps.sh --test
	$(SWIFT) build
	$(SWIFT) test

release: deps
	$(SWIFT) build -c release --static-swift-stdlib -Xswiftc -static-executable

clean:
	rm -rf .build
