# The habits of a change. `make check` before every commit: gofmt, go vet,
# the linters and the tests. .ci/run is the whole of CI (it adds the race
# detector, every benchmark once, the fuzzers, the browser tests, the load
# harness and the MCP Inspector).
#
# PKGS narrows a target to some packages: make test PKGS=./handlers/...
# BENCH picks benchmarks:                   make bench BENCH=Chain PKGS=./handlers/
# FUZZTIME is each fuzz target's budget:    make fuzz FUZZTIME=30s

PKGS     ?= ./...
BENCH    ?= .
FUZZTIME ?= 5s

# The PostgreSQL and Redis the store and limiter suites use (they skip
# without them); the same defaults as .ci/run.
FI_TEST_POSTGRES ?= postgres://postgres@127.0.0.1:5432/test?sslmode=disable
FI_TEST_REDIS    ?= redis://127.0.0.1:6379/15
export FI_TEST_POSTGRES FI_TEST_REDIS

GOLANGCI_LINT_VERSION := 2.15.0
GOLANGCI_LINT         := $(shell go env GOPATH)/bin/golangci-lint
E2E                   := handlers/web/e2e

.PHONY: check fmt vet lint lint-go lint-js test race bench fuzz e2e fcp build ci oracle p99

check: fmt vet lint test

fmt:
	@out=$$(gofmt -l $$(git ls-files '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	go vet $(PKGS)

lint: lint-go lint-js

# golangci-lint at the version .ci/run pins, built once into GOPATH/bin
# (about five minutes); .golangci.yml says which linters run.
lint-go:
	@$(GOLANGCI_LINT) version 2>/dev/null | grep -q "has version $(GOLANGCI_LINT_VERSION) " || \
		GOFLAGS= go install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@v$(GOLANGCI_LINT_VERSION)
	$(GOLANGCI_LINT) run $(PKGS)

# ESLint and tsc --checkJs over the web app's modules, from the browser
# tests' devDependencies.
lint-js: $(E2E)/node_modules
	$(E2E)/node_modules/.bin/eslint -c $(E2E)/eslint.config.js embed/web/static $(E2E)
	$(E2E)/node_modules/.bin/tsc -p $(E2E)/tsconfig.json

$(E2E)/node_modules: $(E2E)/package-lock.json
	cd $(E2E) && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

test:
	go test -count=1 $(PKGS)

race:
	go test -race -short -count=1 $(PKGS)

bench:
	go test -run '^$$' -bench '$(BENCH)' -benchmem $(PKGS)

fuzz:
	FUZZTIME=$(FUZZTIME) .ci/fuzz

# The latency goal, on a quiet machine of two CPUs or more: the mixed
# workload's p99 at 80% of fiplan's one-core peak, pinned, over the
# harness's full rounds (3 of 10 s); fails when it is 5 ms or more. About
# four minutes; quote its last line in the commit.
p99:
	go run ./bench/load -routes mixed -p99-goal 5ms

# The browser tests: playwright-core driving the system's Chromium
# (CHROMIUM=/path overrides /usr/bin/chromium).
e2e: $(E2E)/node_modules
	cd $(E2E) && node run.mjs

# The first contentful paint of / on a freshly started fiplan: the median
# of loads in fresh browser contexts, with the browser's start-up and its
# first load apart (RUNS=9 by default). The browser suite prints the same.
fcp: $(E2E)/node_modules
	cd $(E2E) && node fcp.mjs

# A binary stamped with its commit (fiplan -version), for this machine.
build:
	go build -o fiplan ./cmd/fiplan

ci:
	.ci/run

# Owl's answers for bench/oracle/owl (Debian's python3 with python3-numpy,
# -pandas, -scipy, -openpyxl, -toml): Owl unpacked at the pinned commit
# into OWL_DIR, from OWL_GIT (a clone of github.com/mdlacasse/Owl; cloned
# there when missing).
OWL_COMMIT := 9dedc12b8ce3bb4fa0c862bf750e948e36f9899b
OWL_DIR    ?= /tmp/owl
OWL_GIT    ?= $(OWL_DIR)/git

oracle:
	@test -d $(OWL_GIT) || git clone --bare -q https://github.com/mdlacasse/Owl $(OWL_GIT)
	@test -f $(OWL_DIR)/$(OWL_COMMIT)/src/owlplanner/plan.py || { mkdir -p $(OWL_DIR)/$(OWL_COMMIT) && \
		git --git-dir=$(OWL_GIT) archive $(OWL_COMMIT) | tar -x -C $(OWL_DIR)/$(OWL_COMMIT); }
	OWL_COMMIT=$(OWL_COMMIT) OWL_SRC=$(OWL_DIR)/$(OWL_COMMIT)/src /usr/bin/python3 bench/oracle/owl/gen_owl.py
