#!/usr/bin/env bash
# Blend modes, dark colour and both page kinds against the official formulas (spine-webgl's premultiplied pipeline):
# tests/render_oracle/selftest.mjs draws squares in slots of every blend mode, with and without a dark colour, from a
# straight and a premultiplied page, over an opaque and a transparent background, and checks each square's centre
# within 2/255 (3/255 where translucent). First the official renderer as the harness reads it, then `spinegpu render`
# through every path, validation on.
#
#   bash render_blend_modes_match_the_official_formulas.sh SPINEGPU_BIN EXAMPLES_DIR BUILD_DIR      (exit 77: skipped)
set -uo pipefail
bin=$1 build=$3
here=$(cd "$(dirname "$0")/../render_oracle" && pwd)
source "$here/require_packages.sh"
require_render_oracle "$build"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
node "$here/selftest.mjs" > "$work/reference.txt" || failed=1
grep -c '^ok' "$work/reference.txt" | sed 's/^/official renderer: ok cases /'
grep '^FAIL' "$work/reference.txt"
for path in gpu gpu-tiles cpu gpu-vertex; do
  if ! node "$here/selftest.mjs" --spinegpu "$bin" --path "$path" > "$work/$path.txt" 2> "$work/$path.err"; then
    case $(cat "$work/$path.err") in
      *"no Vulkan"*|*"no usable Vulkan device"*|*"VK_LAYER_KHRONOS_validation is not installed"*)
      echo "skipped: $(head -c 300 "$work/$path.err")"; exit 77 ;; esac
    failed=1
  fi
  echo "spinegpu --path $path: ok cases $(grep -c '^ok' "$work/$path.txt")"
  grep '^FAIL' "$work/$path.txt"
  cat "$work/$path.err"
done
exit $failed
