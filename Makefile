# GPU Atlas. `make serve` builds and serves the site; `make test` runs every test.
GO ?= go
ADDR ?= 127.0.0.1:8080
OUT ?= public

.PHONY: build serve check test bench fuzz vet fmt clean

build:
	$(GO) run ./generator build -out $(OUT)

serve:
	$(GO) run ./generator serve -out $(OUT) -addr $(ADDR)

check:
	$(GO) run ./generator check

# Unit, golden, fuzz-seed and browser tests. Browser tests need chromium
# (Debian: apt-get install -y chromium); .ci/run installs it.
test: vet
	$(GO) test ./...

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l generator)" || (echo "gofmt would change:"; gofmt -l generator; exit 1)

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# Short fuzzing runs of every fuzz target (longer: make fuzz FUZZTIME=10m).
FUZZTIME ?= 20s
fuzz:
	$(GO) test -run '^$$' -fuzz FuzzScan -fuzztime $(FUZZTIME) ./generator/internal/tomlpos
	$(GO) test -run '^$$' -fuzz FuzzParse -fuzztime $(FUZZTIME) ./generator/internal/content
	$(GO) test -run '^$$' -fuzz FuzzEstimate -fuzztime $(FUZZTIME) ./generator/internal/sizing

clean:
	rm -rf $(OUT)
