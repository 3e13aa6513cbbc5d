#!/usr/bin/env bash
# The library as a consumer uses it. `cmake --install` puts this build into a fresh prefix; samples/ is configured and
# built on its own against that prefix (find_package(spinegpu)); then, on the embedded demo rig (no example files
# needed), pose_one_character prints the same bits as `spinegpu pose` for the same animation and steps, and
# draw_a_crowd draws the same image through the gpu and the cpu path (at most 0.1% of covered pixels off by more
# than 2/255, as the render tests allow), and draw_on_your_device, drawing on a Vulkan device of its own that it lends
# to the renderer, onto its image and inside its own render pass, writes the image `spinegpu render` draws of the same
# frame both ways. Also checks that the README's C++ blocks
# are the samples' marked lines.
# usage: library_samples_match_the_tool.sh SPINEGPU EXAMPLES_DIR BUILD_DIR
set -uo pipefail
bin=$1 build=$3
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# The README quotes the samples: each ```cpp block of "Using the library from C++" is one sample's parts between
# "// README: begin NAME" and "// README: end" markers (all of them, or those named), each dedented, joined by blank
# lines, in order.
python3 - "$source_dir" <<'PY' || fail "README.md's C++ blocks differ from the samples' marked lines"
import re, sys, textwrap
def die(message): print(message); sys.exit(1)
root = sys.argv[1]
readme = open(f"{root}/README.md").read()
blocks = re.findall(r"^```cpp\n(.*?)^```$", readme, re.S | re.M)
marked = []
onto = ["headers", "lend", "character", "record", "copy", "submit"]
for name, parts in (("pose_one_character.cpp", None), ("draw_a_crowd.cpp", None), ("draw_on_your_device.cpp", onto),
                    ("draw_on_your_device.cpp", ["pass", "inline"]),
                    ("draw_on_your_device.cpp", ["secondary"])):
    text = open(f"{root}/samples/{name}").read()
    found = re.findall(r"^[ \t]*// README: begin ([^\n]*)\n(.*?)^[ \t]*// README: end", text, re.S | re.M)
    if parts is not None:
        if sorted(part for part, _ in found if part in parts) != sorted(parts):
            die(f"samples/{name}: not every part of {parts} is marked")
        found = [(part, body) for part, body in found if part in parts]
    if not found: die(f"samples/{name}: no marked part")
    marked.append("\n".join(textwrap.dedent(body) for _, body in found))
if len(blocks) != len(marked): die(f"README.md has {len(blocks)} C++ blocks, the samples {len(marked)}")
for k, (block, part) in enumerate(zip(blocks, marked)):
    if block != part:
        a, b = block.splitlines(), part.splitlines()
        line = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
        die(f"C++ block {k + 1}, line {line + 1}: README {a[line:line + 1]} against sample {b[line:line + 1]}")
PY

# Install, then build the samples against the installed package only, with the build's own cmake and generator. The
# build's install manifest (cmake --install rewrites it) is put back as it was.
cache_value() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"; }
cmake=$(cache_value CMAKE_COMMAND) generator=$(cache_value CMAKE_GENERATOR)
[ -x "$cmake" ] && [ -n "$generator" ] || fail "no CMAKE_COMMAND or CMAKE_GENERATOR in $build/CMakeCache.txt"
manifest=$build/install_manifest.txt
[ -f "$manifest" ] && cp "$manifest" "$tmp/manifest.saved"
"$cmake" --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" 2>&1
installed=$?
if [ -f "$tmp/manifest.saved" ]; then cp "$tmp/manifest.saved" "$manifest"; else rm -f "$manifest"; fi
[ $installed -eq 0 ] || fail "cmake --install: $(tail -5 "$tmp/install.log")"
config=$(find "$tmp/prefix" -name spinegpuConfig.cmake)
[ -n "$config" ] || fail "no spinegpuConfig.cmake installed"
[ -f "$tmp/prefix/include/spinegpu/gpu/renderer.hpp" ] || fail "no public headers installed"
[ ! -e "$tmp/prefix/include/spinegpu/demo_rig.hpp" ] || fail "the tool's demo_rig.hpp was installed"
"$cmake" -S "$source_dir/samples" -B "$tmp/samples" -G "$generator" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$tmp/prefix" >"$tmp/configure.log" 2>&1 ||
  fail "configuring samples/: $(tail -20 "$tmp/configure.log")"
grep -q "^spinegpu_DIR:PATH=$(dirname "$config")\$" "$tmp/samples/CMakeCache.txt" ||
  fail "samples/ did not find the installed package"
"$cmake" --build "$tmp/samples" >"$tmp/build.log" 2>&1 || fail "building samples/: $(tail -30 "$tmp/build.log")"

"$bin" demo --export "$tmp/rig" >/dev/null 2>&1 || fail "demo --export failed"
rig=$tmp/rig/spinegpu-demo.json atlas=$tmp/rig/spinegpu-demo.atlas
animation=$("$bin" info "$rig" --json |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["animations"][0]["name"])')
[ -n "$animation" ] || fail "no animation name found in info --json"

# The pose: every bone's world transform after 45 steps, as float32 bits, against the tool's last line.
"$tmp/samples/pose_one_character" "$rig" "$animation" 45 >"$tmp/sample-pose.txt" || fail "pose_one_character failed"
"$bin" pose --skeleton "$rig" --atlas "$atlas" --animation "$animation" --steps 45 --every 45 >"$tmp/tool-pose.jsonl" \
  || fail "spinegpu pose failed"
