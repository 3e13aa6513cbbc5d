#!/usr/bin/env bash
# Short fuzzing run of one target, as a test: the project's own seeds from fuzz/seeds/KIND/ (written by us, named
# so that they are never mistaken for Spine example assets), the tests' scenes and schedules for those kinds, and,
# when present, the small Spine example exports of the matching kind. Fails on any crash, leak, sanitizer report or
# timeout that libFuzzer finds.
# usage: smoke_run.sh FUZZER NAME EXAMPLES_DIR CORPUS_DIR
set -euo pipefail
fuzzer=$1 name=$2 examples=$3 corpus=$4
here=$(cd "$(dirname "$0")" && pwd)
seconds=${SPINEGPU_FUZZ_SECONDS:-30}
rm -rf "$corpus" && mkdir -p "$corpus"
case $name in
  fuzz_json_loader|fuzz_json_places) pattern='*.json' kind=json ;;
  fuzz_pose|fuzz_gpu_data) pattern='*.json' kind=json ;;  # and the binary seeds and exports, below
  fuzz_binary_loader) pattern='*.skel' kind=binary ;;
  fuzz_atlas_parser) pattern='*.atlas' kind=atlas ;;
  fuzz_image_decoder) pattern='*.png' kind=image ;;
  fuzz_scene_file) pattern='' kind=scene ;;
  fuzz_schedule) pattern='' kind=schedule ;;
  *) echo "unknown fuzzer $name"; exit 1 ;;
esac
cp "$here"/seeds/$kind/* "$corpus"/
# The tests' own scenes and schedules are seeds of those kinds too.
case $kind in
  scene) cp "$here"/../tests/scenes/*.json "$corpus"/ ;;
  schedule) cp "$here"/../tests/oracle/schedules/*.json "$corpus"/ ;;
esac
# The targets that pose and draw what the loaders accept read both export formats.
case $name in
  fuzz_pose|fuzz_gpu_data)
    cp "$here"/seeds/binary/* "$corpus"/
    if [ -d "$examples" ]; then find "$examples" -name '*.skel' -size -40k -exec cp {} "$corpus"/ \;; fi ;;
esac
if [ -n "$pattern" ] && [ -d "$examples" ]; then
  # Small exports only, so that each run reaches many mutations in its time.
  find "$examples" -name "$pattern" -size -40k -exec cp {} "$corpus"/ \;
fi
echo "$name: $(ls "$corpus" | wc -l) seeds, ${seconds}s"
cd "$(dirname "$corpus")"
exec "$fuzzer" "$corpus" -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
  -print_final_stats=1 -detect_leaks=1
