#!/usr/bin/env bash
# The render checks of issue 4, on whatever Vulkan device the machine has (lavapipe in CI), validation on:
#   official  every case of cases.tsv, with the straight and the -pma atlas: `spinegpu render` (a GPU path) against
#             the official renderer (render_reference.mjs) with the same camera over an opaque background; at most
#             2% of covered pixels may differ by more than 24/255.
#   cpu       every example skeleton, two animations at two times each, both atlases: a GPU path against the CPU
#             path; at most 0.1% of covered pixels may differ by more than 2/255. The first time is drawn with the
#             default skin (or, where it draws nothing, the fullest skin), the second with the fullest skin.
# The GPU path checked is $SPINEGPU_RENDER_PATH: gpu (the default) or gpu-tiles.
#
#   run_render_oracle.sh SPINEGPU EXAMPLES_DIR BUILD_DIR (official|cpu) [FILTER]
#
# One line per case (ok / FAIL with the figures), a summary; exit 1 unless every case passed (and there was one), 77
# when node, the examples or a Vulkan device are missing. Failed cases leave their images in $SPINEGPU_RENDER_KEEP
# when it is set.
set -uo pipefail
bin=$1 examples=${SPINE_EXAMPLES:-$2} build=$3 mode=$4 filter=${5:-} path=${SPINEGPU_RENDER_PATH:-gpu}
here=$(cd "$(dirname "$0")" && pwd)
oracle=$here/../oracle
command -v node >/dev/null || { echo "skipped: node is not installed"; exit 77; }
[ -d "$examples/spineboy" ] || { echo "skipped: Spine example exports not found at $examples"; exit 77; }
for dir in "$here" "$oracle"; do
  pkg=spine-core; [ "$dir" = "$here" ] && pkg=spine-canvaskit
  if [ ! -d "$dir/node_modules/@esotericsoftware/$pkg" ]; then
    if command -v flock >/dev/null 2>&1; then exec 9>"$build/oracle-npm.lock"; flock 9; fi
    [ -d "$dir/node_modules/@esotericsoftware/$pkg" ] || \
      npm ci --prefix "$dir" --no-audit --no-fund --loglevel=error >/dev/null 2>&1 || \
      { echo "skipped: npm ci in $dir failed (no registry access?)"; exit 77; }
    exec 9>&-
  fi
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A Vulkan device must exist (lavapipe: mesa-vulkan-drivers); without one the render tests cannot run.
probe=$("$bin" render --skeleton "$examples/spineboy/spineboy-pro.skel" --atlas "$examples/spineboy/spineboy.atlas" \
  --animation run --steps 1 --width 8 --height 8 --camera 1,0,0 --out "$work/probe.png" 2>&1)
case $probe in *"no Vulkan"*|*"no usable Vulkan device"*) echo "skipped: $probe"; exit 77 ;; esac

background=404850ff
cases=$work/cases
: > "$cases"
add_case() { printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >> "$cases"; }
if [ "$mode" = official ]; then
  while IFS=$'\t' read -r label skeleton kind value skin steps; do
    case $label in '#'*|label|'') continue ;; esac
    [ "$kind" = schedule ] && value=$oracle/schedules/$value
    dir=$(dirname "$examples/$skeleton")
    for atlas in "$dir/$(basename "$dir").atlas" "$dir/$(basename "$dir")-pma.atlas"; do
      add_case "$label $(basename "$atlas")" "$examples/$skeleton" "$atlas" "$kind" "$value" "$skin" "$steps"
    done
  done < "$here/cases.tsv"
