#!/usr/bin/env bash
# The pose oracle can fail: compare_poses.mjs passes a dump of the official runtime (pose_dump.mjs, spineboy-pro
# walk, 20 steps) against itself and against a copy moved within tolerance, and fails, naming what differs, on
# copies with one bone's x shifted by 0.1 or its a by 0.002, one slot's attachment renamed, its alpha moved by 0.003,
# a dark colour given to it or a vertex moved by 0.1, one event dropped or its float moved by 0.001, two slots
# swapped in the draw order, a line missing or one too many; and on two empty dumps. Then pose_dump.mjs dumps the
# project's demo rig for each of its animations and for the demo-rig schedule without error.
#
#   bash oracle_compare_detects_differences.sh SPINEGPU_BIN EXAMPLES_DIR BUILD_DIR      (exit 77: skipped)
set -u

build_dir=${3:?usage: oracle_compare_detects_differences.sh SPINEGPU_BIN EXAMPLES_DIR BUILD_DIR}
examples=${SPINE_EXAMPLES:-$2}
script_dir=.
case ${BASH_SOURCE[0]} in */*) script_dir=${BASH_SOURCE[0]%/*} ;; esac
source_dir=$(cd "$script_dir/../.." && pwd)
oracle_dir=$source_dir/tests/oracle
rig_json=$build_dir/demo_rig/spinegpu-demo.json
rig_atlas=$build_dir/demo_rig/spinegpu-demo.atlas

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "skipped: node and npm are needed for the oracle (the official runtime); install nodejs and npm"
    exit 77
fi
if [ ! -f "$examples/spineboy/spineboy-pro.json" ]; then
    echo "skipped: Spine example exports not found at $examples (set SPINE_EXAMPLES)"
    exit 77
fi

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

work=$(mktemp -d "$build_dir/oracle-compare-selfcheck.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

expected=$work/expected.jsonl
if ! node "$oracle_dir/pose_dump.mjs" --skeleton "$examples/spineboy/spineboy-pro.json" \
        --atlas "$examples/spineboy/spineboy.atlas" --animation walk --steps 20 >"$expected"; then
    echo "FAIL: pose_dump.mjs could not dump spineboy-pro walk"
    exit 1
fi
lines=$(wc -l <"$expected")
[ "$lines" -eq 20 ] || fail "pose_dump.mjs printed $lines lines for 20 steps, expected 20"

# mutate NAME JS: writes $work/NAME.jsonl, the expected dump with JS applied to the frames (array `frames`).
mutate() {
    EXPECTED=$expected OUT=$work/$1.jsonl node --input-type=module -e "
import * as fs from 'node:fs';
const frames = fs.readFileSync(process.env.EXPECTED, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const frame = (n) => frames.find((f) => f.frame === n);
$2
fs.writeFileSync(process.env.OUT, frames.map((f) => JSON.stringify(f)).join('\n') + '\n');
" || { echo "FAIL: could not write the $1 copy"; exit 1; }
}

# expect_pass NAME / expect_fail NAME PATTERN...: compares expected with $work/NAME.jsonl.
compare() { node "$oracle_dir/compare_poses.mjs" "$expected" "$work/$1.jsonl" --label "$1"; }
expect_pass() {
    local out
    if out=$(compare "$1" 2>&1); then
        echo "$out"
    else
        echo "$out"
        fail "compare_poses.mjs rejected $1, which is within tolerance"
    fi
}
expect_fail() {
    local name=$1 out status pattern
    shift
    out=$(compare "$name" 2>&1)
    status=$?
    echo "$out" | head -4
    if [ "$status" -ne 1 ]; then
        fail "compare_poses.mjs exited with $status on $name, expected 1"
        return
    fi
    for pattern in "$@"; do
        grep -qF -- "$pattern" <<<"$out" || fail "compare_poses.mjs's report on $name does not mention '$pattern'"
    done
}

cp "$expected" "$work/identical.jsonl"
expect_pass identical

mutate within-tolerance '
for (const f of frames) for (const b of f.bones) { b.x += 0.04; b.a -= 0.0009; }
for (const f of frames) for (const s of f.slots) { if (s.vertices) s.vertices = s.vertices.map((v) => v - 0.04); s.color[3] -= 0.0015; }'
expect_pass within-tolerance

mutate bone-shifted 'frame(10).bones.find((b) => b.name === "torso").x += 0.1;'
expect_fail bone-shifted 'bone-shifted' 'frame 10' 'bone "torso" x'

mutate attachment-renamed 'frame(7).slots.find((s) => s.name === "head").attachment = "head-renamed";'
expect_fail attachment-renamed 'attachment-renamed' 'frame 7' 'slot "head" attachment' 'head-renamed'

mutate event-dropped '
const f = frame(1);
const i = f.events.findIndex((e) => e.type === "event" && e.name === "footstep");
if (i < 0) throw new Error("frame 1 has no footstep event");
f.events.splice(i, 1);'
expect_fail event-dropped 'event-dropped' 'frame 1' 'missing event' 'footstep'

mutate draw-order-swapped '
const s = frame(15).slots;
[s[3], s[4]] = [s[4], s[3]];'
expect_fail draw-order-swapped 'draw-order-swapped' 'frame 15' 'draw order'

mutate line-missing 'frames.splice(12, 1);'
expect_fail line-missing 'line-missing' 'frame 13'

mutate line-extra 'frames.push({...frames[frames.length - 1], frame: 21});'
expect_fail line-extra 'line-extra' 'extra line 21'

mutate matrix-turned 'frame(4).bones.find((b) => b.name === "hip").a += 0.002;'
expect_fail matrix-turned 'matrix-turned' 'frame 4' 'bone "hip" a'

mutate colour-faded 'frame(6).slots.find((s) => s.name === "head").color[3] -= 0.003;'
expect_fail colour-faded 'colour-faded' 'frame 6' 'slot "head" color'

mutate dark-added 'frame(8).slots.find((s) => s.name === "head").dark = [0, 0, 0, 1];'
expect_fail dark-added 'dark-added' 'frame 8' 'slot "head" dark'

mutate vertex-moved '
const s = frame(9).slots.find((s) => s.name === "rear-upper-arm");
s.vertices[5] += 0.1;'
expect_fail vertex-moved 'vertex-moved' 'frame 9' 'slot "rear-upper-arm" vert'

mutate event-value '
const e = frame(1).events.find((e) => e.type === "event" && e.name === "footstep");
if (!e) throw new Error("frame 1 has no footstep event");
e.float += 0.001;'
expect_fail event-value 'event-value' 'frame 1' 'footstep'

: >"$work/empty.jsonl"
if out=$(node "$oracle_dir/compare_poses.mjs" "$work/empty.jsonl" "$work/empty.jsonl" --label empty 2>&1); then
    fail "compare_poses.mjs passed two empty dumps: $out"
fi

# The demo rig: every animation, and the schedule written for it, dump without error.
for file in "$rig_json" "$rig_atlas"; do
    if [ ! -f "$file" ]; then
        fail "$file is missing (the demo_rig target writes it)"
    fi
done
if [ -f "$rig_json" ] && [ -f "$rig_atlas" ]; then
    animations=$(node -e 'console.log(Object.keys(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).animations || {}).join("\n"))' "$rig_json")
    [ -n "$animations" ] || fail "$rig_json has no animations"
    for animation in $animations; do
        if ! out=$(node "$oracle_dir/pose_dump.mjs" --skeleton "$rig_json" --atlas "$rig_atlas" \
                   --animation "$animation" --steps 90 --every 3 2>&1 >"$work/rig.jsonl"); then
            fail "pose_dump.mjs on the demo rig, animation $animation: $out"
        elif [ "$(wc -l <"$work/rig.jsonl")" -ne 30 ]; then
            fail "pose_dump.mjs on the demo rig, animation $animation: $(wc -l <"$work/rig.jsonl") lines, expected 30"
        fi
    done
    schedule=$oracle_dir/schedules/demo-rig-attack.json
    if ! out=$(node "$oracle_dir/pose_dump.mjs" --skeleton "$rig_json" --atlas "$rig_atlas" \
               --schedule "$schedule" --steps 200 --every 10 2>&1 >"$work/rig.jsonl"); then
        fail "pose_dump.mjs on the demo rig, $schedule: $out"
    fi
    echo "demo rig: animations $(echo $animations) and demo-rig-attack.json dumped"
fi

if [ "$failures" -ne 0 ]; then
    echo "FAIL: $failures checks failed"
    exit 1
fi
echo "ok: compare_poses.mjs passes identical and within-tolerance dumps and fails every mutated one and empty dumps"
