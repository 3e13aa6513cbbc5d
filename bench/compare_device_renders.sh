#!/usr/bin/env bash
# Compares the images that `bash bench/device_run.sh checks` rendered on the device (renders.tgz and the
# crowds*.tgz, all unpacked into DIR) here, where Node is: each case's gpu and gpu-tiles images against its cpu image
# (at most 0.1% of covered pixels off by more than 2/255) and against the official renderer with the same camera (at
# most 2% off by more than 24/255), the crowd scene's frames and the draw_a_crowd sample's crowds of small
# characters, gpu and gpu-tiles against cpu, and gpu-tiles against gpu (at most 0.01%), and the close-ups of
# bench/closeups (some against lavapipe's raster pipeline, drawn here by SPINEGPU, default build/spinegpu: a build of
# this checkout, which need not be the one the device ran). One line per comparison, then a count.
#   bash bench/compare_device_renders.sh DIR [EXAMPLES_DIR]
set -uo pipefail
dir=$1 examples=${2:-../shared/spine-examples}
here=$(cd "$(dirname "$0")/.." && pwd)
oracle=$here/tests/render_oracle
background=404850ff
failed=0 total=0
compare() {  # label a b threshold fraction [background]
  local result
  total=$((total + 1))
  if result=$(node "$oracle/compare_images.mjs" "$2" "$3" --threshold "$4" --max-fraction "$5" \
      --background "${6:-$background}" 2>&1); then
    echo "ok   $1: $result"
  else
    echo "FAIL $1: $result"
    failed=$((failed + 1))
  fi
}
while IFS=$'\t' read -r label skeleton kind value skin steps; do
  case $label in '#'*|label|'') continue ;; esac
  [ "$kind" = schedule ] && value=$here/tests/oracle/schedules/$value
  sdir=$(dirname "$examples/$skeleton") base=$(basename "$(dirname "$examples/$skeleton")")
  for atlas in "$sdir/$base.atlas" "$sdir/$base-pma.atlas"; do
    id=$(printf '%s_%s' "$label" "$(basename "$atlas" .atlas)")
    camera=$(awk -v id="$id" '$1 == id { print $2; exit }' "$dir/cameras.txt")
    if [ -z "$camera" ]; then
      echo "FAIL $id: not rendered on the device"
      failed=$((failed + 1)) total=$((total + 1))
      continue
    fi
    args=(--skeleton "$examples/$skeleton" --atlas "$atlas" --"$kind" "$value" --steps "$steps")
    args+=(--width 384 --height 384)
    [ "$skin" != "-" ] && args+=(--skin "$skin")
    node "$oracle/render_reference.mjs" "${args[@]}" --camera "$camera" --background "$background" \
      --out "$dir/$id.official.png" 2>/dev/null ||
      { echo "FAIL $id: official render failed"; failed=$((failed + 1)) total=$((total + 1)); continue; }
    for path in gpu gpu-tiles; do
      compare "$id $path vs cpu" "$dir/$id.$path.png" "$dir/$id.cpu.png" 2 0.001
      compare "$id $path vs official" "$dir/$id.$path.png" "$dir/$id.official.png" 24 0.02
    done
  done
