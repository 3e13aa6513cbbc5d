#!/usr/bin/env bash
# Runs the pose oracle: our `spinegpu pose` against the official runtime (pose_dump.mjs) with DESIGN.md's stepping,
# compared with compare_poses.mjs. Cases: every example skeleton (JSON against JSON, binary against binary), every
# animation looping for 150 steps (every 5th printed); each skin of the multi-skin rigs; every schedule in
# schedules/MANIFEST.tsv (both formats); every animation of the demo rig.
#
#   run_pose_oracle.sh SPINEGPU EXAMPLES_DIR BUILD_DIR [FILTER]     FILTER: a substring of the case label to run
#
# Prints one line per case (ok / FAIL with the first differences) and a summary; exits 1 unless every case passed
# (and there was one), 77 when node or the examples are missing. Cases run in parallel on $SPINEGPU_ORACLE_JOBS
# (default: nproc) jobs.
set -uo pipefail
bin=$1 examples=${SPINE_EXAMPLES:-$2} build=$3 filter=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
command -v node >/dev/null || { echo "skipped: node is not installed"; exit 77; }
[ -d "$examples/spineboy" ] || { echo "skipped: Spine example exports not found at $examples"; exit 77; }
# Install the pinned official runtime once; other oracle tests may be installing it too, so take their lock.
if [ ! -d "$here/node_modules/@esotericsoftware/spine-core" ]; then
  if command -v flock >/dev/null 2>&1; then exec 9>"$build/oracle-npm.lock"; flock 9; fi
  [ -d "$here/node_modules/@esotericsoftware/spine-core" ] || \
    npm ci --prefix "$here" --no-audit --no-fund --loglevel=error >/dev/null 2>&1 || \
    { echo "skipped: npm ci in $here failed (no registry access?)"; exit 77; }
  exec 9>&-
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cases=$work/cases
: > "$cases"
# label, skeleton, atlas, kind (animation|schedule), value, skin ('-' for none), steps, every[:physics steps]
add_case() { printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >> "$cases"; }

# Every animation of every export, looping, 150 steps, every 5th step printed.
for dir in "$examples"/*/; do
  name=$(basename "$dir")
  for skeleton in "$dir"*.json "$dir"*.skel; do
    [ -e "$skeleton" ] || continue
    atlas=$dir$name.atlas
    animations=$(node "$here/list_names.mjs" "$skeleton" "$atlas" animations) || { echo "FAIL: cannot list $skeleton"; exit 1; }
    while IFS= read -r animation; do
      [ -n "$animation" ] && add_case "$(basename "$skeleton") $animation" "$skeleton" "$atlas" animation "$animation" - 150 5
    done <<< "$animations"
    # Each skin of multi-skin rigs, with the first animation.
    skins=$(node "$here/list_names.mjs" "$skeleton" "$atlas" skins) ||
      { echo "FAIL: cannot list $skeleton's skins"; exit 1; }
    if [ "$(echo "$skins" | wc -l)" -gt 1 ]; then
      first=$(echo "$animations" | head -n 1)
      while IFS= read -r skin; do
        add_case "$(basename "$skeleton") skin $skin $first" "$skeleton" "$atlas" animation "$first" "$skin" 150 5
      done <<< "$skins"
    fi
  done
done
# Schedules, in both formats where the skeleton has both.
while IFS=$'\t' read -r schedule skeleton atlas steps physics; do
  case $schedule in '#'*|schedule|'') continue ;; esac
  resolve() { case $1 in BUILD/*) echo "$build/${1#BUILD/}" ;; *) echo "$examples/$1" ;; esac; }
  s=$(resolve "$skeleton") a=$(resolve "$atlas")
  [ -e "$s" ] || { echo "FAIL: schedule $schedule names $s, which does not exist"; exit 1; }
  for file in "$s" "${s%.json}.skel"; do
    [ -e "$file" ] || continue  # (a skeleton without a binary export)
    add_case "$(basename "$file") schedule $schedule" "$file" "$a" schedule "$here/schedules/$schedule" - "$steps" "1:$physics"
  done
done < "$here/schedules/MANIFEST.tsv"
# The demo rig's animations.
demo=$build/demo_rig/spinegpu-demo.json demo_atlas=$build/demo_rig/spinegpu-demo.atlas
demo_animations=$(node "$here/list_names.mjs" "$demo" "$demo_atlas" animations) && [ -n "$demo_animations" ] ||
  { echo "FAIL: cannot list the demo rig's animations ($demo)"; exit 1; }
while IFS= read -r animation; do
  [ -n "$animation" ] && add_case "demo-rig $animation" "$demo" "$demo_atlas" animation "$animation" - 150 5
done <<< "$demo_animations"

run_case() {
  local label=$1 skeleton=$2 atlas=$3 kind=$4 value=$5 skin=$6 steps=$7 spec=$8 every physics=-
  local mode=(--"$kind" "$value")
  [ "$skin" != "-" ] && mode+=(--skin "$skin")
  case $spec in *:*) every=${spec%%:*}; physics=${spec#*:} ;; *) every=$spec ;; esac
  local id
  id=$(printf '%s' "$label" | tr -c 'A-Za-z0-9._-' '_')
  node "$here/pose_dump.mjs" --skeleton "$skeleton" --atlas "$atlas" "${mode[@]}" --steps "$steps" --every "$every" \
    > "$work/$id.expected" 2> "$work/$id.err" || { echo "FAIL $label: official dump failed: $(cat "$work/$id.err")"; return; }
  "$bin" pose --skeleton "$skeleton" --atlas "$atlas" "${mode[@]}" --steps "$steps" --every "$every" \
    > "$work/$id.actual" 2> "$work/$id.err" || { echo "FAIL $label: spinegpu pose failed: $(head -c 400 "$work/$id.err")"; return; }
  local extra=()
  [ "$physics" != "-" ] && extra=(--physics-steps "$physics")
  if out=$(node "$here/compare_poses.mjs" "$work/$id.expected" "$work/$id.actual" --label "$label" "${extra[@]}" 2>&1); then
    echo "ok   $label"
  else
    echo "FAIL $label"; echo "$out" | head -n 14 | sed 's/^/     /'
  fi
}
export -f run_case
export bin here work
jobs=${SPINEGPU_ORACLE_JOBS:-$(nproc)}
results=$work/results
grep -F -- "$filter" "$cases" | while IFS=$'\t' read -r label skeleton atlas kind value skin steps spec; do
  printf '%s\0' "$label" "$skeleton" "$atlas" "$kind" "$value" "$skin" "$steps" "$spec"
done | xargs -0 -r -n 8 -P "$jobs" bash -c 'run_case "$@"' _ | tee "$results"
# Passed: every case chosen printed its ok line (a case that died without a word, or no case at all, fails the run).
expected=$(grep -cF -- "$filter" "$cases") passed=$(grep -c '^ok ' "$results") failed=$(grep -c '^FAIL' "$results")
echo "pose oracle: $passed of $expected cases passed, $failed failed"
[ "$expected" -gt 0 ] && [ "$passed" -eq "$expected" ]
