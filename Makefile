# The two set-up commands of the README:
#   make demo   install dependencies if missing, build, run the bundled default
#   make test   install dependencies if missing, build, run the whole test suite
# and, for long runs:
#   make fast   an optimised gputlm in build-fast/ (link-time and profile-guided; same results)
MAKEFLAGS += --no-print-directory
BUILD     ?= build
JOBS      ?= $(shell nproc)
CMAKE_ARGS ?=
ifeq ($(CI),true)
  CMAKE_ARGS += -DGPUTLM_WERROR=ON
endif
DEMO_PLATFORM ?= yaml/volta.yaml
DEMO_TRACE    ?= traces/samples/vectoradd

.PHONY: all deps configure build gputlm demo test fast clean

all: build

deps:
	@./scripts/install-deps.sh

configure: deps
	@cmake -S . -B $(BUILD) $(CMAKE_ARGS) >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

gputlm: configure
	@cmake --build $(BUILD) -j $(JOBS) --target gputlm

demo: gputlm
	@./$(BUILD)/sc_main/gputlm run $(DEMO_PLATFORM) $(DEMO_TRACE) --stats $(BUILD)/demo-stats.json
	@echo "  statistics written to $(BUILD)/demo-stats.json"

test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

fast: deps
	@JOBS=$(JOBS) ./scripts/build-fast.sh build-fast

clean:
	@rm -rf $(BUILD)
