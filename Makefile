# GPU Atlas. `make serve` builds and serves the site; `make test` runs every test.
GO ?= go
ADDR ?= 127.0.0.1:8080
OUT ?= public

.PHONY: build serve check test test-fast test-future test-js bench bench-guard bench-hugo fuzz vet lint fmt clean

build:
	$(GO) run ./generator build -out $(OUT)

serve:
	$(GO) run ./generator serve -out $(OUT) -addr $(ADDR)

check:
	$(GO) run ./generator check

# Unit, golden, fuzz-seed and browser tests, and the page scripts' unit
# tests. Browser tests need chromium (Debian: apt-get install -y chromium);
# .ci/run installs it. This is what CI runs.
test: vet lint test-js node_modules/axe-core test-future
	$(GO) test -timeout 45m ./...

# The tests hold on any day: the fast tier again with "today" two years
# ahead (SOURCE_DATE_EPOCH is the date every build, and every test that
# does not inject its own clock, takes as today), uncached.
test-future:
	SOURCE_DATE_EPOCH=$$(( $$(date +%s) + 730*86400 )) $(GO) test -short -count=1 -timeout 20m ./...

# The fast loop, about two minutes on 2 cores: everything but the browser
# tier (go test -short: the browser tests and the slowest builds skip
# themselves), vet, gofmt and the page scripts' unit tests.
test-fast: vet test-js
	$(GO) test -short -timeout 20m ./...

# The page scripts' shared helpers, with Node's test runner (no browser).
test-js:
	node --test static/js/test/

# axe-core for the accessibility tests and vnu-jar (the Nu HTML checker,
# run on the system's Java) for the validity test, pinned by
# package-lock.json; --ignore-scripts keeps vnu-jar from fetching a Java.
node_modules/axe-core: package.json package-lock.json
	npm ci --ignore-scripts --no-audit --no-fund
	@touch $@

# staticcheck and a dead-code scan, at pinned versions (go run fetches
# them from the module proxy into their own module graph: go.mod stays the
# generator's). deadcode -test: no function that nothing, not even a test,
# reaches.
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2
DEADCODE ?= golang.org/x/tools/cmd/deadcode@v0.52.0
lint:
	$(GO) run $(STATICCHECK) ./...
	@out="$$($(GO) run $(DEADCODE) -test ./...)"; test -z "$$out" || (echo "unreachable functions:"; echo "$$out"; exit 1)

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l generator)" || (echo "gofmt would change:"; gofmt -l generator; exit 1)

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...
	$(MAKE) bench-guard

# The speed guard: the site scaled K times (4: about 26,000 pages, and
# about 40 minutes on 2 cores with the cold compression caches) built by
# this checkout and by BASE (a revision: HEAD~1 unless given, e.g.
# make bench-guard BASE=main), in turns, from a worktree of BASE; fails
# when this checkout is more than GUARD times slower
# (site.BenchmarkAgainstBase).
BASE ?= HEAD~1
GUARD ?= 1.10
K ?= 4
bench-guard:
	@dir="$$(mktemp -d)/base"; git worktree add --detach -q "$$dir" $(BASE) && \
	GPU_ATLAS_BASE="$$dir" GPU_ATLAS_GUARD=$(GUARD) GPU_ATLAS_K=$(K) $(GO) test -run '^$$' -bench BenchmarkAgainstBase -benchtime 1x -timeout 60m ./generator/internal/site; \
	rc=$$?; git worktree remove --force "$$dir"; exit $$rc

# The site against Hugo: the site scaled K times built by this checkout
# and the same pages built by Hugo (HUGO_VERSION, installed with go
# install into a temporary directory unless HUGO names a hugo binary), in
# turns; prints the ratios x-hugo-plain and x-hugo-default
# (site.BenchmarkAgainstHugo). Hugo renders the generator's own pages, so
# its time is a floor for a Hugo port of the site.
HUGO_VERSION ?= v0.140.2
bench-hugo:
	@hugo="$(HUGO)"; if [ -z "$$hugo" ]; then bin="$$(mktemp -d)"; \
	GOFLAGS= GOBIN="$$bin" $(GO) install github.com/gohugoio/hugo@$(HUGO_VERSION) || exit 1; hugo="$$bin/hugo"; fi; \
	GPU_ATLAS_HUGO="$$hugo" GPU_ATLAS_K=$(K) $(GO) test -run '^$$' -bench BenchmarkAgainstHugo -benchtime 1x -timeout 90m ./generator/internal/site

# Short fuzzing runs of every fuzz target (longer: make fuzz FUZZTIME=10m).
FUZZTIME ?= 20s
fuzz:
	$(GO) test -run '^$$' -fuzz FuzzScan -fuzztime $(FUZZTIME) ./generator/internal/tomlpos
	$(GO) test -run '^$$' -fuzz FuzzParse -fuzztime $(FUZZTIME) ./generator/internal/content
	$(GO) test -run '^$$' -fuzz FuzzEstimate -fuzztime $(FUZZTIME) ./generator/internal/sizing
	$(GO) test -run '^$$' -fuzz FuzzLinkAllowed -fuzztime $(FUZZTIME) ./generator/internal/safetext
	$(GO) test -run '^$$' -fuzz FuzzParse -fuzztime $(FUZZTIME) ./generator/internal/hfconfig
	$(GO) test -run '^$$' -fuzz FuzzParse -fuzztime $(FUZZTIME) ./generator/internal/jsonpos

# Every fuzz target for 10 minutes (run by hand, not in CI); a crasher is
# kept under the package's testdata/fuzz/ as a regression seed.
.PHONY: fuzz-long
fuzz-long:
	$(MAKE) fuzz FUZZTIME=10m

clean:
	rm -rf $(OUT)

# Lighthouse (npm lighthouse, pinned by package.json) against Debian's
# chromium on the key pages of both editions: TestLighthouse, which make
# test runs too, printing the scores per page and keeping the JSON reports
# under $(LH_OUT).
LH_OUT ?= lighthouse-reports
.PHONY: lighthouse
lighthouse: node_modules/axe-core
	GPU_ATLAS_LIGHTHOUSE_OUT=$(abspath $(LH_OUT)) $(GO) test -count=1 -v -run '^TestLighthouse$$' ./generator/internal/browsertest
