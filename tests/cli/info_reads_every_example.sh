#!/usr/bin/env bash
# `spinegpu info` on every example skeleton, JSON and binary, with the straight and the premultiplied atlas;
# --json output parses and has the arrays DESIGN.md names, each element with a "name"; for JSON exports, bones,
# slots, skins, animations and events in the skeleton file's order.
# usage: info_reads_every_example.sh SPINEGPU EXAMPLES_DIR BUILD_DIR
set -uo pipefail
bin=$1 examples=${SPINE_EXAMPLES:-$2}
if [ ! -d "$examples/spineboy" ]; then echo "skipped: Spine example exports not found at $examples"; exit 77; fi
command -v node >/dev/null || { echo "skipped: node not installed"; exit 77; }
failures=0 runs=0
for dir in "$examples"/*/; do
  name=$(basename "$dir")
  # Every example folder holds an export in both formats.
  ls "$dir"*.json "$dir"*.skel >/dev/null 2>&1 ||
    { echo "FAIL: $dir lacks a .json or a .skel"; failures=$((failures + 1)); }
  for skeleton in "$dir"*.json "$dir"*.skel; do
    [ -e "$skeleton" ] || continue
    for atlas in "$dir$name.atlas" "$dir$name-pma.atlas"; do
      runs=$((runs + 1))
      if ! out=$("$bin" info "$skeleton" --atlas "$atlas" 2>&1); then
        echo "FAIL: info $skeleton --atlas $atlas: $out"; failures=$((failures + 1)); continue
      fi
      if ! json=$("$bin" info "$skeleton" --atlas "$atlas" --json 2>&1); then
        echo "FAIL: info --json $skeleton: $json"; failures=$((failures + 1)); continue
      fi
      # The JSON must parse; bones/slots/skins/animations/events/pages are arrays of objects with names, and the
      # bone and slot names must match the skeleton file's own order (checked for JSON exports).
      if ! printf '%s' "$json" | node -e '
        const fs = require("fs");
        const info = JSON.parse(fs.readFileSync(0, "utf8"));
        for (const key of ["bones", "slots", "skins", "animations", "events", "pages"]) {
          if (!Array.isArray(info[key])) throw new Error(key + " is not an array");
          for (const e of info[key]) if (typeof e.name !== "string") throw new Error(key + " element without a name");
        }
        if (info.bones.length === 0) throw new Error("no bones");
        const source = process.argv[1];
        if (source.endsWith(".json")) {
          const skel = JSON.parse(fs.readFileSync(source, "utf8"));
          const names = (a) => a.map((e) => e.name).join(",");
          if (names(info.bones) !== names(skel.bones)) throw new Error("bone order differs from the file");
          if (names(info.slots) !== names(skel.slots || [])) throw new Error("slot order differs from the file");
          const anims = Object.keys(skel.animations || {}).join(",");
          if (names(info.animations) !== anims) throw new Error("animation order differs from the file");
          if (names(info.skins) !== names(skel.skins || [])) throw new Error("skin order differs from the file");
          const events = Object.keys(skel.events || {}).join(",");
          if (names(info.events) !== events) throw new Error("event order differs from the file");
        }' "$skeleton"; then
        echo "FAIL: info --json $skeleton --atlas $atlas: bad JSON output"; failures=$((failures + 1))
      fi
    done
  done
done
echo "$runs runs, $failures failures"
# (The 14 example folders hold 18 skeletons, each in both formats, read with both atlases: 72.)
[ "$runs" -ge 72 ] || { echo "FAIL: expected at least 72 skeleton/atlas combinations"; exit 1; }
[ "$failures" -eq 0 ]
