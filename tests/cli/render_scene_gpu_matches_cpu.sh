#!/usr/bin/env bash
# A crowd of five skeleton types overlapping each other (tests/scenes/crowd-mixed-types.json: layers, flips, tints,
# skins, clipping, physics, straight and premultiplied pages): `spinegpu render --scene` through the GPU path, through
# the tile rasterizer and through the CPU path give the same pixels (at most 0.1% of covered pixels off by more than
# 2/255) on every frame, which proves the order across types; one character outside the view is culled; the
# timings leave out the two frame slots' first frames. Validation layer on, zero messages allowed.
#   bash render_scene_gpu_matches_cpu.sh SPINEGPU EXAMPLES_DIR BUILD_DIR      (exit 77: skipped)
set -uo pipefail
bin=$1 examples=${SPINE_EXAMPLES:-$2} build=$3
here=$(cd "$(dirname "$0")" && pwd)
command -v node >/dev/null || { echo "skipped: node is not installed"; exit 77; }
[ -d "$examples/spineboy" ] || { echo "skipped: Spine example exports not found at $examples"; exit 77; }
oracle=$here/../render_oracle
[ -d "$oracle/node_modules/pngjs" ] || npm ci --prefix "$oracle" --no-audit --no-fund --loglevel=error >/dev/null 2>&1 || \
  { echo "skipped: npm ci in $oracle failed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
examples=$(cd "$examples" && pwd)
sed "s|EXAMPLES/|$examples/|g" "$here/../scenes/crowd-mixed-types.json" > "$work/scene.json"
for path in gpu gpu-tiles cpu; do
  out=$("$bin" render --scene "$work/scene.json" --frames 3 --path $path --validation --out "$work/$path" 2>&1)
  status=$?
  case $out in *"no Vulkan"*|*"no usable Vulkan device"*) echo "skipped: $out"; exit 77 ;; esac
  [ $status -eq 0 ] || { echo "FAIL: render --scene --path $path: $out"; exit 1; }
  echo "$out" | tail -n 1
  # The raptor placed far to the right is outside the view: neither packed nor drawn.
  case $out in *"(1 culled)"*) ;; *) echo "FAIL: --path $path: expected exactly 1 culled character"; exit 1 ;; esac
  # Two frames in flight: the first two frames allocate their slots' buffers and are left out of the timings.
  case $out in
    *"per frame (median of the last 1)"*) ;;
    *) echo "FAIL: --path $path: expected frame 3 alone timed"; exit 1 ;;
  esac
done
failed=0
for path in gpu gpu-tiles; do
  for frame in 0001 0002 0003; do
    echo -n "$path frame $frame: "
    node "$oracle/compare_images.mjs" "$work/$path/frame-$frame.png" "$work/cpu/frame-$frame.png" --threshold 2 \
      --max-fraction 0.001 --background 202830ff || failed=1
    echo
  done
done
# The frames must show the crowd, not an empty background.
node -e '
const {PNG} = require(process.argv[1] + "/node_modules/pngjs");
const png = PNG.sync.read(require("fs").readFileSync(process.argv[2]));
let covered = 0;
for (let i = 0; i < png.data.length; i += 4)
  if (png.data[i] !== 0x20 || png.data[i + 1] !== 0x28 || png.data[i + 2] !== 0x30) covered++;
console.log(`covered pixels in frame 1: ${covered}`);
process.exit(covered > 20000 ? 0 : 1);' "$oracle" "$work/gpu/frame-0001.png" || failed=1
exit $failed
