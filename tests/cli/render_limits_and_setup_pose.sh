#!/usr/bin/env bash
# `spinegpu render` at the edges of its input: `--steps 0` draws the setup pose (and --fit fits it); --fit warns when
# the pose shows nothing to frame; an atlas with more pages than the renderer's page array, or whose pages' headers add
# up to more than 2 GiB of pixels, is refused naming the atlas and the page before any page is decoded; --path
# gpu-vertex warns that it draws clipping attachments unclipped; --fit refuses a camera past --camera's range. Uses
# the embedded demo rig and files of its own (and spineboy, for the clipping warning, when the examples are there).
# usage: render_limits_and_setup_pose.sh SPINEGPU EXAMPLES_DIR BUILD_DIR
set -uo pipefail
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$bin" demo --export "$tmp" >/dev/null 2>&1 || fail "demo --export failed"
rig=$tmp/spinegpu-demo.json atlas=$tmp/spinegpu-demo.atlas
first=$("$bin" info "$rig" --json | sed -n 's/.*"animations": \[{"name": "\([^"]*\)".*/\1/p')
[ -n "$first" ] || fail "no animation name found in info --json"

# The setup pose, fitted: drawn (some pixel not transparent) with a finite camera. Skipped without a Vulkan device.
camera=$("$bin" render --skeleton "$rig" --atlas "$atlas" --animation "$first" --steps 0 --width 64 --height 64 --fit \
  --out "$tmp/setup.png" 2>"$tmp/err")
code=$?
if [ $code -ne 0 ] && grep -q -e "no Vulkan" -e "no usable Vulkan device" "$tmp/err"; then
  echo "skipped: $(cat "$tmp/err")"; exit 77
fi
[ $code -eq 0 ] || fail "render --steps 0: exit code $code ($(cat "$tmp/err"))"
[[ $camera =~ ^--camera\ [0-9.e+-]+,[0-9.e+-]+,[0-9.e+-]+$ ]] || fail "render --steps 0 printed: $camera"
python3 - "$tmp/setup.png" <<'PY' || fail "the setup pose drew nothing"
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
pos, idat, width = 8, b"", 0
while pos < len(data):
    length, kind = struct.unpack(">I4s", data[pos:pos + 8])
    if kind == b"IHDR": width = struct.unpack(">I", data[pos + 8:pos + 12])[0]
    if kind == b"IDAT": idat += data[pos + 8:pos + 8 + length]
    pos += 12 + length