else
  for dir in "$examples"/*/; do
    name=$(basename "$dir")
    # The -pro export where there is one (ls sorts its whole list, so it is asked alone first).
    skeleton=$(ls "$dir"*-pro.skel 2>/dev/null | head -n 1)
    [ -n "$skeleton" ] || skeleton=$(ls "$dir"*.skel 2>/dev/null | head -n 1)
    [ -n "$skeleton" ] || continue
    animations=$(node "$oracle/list_names.mjs" "$skeleton" "$dir$name.atlas" animations) &&
      animations=$(head -n 2 <<< "$animations") && [ -n "$animations" ] ||
      { echo "FAIL: no animations listed for $skeleton"; exit 1; }
    # Skins: the default one at the first time when it draws anything (mix-and-match's draws nothing), else the
    # skin holding the most attachments, which is also drawn at the second time.
    skins=$(node "$oracle/list_names.mjs" "$skeleton" "$dir$name.atlas" drawn-skins) ||
      { echo "FAIL: no skins listed for $skeleton"; exit 1; }
    fullest=$(head -n 1 <<< "$skins")
    [ -n "$fullest" ] && [ "$fullest" != default ] || fullest=-
    early=-
    grep -qx default <<< "$skins" || early=$fullest
    while IFS= read -r animation; do
      [ -n "$animation" ] || continue
      for steps in 9 41; do
        skin=$early
        [ "$steps" = 41 ] && skin=$fullest
        for atlas in "$dir$name.atlas" "$dir$name-pma.atlas"; do
          label="$name $animation @$steps"
          [ "$skin" != - ] && label+=" skin $skin"
          add_case "$label $(basename "$atlas")" "$skeleton" "$atlas" animation "$animation" "$skin" "$steps"
        done
      done
    done <<< "$animations"
  done
fi

run_case() {
  local label=$1 skeleton=$2 atlas=$3 kind=$4 value=$5 skin=$6 steps=$7
  local args=(--skeleton "$skeleton" --atlas "$atlas" --"$kind" "$value" --steps "$steps" --width 384 --height 384)
  [ "$skin" != "-" ] && args+=(--skin "$skin")
  local id camera
  id=$(printf '%s' "$label" | tr -c 'A-Za-z0-9._-' '_')
  camera=$("$bin" render "${args[@]}" --fit --background "$background" --path "$path" --validation \
    --out "$work/$id.gpu.png" 2> "$work/$id.err") ||
    { echo "FAIL $label: spinegpu render failed: $(head -c 600 "$work/$id.err")"; return; }
  camera=${camera#--camera }
  local other=$work/$id.other.png limits=(--threshold 2 --max-fraction 0.001)
  if [ "$mode" = official ]; then
    node "$here/render_reference.mjs" "${args[@]}" --camera "$camera" --background "$background" --out "$other" \
      2> "$work/$id.err" || { echo "FAIL $label: official render failed: $(head -c 600 "$work/$id.err")"; return; }
    limits=(--threshold 24 --max-fraction 0.02)
  else
    "$bin" render "${args[@]}" --camera "$camera" --background "$background" --path cpu --validation \
      --out "$other" 2> "$work/$id.err" || { echo "FAIL $label: CPU path failed: $(head -c 600 "$work/$id.err")"; return; }
  fi
  local result
  if result=$(node "$here/compare_images.mjs" "$work/$id.gpu.png" "$other" "${limits[@]}" \
      --background "$background" --diff "$work/$id.diff.png" 2>&1); then
    echo "ok   $label: $result"
  else
    echo "FAIL $label (camera $camera): $result"
    if [ -n "${SPINEGPU_RENDER_KEEP:-}" ]; then
      mkdir -p "$SPINEGPU_RENDER_KEEP" && cp "$work/$id".*.png "$SPINEGPU_RENDER_KEEP/"
    fi
  fi
}
export -f run_case
export bin here work mode background path

[ -n "$filter" ] && { grep -F -- "$filter" "$cases" > "$cases.f" || true; mv "$cases.f" "$cases"; }
total=$(wc -l < "$cases")
jobs=${SPINEGPU_ORACLE_JOBS:-$(nproc)}
tr '\n' '\0' < "$cases" | xargs -0 -P "$jobs" -I{} bash -c 'IFS=$'"'"'\t'"'"' read -r a b c d e f g <<< "$1"; run_case "$a" "$b" "$c" "$d" "$e" "$f" "$g"' _ {} > "$work/results"
sort "$work/results"
# Passed: every case printed its ok line (a case that died without a word, or no case at all, fails the run).
passed=$(grep -c '^ok ' "$work/results" || true)
echo "render oracle ($mode, --path $path): $passed/$total cases passed"
[ "$total" -gt 0 ] && [ "$passed" -eq "$total" ]
