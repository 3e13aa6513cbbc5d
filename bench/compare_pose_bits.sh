#!/usr/bin/env bash
# Bit-identity check for speed work: `spinegpu pose` (shortest round-trip floats, signed zeros kept) of two builds on
# every animation of every example export (150 steps, every 7th printed) and every oracle schedule, compared byte for
# byte. A change meant to be exact must print "differing 0"; the oracle tests only hold results to tolerances.
#   bash bench/compare_pose_bits.sh SPINEGPU_BEFORE SPINEGPU_AFTER [EXAMPLES_DIR]
set -uo pipefail
before=$1 after=$2
here=$(cd "$(dirname "$0")" && pwd)
examples=${3:-${SPINE_EXAMPLES:-$here/../../shared/spine-examples}}
schedules=$here/../tests/oracle/schedules
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cases=0 differing=0
compare() {
  "$before" pose "$@" > "$work/a" 2>&1
  "$after" pose "$@" > "$work/b" 2>&1
  cases=$((cases + 1))
  if ! cmp -s "$work/a" "$work/b"; then echo "differs: $*"; differing=$((differing + 1)); fi
}
for dir in "$examples"/*/; do
  for skeleton in "$dir"*.skel "$dir"*.json; do
    [ -e "$skeleton" ] || continue
    atlas=$(ls "$dir"*.atlas | grep -v pma | head -n 1)
    [ -n "$atlas" ] || atlas=$(ls "$dir"*.atlas | head -n 1)
    animations=$("$before" info "$skeleton" --json |
                 python3 -c 'import json, sys; print("\n".join(a["name"] for a in json.load(sys.stdin)["animations"]))')
    while IFS= read -r animation; do
      [ -n "$animation" ] &&
        compare --skeleton "$skeleton" --atlas "$atlas" --animation "$animation" --steps 150 --every 7
    done <<< "$animations"
  done
done
while IFS=$'\t' read -r schedule skeleton atlas steps _; do
  case "$schedule" in \#*|schedule) continue ;; esac
  [[ "$skeleton" == BUILD/* ]] && continue  # the demo rig lives in a build folder
  for s in "$examples/$skeleton" "$examples/${skeleton%.json}.skel"; do
    [ -e "$s" ] &&
      compare --skeleton "$s" --atlas "$examples/$atlas" --schedule "$schedules/$schedule" --steps "$steps" --every 3
  done
done < "$schedules/MANIFEST.tsv"
echo "cases $cases, differing $differing"
[ "$differing" -eq 0 ]
