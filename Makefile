# The two set-up commands of the README:
#   make demo   install dependencies if missing, build, run the bundled default
#   make test   install dependencies if missing, build, run the whole test suite
# and, for long runs:
#   make fast   an optimised gputlm in build-fast/ (link-time and profile-guided; same results)
# and, to check the code:
#   make sanitize   the test suite built with AddressSanitizer and UBSan in build-asan/ (any
#                   finding, a leak or undefined behaviour included, fails its test)
# and, to install:
#   make install    gputlm in $(PREFIX)/bin, its platforms, experiments, samples and plot
#                   script in $(PREFIX)/share/gputlm, its Python package for python3
#                   (PREFIX=/usr/local; DESTDIR=... stages the tree elsewhere)
MAKEFLAGS += --no-print-directory
BUILD     ?= build
JOBS      ?= $(shell nproc)
CMAKE_ARGS ?=
ifeq ($(CI),true)
  CMAKE_ARGS += -DGPUTLM_WERROR=ON
endif
DEMO_PLATFORM ?= yaml/volta.yaml
DEMO_TRACE    ?= traces/samples/vectoradd

PREFIX    ?= /usr/local

.PHONY: all deps configure build gputlm demo test fast sanitize clean install

all: build

deps:
	@./scripts/install-deps.sh

# A new build folder uses Ninja (scripts/install-deps.sh installs it), which keeps both
# cores busy across libraries; an existing one keeps the generator it was made with.
configure: deps
	@cmake -S . -B $(BUILD) $$([ -f $(BUILD)/CMakeCache.txt ] || ! command -v ninja >/dev/null \
	  || echo -G Ninja) $(CMAKE_ARGS) >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

gputlm: configure
	@cmake --build $(BUILD) -j $(JOBS) --target gputlm

demo: gputlm
	@./$(BUILD)/sc_main/gputlm run $(DEMO_PLATFORM) $(DEMO_TRACE) --stats $(BUILD)/demo-stats.json
	@echo "  statistics written to $(BUILD)/demo-stats.json"

# One test more than cores: a test waiting for Slurm or for a child process leaves its core
# to the next (docs/building.md).
test: build
	@cd $(BUILD) && ctest --output-on-failure -j $$(( $(JOBS) + 1 ))

install: gputlm
	@cmake --install $(BUILD) --prefix $(PREFIX)

fast: deps
	@JOBS=$(JOBS) ./scripts/build-fast.sh build-fast

sanitize: deps
	@cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DGPUTLM_SANITIZE=ON -DGPUTLM_BENCH=OFF \
	  $(CMAKE_ARGS) >/dev/null
	@cmake --build build-asan -j $(JOBS)
	@cd build-asan && UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	  ctest --output-on-failure -j $(JOBS)

clean:
	@rm -rf $(BUILD)
