# spinegpu: the two commands of the README, and what they need.
#   make run   installs what is missing, builds, runs the demo
#   make test  installs what is missing, builds, runs every test (unit, CLI, oracle, sanitizer, fuzz smoke)
#   make deps  installs only

BUILD      ?= build
BUILD_ASAN ?= build-asan
BUILD_FUZZ ?= build-fuzz
JOBS       ?= $(shell nproc)
CMAKE_FLAGS ?=
WERROR     := $(if $(CI),ON,OFF)

# Debian 12 packages. Build: compiler, CMake, Ninja, libraries, Vulkan headers and glslc, GLFW (the window of
# `spinegpu view`, loaded at run time). Tests: GoogleTest, clang + libFuzzer runtime, lavapipe + validation layer,
# SPIRV-Cross (shader reflection), an X server with xauth, xwd and xdotool (the window's test), Node for the oracle
# (only when no node is installed already).
DEPS := g++ cmake ninja-build pkg-config libsimdjson-dev libstb-dev libtbb-dev libgtest-dev libbenchmark-dev \
        clang-14 libclang-rt-14-dev libglfw3-dev \
        libvulkan-dev glslc mesa-vulkan-drivers vulkan-validationlayers libspirv-cross-c-shared-dev python3 \
        xvfb xauth x11-apps xdotool
NODE_DEPS := nodejs npm

.PHONY: all deps oracle-deps build run test test-unit test-asan test-fuzz clean

all: build

deps:
	@missing=""; \
	for p in $(DEPS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || missing="$$missing $(NODE_DEPS)"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	  else \
	    echo "missing packages; run as root:"; echo "  apt-get update && apt-get install -y$$missing"; exit 1; \
	  fi; \
	fi

# The oracles' pinned official runtime and renderer, installed before the tests run (an oracle test can install it
# itself, but parallel tests racing on one npm ci are flaky). Without registry access the oracle tests skip, which
# fails make test.
oracle-deps: deps
	@if [ ! -d tests/oracle/node_modules/@esotericsoftware/spine-core ]; then \
	  echo "installing the oracle runtime: npm ci --prefix tests/oracle"; \
	  npm ci --prefix tests/oracle --no-audit --no-fund --loglevel=error || \
	    echo "warning: npm ci failed; the oracle tests will skip, and make test fail on their skips"; \
	fi
	@if [ ! -d tests/render_oracle/node_modules/@esotericsoftware/spine-canvaskit ]; then \
	  echo "installing the official renderer: npm ci --prefix tests/render_oracle"; \
	  npm ci --prefix tests/render_oracle --no-audit --no-fund --loglevel=error || \
	    echo "warning: npm ci failed; the official renderer's tests will skip, and make test fail on their skips"; \
	fi

$(BUILD)/build.ninja: | deps
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DSPINEGPU_WERROR=$(WERROR) $(CMAKE_FLAGS)

build: deps $(BUILD)/build.ninja
	cmake --build $(BUILD) -j $(JOBS)

run: build
	./$(BUILD)/spinegpu demo

test: test-unit test-asan test-fuzz

# Each test run then fails on a skip that tests/expected_skips.txt does not allow (a missing prerequisite).
test-unit: build oracle-deps
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) --output-junit ctest-results.xml
	python3 tests/check_skips.py $(BUILD)/ctest-results.xml unit tests/expected_skips.txt

# Loaders and runtime under AddressSanitizer + UndefinedBehaviorSanitizer.
test-asan: deps
	cmake -S . -B $(BUILD_ASAN) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSPINEGPU_SANITIZE=ON \
	  -DSPINEGPU_TOOLS=OFF -DSPINEGPU_BENCH=OFF -DSPINEGPU_SAMPLES=OFF -DSPINEGPU_WERROR=$(WERROR)
	cmake --build $(BUILD_ASAN) -j $(JOBS)
	cd $(BUILD_ASAN) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --output-on-failure -j $(JOBS) --output-junit ctest-results.xml
	python3 tests/check_skips.py $(BUILD_ASAN)/ctest-results.xml asan tests/expected_skips.txt

# libFuzzer targets (clang 14): the parsers, the page image decoder, the runtime and the GPU layer's CPU side on
# whatever the loaders accept; each run briefly from its seeds.
test-fuzz: deps
	CC=clang-14 CXX=clang++-14 cmake -S . -B $(BUILD_FUZZ) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DSPINEGPU_FUZZ=ON -DSPINEGPU_TOOLS=OFF -DSPINEGPU_TESTS=OFF -DSPINEGPU_BENCH=OFF \
	  -DSPINEGPU_SAMPLES=OFF
	cmake --build $(BUILD_FUZZ) -j $(JOBS)
	cd $(BUILD_FUZZ) && ctest --output-on-failure --output-junit ctest-results.xml
	python3 tests/check_skips.py $(BUILD_FUZZ)/ctest-results.xml fuzz tests/expected_skips.txt

clean:
	rm -rf $(BUILD) $(BUILD_ASAN) $(BUILD_FUZZ)
