#!/usr/bin/env bash
# Errors in scene files (`spinegpu render --scene`) and schedule files (`pose --schedule`) go to stderr with exit
# code 1 and name the file and the place in it; no input makes the command crash (every case is a file a user
# could write). A render that fails prints nothing on stdout, not even the camera --fit chose; an --out that cannot be
# written is refused before the work.
# usage: render_and_schedule_errors_name_the_place.sh SPINEGPU EXAMPLES_DIR BUILD_DIR
set -uo pipefail
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# expect_error NAME EXPECTED TEXT: writes TEXT to NAME.json, renders it as a scene, and checks that the command exits
# with 1 and names NAME.json and EXPECTED; the error stays in $err.
expect_error() {
  local name=$1 expected=$2 code
  printf '%s' "$3" > "$tmp/$name.json"
  err=$("$bin" render --scene "$tmp/$name.json" --out "$tmp/out" 2>&1 >/dev/null)
  code=$?
  [ $code -eq 1 ] || fail "$name: exit code $code, expected 1 ($err)"
  [[ $err == *"$name.json"* && $err == *"$expected"* ]] || fail "$name: error lacks file or \"$expected\": $err"
}

type='{"name": "boy", "skeleton": "boy.json", "atlas": "boy.atlas"}'
# Values that must be objects but are not (these crashed the parser before it checked them).
expect_error camera-number 'camera: must be an object' "{\"camera\": 200, \"types\": [$type], \"characters\": []}"
expect_error character-number 'characters[0]: must be an object' "{\"types\": [$type], \"characters\": [7]}"
expect_error type-string 'types[0]: must be an object' '{"types": ["boy"], "characters": []}'
expect_error scene-array 'json: scene: must be an object' '[1, 2]'
# Wrong values, unknown names, missing parts, broken JSON.
expect_error camera-scale 'camera.scale: must be a number' "{\"camera\": {\"scale\": \"big\"}, \"types\": [$type]}"
expect_error unknown-type 'characters[0].type: unknown type "knight"' \
  "{\"types\": [$type], \"characters\": [{\"type\": \"knight\", \"animation\": \"run\"}]}"
expect_error no-types 'types: an array of skeleton types is required' '{"characters": []}'
expect_error tint 'characters[0].tint: must be a colour' \
  "{\"types\": [$type], \"characters\": [{\"type\": \"boy\", \"animation\": \"run\", \"tint\": \"red\"}]}"
expect_error broken 'line 1, column 12: invalid JSON' '{"types": ['
# A UTF-8 byte order mark (as some editors write) is skipped: the error is the scene's own.
expect_error bom 'characters[0].type: unknown type "knight"' \
  "$(printf '\xef\xbb\xbf'){\"types\": [$type], \"characters\": [{\"type\": \"knight\", \"animation\": \"run\"}]}"
expect_error height 'json: height: sizes are whole pixels' "{\"width\": 64, \"height\": 64.5, \"types\": [$type]}"
expect_error layer 'characters[0].layer: must be a whole number' \
  "{\"types\": [$type], \"characters\": [{\"type\": \"boy\", \"animation\": \"run\", \"layer\": 1.5}]}"
expect_error misspelt 'json: widht: unknown key' "{\"widht\": 64, \"types\": [$type], \"characters\": []}"
expect_error bogus 'characters[0].flipx: unknown key' \
  "{\"types\": [$type], \"characters\": [{\"type\": \"boy\", \"animation\": \"run\", \"flipx\": true}]}"
expect_error comment 'characters[0].comment: must be a string (free text)' \
  "{\"types\": [$type], \"characters\": [{\"type\": \"boy\", \"animation\": \"run\", \"comment\": 5}]}"
# A key given twice (JSON leaves the choice to the reader): refused, not silently the first or the last.
expect_error twice-name 'types[0].name: appears twice' \
  '{"types": [{"name": "boy", "skeleton": "boy.json", "atlas": "boy.atlas", "name": "girl"}], "characters": []}'
expect_error twice-width 'json: width: appears twice' \
  "{\"width\": 64, \"types\": [$type], \"characters\": [], \"width\": 32}"
expect_error no-type 'characters[0].type: is required' \
  "{\"types\": [$type], \"characters\": [{\"animation\": \"run\"}]}"
expect_error start 'characters[0].start: must be a number from 0 to 3600' \
  "{\"types\": [$type], \"characters\": [{\"type\": \"boy\", \"animation\": \"run\", \"start\": 4000}]}"

