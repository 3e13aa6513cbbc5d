#!/usr/bin/env bash
# The official Spine runtime loads the project's own demo rig (the JSON export and atlas that tools/rig_gen writes
# at build time), poses it, and plays every animation; the counts it reports are the ones the rig is built with.
#
#   bash oracle_loads_demo_rig.sh SPINEGPU_BIN EXAMPLES_DIR BUILD_DIR      (exit 77: skipped)
set -u

build_dir=${3:?usage: oracle_loads_demo_rig.sh SPINEGPU_BIN EXAMPLES_DIR BUILD_DIR}
script_dir=.
case ${BASH_SOURCE[0]} in */*) script_dir=${BASH_SOURCE[0]%/*} ;; esac
source_dir=$(cd "$script_dir/../.." && pwd)
oracle_dir=$source_dir/tests/oracle
json=$build_dir/demo_rig/spinegpu-demo.json
atlas=$build_dir/demo_rig/spinegpu-demo.atlas

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "skipped: node and npm are needed for the oracle (the official runtime); install nodejs and npm"
    exit 77
fi
for file in "$json" "$atlas"; do
    if [ ! -f "$file" ]; then
        echo "FAIL: $file is missing (the demo_rig target writes it)"
        exit 1
    fi
done

# Install the pinned runtime once (`make deps` normally has). Other oracle tests may be doing the same, and npm
# creates the package folder before it has written the files, so look only while holding the lock.
if command -v flock >/dev/null 2>&1; then
    exec 9>"$build_dir/oracle-npm.lock"
    flock 9
fi
if [ ! -d "$oracle_dir/node_modules/@esotericsoftware/spine-core" ]; then
    install_log=$build_dir/oracle-npm-ci.log
    if ! npm ci --prefix "$oracle_dir" --no-audit --no-fund --loglevel=error >"$install_log" 2>&1; then
        cat "$install_log"
        echo "skipped: 'npm ci' in $oracle_dir failed (no registry access?); see above"
        exit 77
    fi
fi
exec 9>&-

summary=$(node "$oracle_dir/load_skeleton.mjs" "$json" "$atlas") || {
    echo "FAIL: the official runtime could not load $json"
    exit 1
}

# Check the summary: the rig has everything the embedded default promises.
SUMMARY=$summary node --input-type=module -e '
const s = JSON.parse(process.env.SUMMARY);
const failures = [];
const check = (ok, what) => { if (!ok) failures.push(what); };
check(s.version.startsWith("4.2."), `version 4.2.x, got ${s.version}`);
check(s.bones.count >= 20, `at least 20 bones, got ${s.bones.count}`);
check(s.slots.count >= 20, `at least 20 slots, got ${s.slots.count}`);
check(s.constraints.ik.length >= 1, "an IK constraint");
check((s.attachments.mesh || 0) >= 1, "a mesh attachment");
check((s.attachments.clipping || 0) >= 1, "a clipping attachment");
check(s.sequences.length >= 1, "a sequence attachment");
check(Object.values(s.slots.blendModes).includes("additive"), "an additive slot");
check(Object.values(s.slots.blendModes).includes("multiply"), "a multiply slot");
check(s.slots.twoColor.length >= 1, "a two-color slot");
check(s.animations.count === 4, `4 animations, got ${s.animations.count}`);
for (const name of ["idle", "walk", "run", "attack"])
  check(s.animations.names.includes(name), `animation ${name}`);
for (const name of ["footstep", "swing", "hit"]) check(s.events.names.includes(name), `event ${name}`);
const played = Object.fromEntries(s.animations.played.map((a) => [a.name, a]));
const types = new Set(s.animations.played.flatMap((a) => a.timelineTypes));
for (const type of ["RotateTimeline", "TranslateTimeline", "ScaleTimeline", "AttachmentTimeline", "RGBATimeline",
                    "RGBA2Timeline", "DeformTimeline", "DrawOrderTimeline", "EventTimeline", "SequenceTimeline"])
  check(types.has(type), `a ${type} in some animation`);
if (played.attack) {
  const fired = played.attack.eventsFired;
  check(fired.swing && fired.hit, "attack fires swing and hit");
  if (fired.hit) {
    const hit = fired.hit.first;
    check(hit.int === 12 && Math.abs(hit.float - 0.8) < 1e-6 && hit.string === "slash",
          `hit carries int 12, float 0.8, string "slash", got ${JSON.stringify(hit)}`);
  }
  check(played.attack.drawOrdersSeen >= 2, "attack changes the draw order");
}
for (const name of ["walk", "run"])
  if (played[name]) check(played[name].eventsFired.footstep?.count >= 2, `${name} fires footstep events`);
if (failures.length) {
  for (const f of failures) console.log(`FAIL: expected ${f}`);
  process.exit(1);
}
console.log(`ok: official runtime loaded ${s.file}: ${s.bones.count} bones, ${s.slots.count} slots, ` +
            `animations ${s.animations.names.join(", ")}, events ${s.events.names.join(", ")}`);
'