python3 - "$tmp/sample-pose.txt" "$tmp/tool-pose.jsonl" <<'PY' || fail "pose_one_character differs from spinegpu pose"
import json, struct, sys
def die(message): print(message); sys.exit(1)
f32 = lambda v: struct.pack("<f", float(v))
sample = [line.split() for line in open(sys.argv[1])]
tool = json.loads(open(sys.argv[2]).read().splitlines()[-1])["bones"]
if len(sample) != len(tool): die(f"{len(sample)} bones against {len(tool)}")
for row, bone in zip(sample, tool):
    if len(row) != 7: die(f"not a line of name and six numbers: {' '.join(row)}")
    if row[0] != bone["name"]: die(f"bone {row[0]} against {bone['name']}")
    for key, value in zip("abcdxy", row[1:]):
        if f32(value) != f32(bone[key]): die(f"{row[0]}.{key}: {value} against {bone[key]}")
PY

# The crowd through both paths: skipped without a Vulkan device.
"$tmp/samples/draw_a_crowd" "$rig" "$atlas" "$animation" "$tmp/gpu.png" gpu 60 >/dev/null 2>"$tmp/err"
code=$?
if [ $code -ne 0 ] && grep -q -e "no Vulkan" -e "no usable Vulkan device" "$tmp/err"; then
  echo "skipped: $(cat "$tmp/err")"; exit 77
fi
[ $code -eq 0 ] || fail "draw_a_crowd (gpu): exit code $code ($(cat "$tmp/err"))"
"$tmp/samples/draw_a_crowd" "$rig" "$atlas" "$animation" "$tmp/cpu.png" cpu 60 >/dev/null 2>"$tmp/err" \
  || fail "draw_a_crowd (cpu): $(cat "$tmp/err")"
export PYTHONPATH=$source_dir/tests/cli  # png_rgba.py
python3 - "$tmp/gpu.png" "$tmp/cpu.png" <<'PY' || fail "draw_a_crowd's gpu and cpu images differ"
import sys
from collections import Counter
from png_rgba import rgba
def die(message): print(message); sys.exit(1)
(w, h, a), (w2, h2, b) = rgba(sys.argv[1]), rgba(sys.argv[2])
if (w, h) != (w2, h2): die(f"sizes {w}x{h} and {w2}x{h2}")
background = Counter(a[i:i + 4] for i in range(0, len(a), 4)).most_common(1)[0][0]  # the commonest pixel
covered = differing = 0
for i in range(0, len(a), 4):
    p, q = a[i:i + 4], b[i:i + 4]
    if p == background and q == background: continue
    covered += 1
    differing += max(abs(p[k] - q[k]) for k in range(4)) > 2
print(f"covered {covered}, differing {differing}")
if covered < w * h // 10: die(f"only {covered} pixels of {w * h} drawn")
if differing > covered * 0.001: die(f"{differing} of {covered} covered pixels differ by more than 2/255")
PY

# The application's own device: draw_on_your_device lends it to the renderer and copies the frame out in its own
# command buffer; its image must be, pixel for pixel, the one `spinegpu render` draws of that frame on its own device.
camera=$("$bin" render --skeleton "$rig" --atlas "$atlas" --animation "$animation" --steps 30 --width 512 --height 512 \
  --fit --out "$tmp/fit.png" 2>"$tmp/err" | sed -n 's/^--camera //p')
[ -n "$camera" ] || fail "render --fit printed no camera ($(cat "$tmp/err"))"
"$bin" render --skeleton "$rig" --atlas "$atlas" --animation "$animation" --steps 30 --width 512 --height 512 \
  --camera "$camera" --out "$tmp/tool.png" 2>"$tmp/err" || fail "spinegpu render: $(cat "$tmp/err")"
# All three ways: onto the application's image, inside its own render pass over it (in-pass), and in that pass from a
# secondary command buffer (in-secondary).
for mode in onto in-pass in-secondary; do
  "$tmp/samples/draw_on_your_device" "$rig" "$atlas" "$animation" 30 "$camera" "$tmp/app-$mode.png" \
    $([ $mode != onto ] && echo $mode) >/dev/null 2>"$tmp/err" ||
    fail "draw_on_your_device ($mode): $(cat "$tmp/err")"
  python3 - "$tmp/app-$mode.png" "$tmp/tool.png" <<'PY' || fail "draw_on_your_device ($mode) differs from render"
import sys
from png_rgba import rgba
(w, h, a), (w2, h2, b) = rgba(sys.argv[1]), rgba(sys.argv[2])
if (w, h) != (w2, h2): print(f"sizes {w}x{h} and {w2}x{h2}"); sys.exit(1)
drawn = sum(1 for i in range(3, len(b), 4) if b[i] != 0)
differing = sum(1 for i in range(0, len(a), 4) if a[i:i + 4] != b[i:i + 4])
print(f"drawn {drawn}, differing {differing}")
if drawn < w * h // 20: print(f"only {drawn} pixels of {w * h} drawn"); sys.exit(1)
if differing: print(f"{differing} pixels differ"); sys.exit(1)
PY
done
echo "ok: installed package found and linked; pose equals spinegpu pose; gpu and cpu crowds agree; the application's" \
  "device draws what render draws"