# A missing scene file names the file.
if err=$("$bin" render --scene "$tmp/missing.json" --out "$tmp/out" 2>&1 >/dev/null); then
  fail "missing scene accepted"
fi
[[ $err == *"missing.json"* ]] || fail "missing-scene error does not name the file: $err"

# Schedule files: the place of a bad command, against the demo rig (embedded, so this needs no example files).
"$bin" demo --export "$tmp/rig" >/dev/null 2>&1 || fail "demo --export failed"
rig=$(ls "$tmp"/rig/*.json | head -n 1) atlas=$(ls "$tmp"/rig/*.atlas | head -n 1)
[ -f "$rig" ] && [ -f "$atlas" ] || fail "demo --export wrote no skeleton and atlas"
# Errors in what a scene names are told from the place in the scene that names it.
rig_type="{\"name\": \"rig\", \"skeleton\": \"$rig\", \"atlas\": \"$atlas\"}"
expect_error nope-animation 'characters[0].animation: unknown animation "nope"' \
  "{\"types\": [$rig_type], \"characters\": [{\"type\": \"rig\", \"animation\": \"nope\"}]}"
expect_error nope-skeleton 'types[0]: ' \
  '{"types": [{"name": "x", "skeleton": "nope.skel", "atlas": "nope.atlas"}], "characters": []}'
[[ $err == *"nope.skel"* ]] || fail "nope-skeleton: the skeleton file is not named: $err"
expect_error nope-schedule 'characters[0].schedule: ' \
  "{\"types\": [$rig_type], \"characters\": [{\"type\": \"rig\", \"schedule\": \"nope-plan.json\"}]}"
[[ $err == *"nope-plan.json"* ]] || fail "nope-schedule: the schedule file is not named: $err"
expect_error both-plans 'characters[0]: needs exactly one of "animation" and "schedule"' \
  "{\"types\": [$rig_type], \"characters\": [{\"type\": \"rig\", \"animation\": \"a\", \"schedule\": \"p.json\"}]}"
expect_error empty-schedule 'characters[0].schedule: must not be empty' \
  "{\"types\": [$rig_type], \"characters\": [{\"type\": \"rig\", \"schedule\": \"\"}]}"
expect_error empty-skin 'characters[0].skin: must not be empty' \
  "{\"types\": [$rig_type], \"characters\": [{\"type\": \"rig\", \"animation\": \"a\", \"skin\": [\"\"]}]}"
# A refusal at draw time (the vertex-shader path cannot follow the rig's draw-order timeline) names the scene and the
# frame, and leaves no output folder behind.
animation=$("$bin" info "$rig" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["animations"][0]["name"])')
printf '%s' "{\"types\": [$rig_type], \"characters\": [{\"type\": \"rig\", \"animation\": \"$animation\"}]}" \
  > "$tmp/vertex.json"
err=$("$bin" render --scene "$tmp/vertex.json" --path gpu-vertex --out "$tmp/vertex-out" 2>&1 >/dev/null)
code=$?
[ $code -eq 1 ] || fail "gpu-vertex scene: exit code $code ($err)"
[[ $err == *"vertex.json: frame 1: "*"draw-order"* ]] || fail "gpu-vertex scene: error lacks scene, frame or cause: $err"
[ ! -e "$tmp/vertex-out" ] || fail "gpu-vertex scene: a failed render left $tmp/vertex-out behind"
# expect_schedule_error NAME EXPECTED TEXT: writes TEXT to NAME.json, plays it as a schedule with `pose`, and
# checks that the command exits with 1 and names NAME.json and EXPECTED.
expect_schedule_error() {
  local name=$1 expected=$2 code
  printf '%s' "$3" > "$tmp/$name.json"
  err=$("$bin" pose --skeleton "$rig" --atlas "$atlas" --schedule "$tmp/$name.json" --steps 1 2>&1 >/dev/null)
  code=$?
  [ $code -eq 1 ] || fail "$name: exit code $code, expected 1 ($err)"
  [[ $err == *"$name.json"* && $err == *"$expected"* ]] || fail "$name: error lacks file or \"$expected\": $err"
}
expect_schedule_error schedule-number 'commands[0]: must be an object' '{"commands": [5]}'
# (After a byte order mark, which is skipped.)
expect_schedule_error schedule-name 'commands[0].set: unknown animation "wlak"' \
  $'\xef\xbb\xbf{"commands": [{"step": 0, "track": 0, "set": "wlak", "loop": true}]}'
# (An unknown name comes with the names the skeleton has, in its order.)
expect_schedule_error schedule-names \
  'commands[0].set: unknown animation "wlak" (the skeleton'"'"'s animations are "attack", "idle", "run", "walk")' \
  '{"commands": [{"step": 0, "track": 0, "set": "wlak", "loop": true}]}'
expect_schedule_error skin-names 'skin: unknown skin "nope" (the skeleton'"'"'s skin is "default")' \
  '{"skin": "nope", "commands": []}'
expect_schedule_error schedule-twice 'commands[0].step: appears twice' \
  '{"commands": [{"step": 0, "track": 0, "set": "a", "loop": true, "step": 3}]}'
expect_schedule_error mix-twice 'mix.default: appears twice' '{"mix": {"default": 0.1, "default": 0.2}, "commands": []}'
# An unknown key is named where it stands, inside mix as anywhere.
expect_schedule_error mix-key 'mix.defualt: unknown key' '{"mix": {"defualt": 0.1}, "commands": []}'
expect_schedule_error mix-pair-key 'mix.pairs[0].durration: unknown key' \
  '{"mix": {"pairs": [{"durration": 0.2, "from": "a", "to": "a"}]}, "commands": []}'

# --fit with no device to draw on: the error, and no camera on stdout. (A machine without any Vulkan device fails
# before the name filter is looked at; the error then does not name it.)
first=$("$bin" info "$rig" --json | sed -n 's/.*"animations": \[{"name": "\([^"]*\)".*/\1/p')
[ -n "$first" ] || fail "no animation name found in info --json"
out=$("$bin" render --skeleton "$rig" --atlas "$atlas" --animation "$first" --width 32 --height 32 --fit \
  --device no-such-device --out "$tmp/x.png" 2>"$tmp/err")
code=$?
[ $code -eq 1 ] || fail "render on a missing device: exit code $code ($(cat "$tmp/err"))"
grep -q -e "no-such-device" -e "no Vulkan" "$tmp/err" || fail "missing-device error says neither: $(cat "$tmp/err")"
[ -z "$out" ] || fail "a render that found no device printed: $out"
# No driver at all (the loader pointed at a driver list that does not exist): a plain "no Vulkan driver" error.
out=$(VK_DRIVER_FILES=$tmp/none.json VK_ICD_FILENAMES=$tmp/none.json "$bin" render --skeleton "$rig" --atlas "$atlas" \
  --animation "$first" --width 32 --height 32 --fit --out "$tmp/x.png" 2>"$tmp/err")
code=$?
[ $code -eq 1 ] || fail "render without a driver: exit code $code ($(cat "$tmp/err"))"
grep -q "no Vulkan driver found" "$tmp/err" || fail "render without a driver: $(cat "$tmp/err")"

# --out under a file is refused before any work (no camera printed); folders that do not exist yet are made.
: > "$tmp/a-file"
out=$("$bin" render --skeleton "$rig" --atlas "$atlas" --animation "$first" --width 8 --height 8 --fit \
  --out "$tmp/a-file/x.png" 2>"$tmp/err")
code=$?
[ $code -eq 1 ] && [ -z "$out" ] && grep -q "a-file/x.png: --out: .*a-file is not a folder" "$tmp/err" ||
  fail "--out under a file: exit code $code, printed \"$out\": $(cat "$tmp/err")"
"$bin" render --skeleton "$rig" --atlas "$atlas" --animation "$first" --width 8 --height 8 --fit \
  --out "$tmp/new/deeper/x.png" >/dev/null 2>"$tmp/err" && [ -s "$tmp/new/deeper/x.png" ] ||
  fail "--out in new folders: $(cat "$tmp/err")"
# A rig whose root is scaled to 0 shows its attachments at one point: --fit warns that it has nothing to frame.
if command -v node >/dev/null; then
  node -e 'const fs = require("fs"); const d = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
           d.bones[0].scaleX = 0; d.bones[0].scaleY = 0; fs.writeFileSync(process.argv[2], JSON.stringify(d));' \
    "$rig" "$tmp/zero.json" || fail "node could not write the zero-scale rig"
  "$bin" render --skeleton "$tmp/zero.json" --atlas "$atlas" --animation "$first" --width 8 --height 8 --fit \
    --out "$tmp/zero.png" >/dev/null 2>"$tmp/err" && grep -q "attachments have no area" "$tmp/err" ||
    fail "a zero-scale rig: $(cat "$tmp/err")"
fi
echo ok
