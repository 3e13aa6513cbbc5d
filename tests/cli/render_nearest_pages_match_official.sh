#!/usr/bin/env bash
# Pages whose atlas says `filter: Nearest, Nearest` are sampled nearest: spineboy's premultiplied atlas, copied with
# that filter (the examples all say Linear), drawn through the gpu, gpu-tiles and cpu paths, matches the official
# renderer sampling nearest (at most 2% of covered pixels off by more than 24/255). The same pose from the Linear
# atlas is more than 2% off that reference, so a renderer that sampled every page linearly would fail here.
#   bash render_nearest_pages_match_official.sh SPINEGPU EXAMPLES_DIR BUILD_DIR      (exit 77: skipped)
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
sed 's/filter: Linear, Linear/filter: Nearest, Nearest/' "$sb/spineboy-pma.atlas" > "$work/spineboy-pma.atlas"
ln -s "$sb/spineboy-pma.png" "$work/spineboy-pma.png"
pose=(--skeleton "$sb/spineboy-pro.skel" --animation walk --steps 10 --width 512 --height 512 --background 404850ff)
camera=$("$bin" render "${pose[@]}" --atlas "$sb/spineboy-pma.atlas" --fit --out "$work/linear.png" 2>&1)
case $camera in *"no Vulkan"*|*"no usable Vulkan device"*) echo "skipped: $camera"; exit 77 ;; esac
camera=${camera#--camera }
node "$here/render_reference.mjs" "${pose[@]}" --atlas "$work/spineboy-pma.atlas" --camera "$camera" \
  --out "$work/reference.png" || { echo "FAIL: the official renderer failed"; exit 1; }
compare() { node "$here/compare_images.mjs" "$1" "$work/reference.png" --background 404850ff; }
failed=0
for path in gpu gpu-tiles cpu; do
  "$bin" render "${pose[@]}" --atlas "$work/spineboy-pma.atlas" --camera "$camera" --path $path --validation \
    --out "$work/$path.png" || { echo "FAIL: render --path $path"; failed=1; continue; }
  if result=$(compare "$work/$path.png" 2>&1); then
    echo "ok   $path: $result"
  else
    echo "FAIL $path: $result"
    failed=1
  fi
done
if result=$(compare "$work/linear.png" 2>&1); then
  echo "FAIL the linear atlas matches the nearest reference, so this test cannot tell the filters apart: $result"
  failed=1
else
  echo "ok   the linear atlas is off the nearest reference: $(head -n 1 <<< "$result")"
fi
exit $failed
