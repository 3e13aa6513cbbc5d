#!/usr/bin/env bash
# Pages are sampled with their atlas filters, on the gpu, gpu-tiles and cpu paths. Copies of spineboy's premultiplied
# atlas with other filters (the examples all say `filter: Linear, Linear`):
# 1. `Nearest, Nearest`: matches the official renderer sampling nearest (at most 2% of covered pixels off by more
#    than 24/255); the same pose from the Linear atlas is more than 2% off that reference.
# 2. `MipMapLinearLinear, Linear` at about 1/12 scale: the official renderer cannot be the reference (CanvasKit's
#    drawVertices samples no mipmaps), so the reference is the area average that mipmaps approximate, the same frame
#    drawn 8 times as large and averaged over 8x8 blocks, compared inside the character (compare_images.mjs --box).
#    Trilinear filtering blurs more than that average, so the bar is this test's own: at most 8% of those pixels off
#    by more than 24/255 (the paths are at about 6%). Without mipmaps the Linear atlas is more than 15% off (about
#    23%: a minified texture sampled at one level aliases), so a renderer that ignored the min filter fails here.
#    The area average does not pin the level of detail down (a level too sharp comes closer to it), so:
# 3. Known answers (tests/render_oracle/filter_levels.mjs): a checkerboard page drawn at chosen scales with each kind
#    of filter gives black and white, grey, or their known mixes, on each path; past the page's edge a sampler sees
#    its edge texels, not the padding of its layer in the page array.
#   bash render_honours_the_atlas_filters.sh SPINEGPU EXAMPLES_DIR BUILD_DIR      (exit 77: skipped)
set -uo pipefail
bin=$1 examples=${SPINE_EXAMPLES:-$2} build=$3
here=$(cd "$(dirname "$0")/../render_oracle" && pwd)
[ -d "$examples/spineboy" ] || { echo "skipped: Spine example exports not found at $examples"; exit 77; }
source "$here/require_packages.sh"
require_render_oracle "$build"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sb=$(cd "$examples/spineboy" && pwd)
grep -q 'filter: Linear, Linear' "$sb/spineboy-pma.atlas" ||
  { echo "FAIL: spineboy-pma.atlas has no Linear filter"; exit 1; }
for filter in "Nearest, Nearest" "MipMapLinearLinear, Linear"; do
  mkdir "$work/${filter%%,*}"
  sed "s/filter: Linear, Linear/filter: $filter/" "$sb/spineboy-pma.atlas" > "$work/${filter%%,*}/spineboy-pma.atlas"
  ln -s "$sb/spineboy-pma.png" "$work/${filter%%,*}/spineboy-pma.png"
done
failed=0
# check NAME EXPECTED COMPARE_ARGS...: runs compare_images.mjs, which must pass (EXPECTED pass) or fail (fail).
check() {
  local name=$1 expected=$2 result status
  shift 2
  result=$(node "$here/compare_images.mjs" "$@" 2>&1)
  status=$?
  # (To fail, the images must differ: compare_images.mjs also fails when nothing is covered.)
  if { [ $expected = pass ] && [ $status = 0 ]; } ||
     { [ $expected = fail ] && [ $status = 1 ] && grep -q '^covered [1-9][0-9]* differing [1-9]' <<< "$result"; }; then
    echo "ok   $name: $(head -n 1 <<< "$result")"
  else
    echo "FAIL $name (expected to $expected): $result"
    failed=1
  fi
}

# 1. Nearest.
pose=(--skeleton "$sb/spineboy-pro.skel" --animation walk --steps 10 --width 512 --height 512 --background 404850ff)
camera=$("$bin" render "${pose[@]}" --atlas "$sb/spineboy-pma.atlas" --fit --out "$work/linear.png" 2>&1)
case $camera in *"no Vulkan"*|*"no usable Vulkan device"*) echo "skipped: $camera"; exit 77 ;; esac
camera=${camera#--camera }
node "$here/render_reference.mjs" "${pose[@]}" --atlas "$work/Nearest/spineboy-pma.atlas" --camera "$camera" \
  --out "$work/nearest-reference.png" || { echo "FAIL: the official renderer failed"; exit 1; }
for path in gpu gpu-tiles cpu; do
  "$bin" render "${pose[@]}" --atlas "$work/Nearest/spineboy-pma.atlas" --camera "$camera" --path $path \
    --validation --out "$work/nearest-$path.png" || { echo "FAIL: render --path $path"; failed=1; continue; }
  check "nearest $path vs the official renderer" pass "$work/nearest-$path.png" "$work/nearest-reference.png" \
    --background 404850ff
done
check "the linear atlas vs the nearest reference" fail "$work/linear.png" "$work/nearest-reference.png" \
  --background 404850ff

# 2. Mipmaps: a 64 px view, and the same frame at 512 px.
pose=(--skeleton "$sb/spineboy-pro.skel" --animation walk --steps 10)
camera=$("$bin" render "${pose[@]}" --width 64 --height 64 --atlas "$sb/spineboy-pma.atlas" --fit \
  --out "$work/small-linear.png" 2>&1) || { echo "FAIL: $camera"; exit 1; }
camera=${camera#--camera }
IFS=, read -r scale ox oy <<< "$camera"
large=$(awk -v s="$scale" -v x="$ox" -v y="$oy" 'BEGIN { printf "%.9g,%.9g,%.9g", 8 * s, 8 * x, 8 * y }')
"$bin" render "${pose[@]}" --width 512 --height 512 --atlas "$sb/spineboy-pma.atlas" --camera "$large" \
  --out "$work/large.png" || { echo "FAIL: render at 512 px"; exit 1; }
for path in gpu gpu-tiles cpu; do
  "$bin" render "${pose[@]}" --width 64 --height 64 --atlas "$work/MipMapLinearLinear/spineboy-pma.atlas" \
    --camera "$camera" --path $path --validation --out "$work/mipmap-$path.png" ||
    { echo "FAIL: render --path $path"; failed=1; continue; }
  "$bin" render "${pose[@]}" --width 64 --height 64 --atlas "$work/MipMapLinearLinear/spineboy-pma.atlas" \
    --camera "$camera" --path $path --background 404850ff --out "$work/mipmap-opaque-$path.png" ||
    { echo "FAIL: render --path $path --background 404850ff"; failed=1; continue; }
  check "mipmaps $path vs the area average" pass "$work/mipmap-$path.png" "$work/large.png" --box 8 \
    --max-fraction 0.08
done
# The paths pick the same levels (the tile rasterizer from its triangles' UV steps, the draw from derivatives): they
# agree as the GPU and CPU paths must (at most 0.1% of covered pixels off by more than 2/255), over an opaque
# background (straight colours read back from nearly transparent pixels magnify 1/255 apart many times).
for path in gpu-tiles cpu; do
  check "mipmaps $path vs gpu" pass "$work/mipmap-opaque-$path.png" "$work/mipmap-opaque-gpu.png" \
    --background 404850ff --threshold 2 --max-fraction 0.001
done
check "the linear atlas vs the area average" fail "$work/small-linear.png" "$work/large.png" --box 8 \
  --max-fraction 0.15

# 3. Known answers.
for path in gpu gpu-tiles cpu; do
  if node "$here/filter_levels.mjs" --spinegpu "$bin" --path $path > "$work/levels-$path.txt" 2>&1; then
    echo "ok   known answers, $path: $(grep -c '^ok' "$work/levels-$path.txt") cases"
  else
    echo "FAIL known answers, $path:"
    cat "$work/levels-$path.txt"
    failed=1
  fi
done
exit $failed