rows = zlib.decompress(idat)  # RGBA8 rows, each after a filter byte: any non-zero alpha byte is a drawn pixel
stride = 1 + 4 * width
sys.exit(0 if any(rows[r * stride + 1 + 4 * x + 3] for r in range(len(rows) // stride) for x in range(width)) else 1)
PY

# A pose that shows nothing: --fit warns that it has nothing to frame, and still writes the background.
printf '{"skeleton": {"spine": "4.2.43"}, "bones": [{"name": "root"}]}' > "$tmp/bare.json"
: > "$tmp/bare.atlas"
printf '{"commands": []}' > "$tmp/nothing.json"
"$bin" render --skeleton "$tmp/bare.json" --atlas "$tmp/bare.atlas" --schedule "$tmp/nothing.json" --width 16 \
  --height 16 --fit --out "$tmp/bare.png" >/dev/null 2>"$tmp/err" || fail "a bare skeleton: $(cat "$tmp/err")"
grep -q "bare.json: the pose shows no attachment.*--fit has nothing to frame" "$tmp/err" ||
  fail "a bare skeleton with --fit: no warning ($(cat "$tmp/err"))"
[ -s "$tmp/bare.png" ] || fail "a bare skeleton: no image written"

# expect_refused NAME EXPECTED: render with atlas NAME.atlas; exit code 1 and an error naming NAME.atlas and EXPECTED.
expect_refused() {
  local err code
  err=$("$bin" render --skeleton "$rig" --atlas "$tmp/$1.atlas" --animation "$first" --width 32 --height 32 \
    --camera 1,16,16 --out "$tmp/x.png" 2>&1 >/dev/null)
  code=$?
  [ $code -eq 1 ] || fail "$1: exit code $code, expected 1 ($err)"
  [[ $err == *"$1.atlas"* && $err == *"$2"* ]] || fail "$1: error lacks the atlas or \"$2\": $err"
}
# 257 pages: the rig's own and 256 more naming its image.
cp "$atlas" "$tmp/many.atlas"
for i in $(seq 1 256); do printf '\nspinegpu-demo.png\nsize: 1024, 512\n' >> "$tmp/many.atlas"; done
expect_refused many 'page "spinegpu-demo.png": more than 256 atlas pages in all'
# Three pages whose PNG header says 16384 x 16384 (1 GiB of pixels each; the file holds nothing more, so decoding it
# would fail: the refusal must come from the header alone).
printf '\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR\x00\x00\x40\x00\x00\x00\x40\x00\x08\x06\x00\x00\x00\x00\x00\x00\x00' \
  > "$tmp/huge.png"
cp "$atlas" "$tmp/huge.atlas"
for i in 1 2 3; do printf '\nhuge.png\nsize: 16384, 16384\n' >> "$tmp/huge.atlas"; done
expect_refused huge 'page "huge.png": a 16384x16384 image: the atlas pages would take more than 2048 MiB'

# --fit refuses a camera past what --camera takes (the rig 10^12 units out: OX would be -1.8e11), as a scene refuses
# one past a scene camera's range: neither draws with offsets a float cannot hold.
python3 - "$rig" "$tmp/far.json" <<'PY' || fail "could not write far.json"
import json, sys
rig = json.load(open(sys.argv[1]))
rig["bones"][0]["x"] = 1e12
json.dump(rig, open(sys.argv[2], "w"))
PY
err=$("$bin" render --skeleton "$tmp/far.json" --atlas "$atlas" --animation "$first" --steps 0 --width 64 \
  --height 64 --fit --out "$tmp/far.png" 2>&1 >/dev/null)
code=$?
[ $code -eq 1 ] && [[ $err == *"far.json: --fit: the pose's bounds need the camera "*", past what --camera takes"* ]] ||
  fail "--fit far away: exit code $code: $err"
printf '%s' "{\"types\": [{\"name\": \"far\", \"skeleton\": \"far.json\", \"atlas\": \"spinegpu-demo.atlas\"}],
  \"characters\": [{\"type\": \"far\", \"animation\": \"$first\"}]}" > "$tmp/far-scene.json"
err=$("$bin" render --scene "$tmp/far-scene.json" --out "$tmp/far-out" 2>&1 >/dev/null)
code=$?
[ $code -eq 1 ] && [[ $err == *"far-scene.json: camera: the first frame's bounds need the camera "* ]] ||
  fail "scene fitted far away: exit code $code: $err"

# The vertex-shader path draws clipping attachments unclipped, and says so (spineboy has one); the gpu path clips.
spineboy=$2/spineboy
if [ -f "$spineboy/spineboy-pro.json" ]; then
  for path in gpu-vertex gpu; do
    "$bin" render --skeleton "$spineboy/spineboy-pro.json" --atlas "$spineboy/spineboy.atlas" --animation portal \
      --steps 0 --width 16 --height 16 --fit --path $path --out "$tmp/clip-$path.png" >/dev/null 2>"$tmp/err" ||
      fail "render --path $path: $(cat "$tmp/err")"
    warned=no
    grep -q "warning: .*spineboy-pro.json has clipping attachments, which --path gpu-vertex draws unclipped" \
      "$tmp/err" && warned=yes
    expected=no
    [ $path = gpu-vertex ] && expected=yes
    [ $warned = $expected ] || fail "--path $path: warned=$warned: $(cat "$tmp/err")"
  done
fi
echo ok