done < "$oracle/cases.tsv"
for frame in "$dir"/scene-cpu/*.png; do
  name=$(basename "$frame")
  for path in gpu gpu-tiles; do compare "scene $name $path vs cpu" "$dir/scene-$path/$name" "$frame" 2 0.001; done
  compare "scene $name gpu-tiles vs gpu" "$dir/scene-gpu-tiles/$name" "$dir/scene-gpu/$name" 2 0.0001
done
# The draw_a_crowd sample's small characters (its background: 0.09, 0.09, 0.11). Here and in the scene, the tile path
# against the raster pipeline too, which it follows to the vertex placement and the UV plane (at most 0.01% off by
# more than 2/255; the viewport transform fused into an fma put the crowd of 8,000 at 0.07%).
for n in 8000 2000 500; do
  for path in gpu gpu-tiles; do
    compare "crowd $n $path vs cpu" "$dir/crowd-$n-$path.png" "$dir/crowd-$n-cpu.png" 2 0.001 17171cff
  done
  compare "crowd $n gpu-tiles vs gpu" "$dir/crowd-$n-gpu-tiles.png" "$dir/crowd-$n-gpu.png" 2 0.0001 17171cff
done
# A mipmapped atlas at 64 px against the area average of the same frame at 512 px (at most 8% of the pixels inside
# the character off by more than 24/255, as tests/cli/render_honours_the_atlas_filters.sh asks), and the paths
# against each other over an opaque background.
for path in gpu gpu-tiles cpu; do
  total=$((total + 1))
  if result=$(node "$oracle/compare_images.mjs" "$dir/mipmap-$path.png" "$dir/mipmap-large.png" --box 8 \
      --max-fraction 0.08 2>&1); then
    echo "ok   mipmap $path vs the area average: $result"
  else
    echo "FAIL mipmap $path vs the area average: $result"
    failed=$((failed + 1))
  fi
done
for path in gpu-tiles cpu; do
  compare "mipmap $path vs gpu" "$dir/mipmap-opaque-$path.png" "$dir/mipmap-opaque-gpu.png" 2 0.001
done
# Close-ups beyond the tile path's 32-bit grid (bench/closeups/views.tsv says each view's check), and each one's
# coverage check: the tile path's coverage image (SPINEGPU_DIAGNOSE_TILES=4) opaque black at every pixel.
closeups=$(mktemp -d)
trap 'rm -rf "$closeups"' EXIT
if ! node "$here/bench/closeups/make_fixtures.mjs" "$closeups"; then
  echo "FAIL closeup fixtures"
  failed=$((failed + 1)) total=$((total + 1))
fi
info() {  # label a b
  echo "info $1: $(node "$oracle/compare_images.mjs" "$2" "$3" --threshold 2 --max-fraction 1 --background 336699ff \
    2>&1 | tail -n 1)"
}
while IFS=$'\t' read -r label skeleton size camera check; do
  case $label in '#'*|label|'') continue ;; esac
  a=$dir/closeup-$label.gpu-tiles.png b=$dir/closeup-$label.gpu.png
  case $check in
    paths) compare "closeup $label gpu-tiles vs gpu" "$a" "$b" 2 0.001 336699ff ;;
    exact) compare "closeup $label gpu-tiles vs gpu" "$a" "$b" 2 0 336699ff ;;
    lavapipe)
      reference=$closeups/$label.lavapipe.png
      if ! "${SPINEGPU:-$here/build/spinegpu}" render --skeleton "$closeups/$skeleton.json" \
          --atlas "$closeups/$skeleton.atlas" --animation still --steps 1 --width "$size" --height "$size" \
          --camera "$camera" --background 336699ff --device llvmpipe --path gpu --out "$reference" >/dev/null; then
        echo "FAIL closeup $label: no reference from lavapipe (SPINEGPU=${SPINEGPU:-$here/build/spinegpu})"
        failed=$((failed + 1)) total=$((total + 1))
        continue
      fi
      compare "closeup $label gpu-tiles vs lavapipe's gpu" "$a" "$reference" 2 0 336699ff
      info "closeup $label gpu-tiles vs gpu" "$a" "$b" ;;
    info) info "closeup $label gpu-tiles vs gpu" "$a" "$b" ;;
  esac
  black=$closeups/black-$size.png
  [ -f "$black" ] || NODE_PATH=$oracle/node_modules node -e "
    const { PNG } = require('pngjs'), png = new PNG({ width: $size, height: $size });
    for (let i = 3; i < png.data.length; i += 4) png.data[i] = 255;
    require('fs').writeFileSync('$black', PNG.sync.write(png));"
  compare "closeup $label coverage" "$dir/closeup-$label.coverage.png" "$black" 0 0 ffffffff
done < "$here/bench/closeups/views.tsv"
echo "device renders: $((total - failed))/$total comparisons passed"
[ "$failed" -eq 0 ]
