#!/usr/bin/env bash
# Prepares, on this (Debian 12) machine, what bench/device_run.sh carries to the machine with the NVIDIA H200, in the
# repository's root, ignored by git through .git/info/exclude:
#   .gl        Debian's Vulkan and GL loader packages with vulkan-validationlayers (unpacked there into /)
#   .devlib    spinegpu and the draw_a_crowd and draw_on_your_device samples built in build-dev (libstdc++ linked
#              in), the shared libraries of this machine they need that the device lacks (libsimdjson, libtbb), the
#              close-up skeletons of bench/closeups (in closeups/: made with Node, which the device lacks), with
#              BASE=COMMIT the same build of COMMIT as spinegpu-base (without BASE, a spinegpu-base already there
#              stays), and with TESTS=1 the GPU test suite (spinegpu_gpu_tests)
#   .examples  a copy of the Spine examples (SPINE_EXAMPLES, default ../shared/spine-examples)
# Then send, through the device tool: `bash bench/device_run.sh WHAT` with carry [".gl", ".devlib", ".examples"].
#   bash bench/device_prepare.sh            (BASE=b7295c0 bash bench/device_prepare.sh: a base build too)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

for path in /.gl/ /.devlib/ /.examples/ /build-dev/; do
  grep -qxF "$path" .git/info/exclude 2>/dev/null || echo "$path" >> .git/info/exclude
done

# The loaders, for amd64 whatever this machine is (the device is x86-64).
if ! ls .gl/vulkan-validationlayers_*.deb >/dev/null 2>&1; then
  mkdir -p .gl /tmp/amd64/partial
  apt=(-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64)
  apt-get "${apt[@]}" update >/dev/null
  (cd .gl && apt-get "${apt[@]}" download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2 \
                                          vulkan-validationlayers >/dev/null)
fi

# A release build of spinegpu alone, from the tree at `source`, into `source`/build-dev.
build() {
  local source=$1
  cmake -S "$source" -B "$source/build-dev" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSPINEGPU_TESTS=OFF \
        -DSPINEGPU_BENCH=OFF "-DCMAKE_EXE_LINKER_FLAGS=-static-libstdc++ -static-libgcc" >/dev/null
  cmake --build "$source/build-dev" --target spinegpu >/dev/null
}

mkdir -p .devlib
build "$root"
cmake --build build-dev --target draw_a_crowd draw_on_your_device >/dev/null
cp build-dev/spinegpu .devlib/spinegpu
cp build-dev/samples/draw_a_crowd build-dev/samples/draw_on_your_device .devlib/
node bench/closeups/make_fixtures.mjs .devlib/closeups
for lib in libsimdjson libtbb; do
  cp -L "$(ldd build-dev/spinegpu | awk -v l="$lib" '$1 ~ "^" l "\\." {print $3}')" .devlib/
done
# With TESTS=1, the GPU test suite too (spinegpu_gpu_tests, for `bash bench/device_run.sh gtests`), built in
# build-dev-tests, the SPIR-V its layout tests reflect (.devlib/shaders) and the SPIRV-Cross library they read it with.
if [ -n "${TESTS:-}" ]; then
  grep -qxF /build-dev-tests/ .git/info/exclude || echo /build-dev-tests/ >> .git/info/exclude
  cmake -S "$root" -B "$root/build-dev-tests" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSPINEGPU_TESTS=ON \
        -DSPINEGPU_BENCH=OFF "-DCMAKE_EXE_LINKER_FLAGS=-static-libstdc++ -static-libgcc" >/dev/null
  cmake --build build-dev-tests --target spinegpu_gpu_tests >/dev/null
  cp build-dev-tests/tests/spinegpu_gpu_tests .devlib/
  # The layout tests reflect the compiled shaders, found through SPINEGPU_SHADER_DIR on the device.
  rm -rf .devlib/shaders && mkdir -p .devlib/shaders && cp build-dev-tests/shaders/*.spv .devlib/shaders/
  cp -L "$(ldd build-dev-tests/tests/spinegpu_gpu_tests | awk '$1 ~ /^libspirv-cross-c-shared\./ {print $3}')" .devlib/
fi
if [ -n "${BASE:-}" ]; then
  worktree=/tmp/spinegpu-base-$BASE
  [ -d "$worktree" ] || git worktree add -f "$worktree" "$BASE" >/dev/null
  build "$worktree"
  cp "$worktree/build-dev/spinegpu" .devlib/spinegpu-base
  echo "base built in $worktree (git worktree remove --force $worktree when done)"
fi

examples=${SPINE_EXAMPLES:-$root/../shared/spine-examples}
[ -d .examples ] || cp -r "$examples" .examples
du -sh .gl .devlib .examples
