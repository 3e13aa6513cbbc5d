#!/usr/bin/env bash
# `spinegpu view` opens a window on an X server (Xvfb) and shows in it exactly what `render --scene` draws: while the
# view holds frame 12 of a scene (--frames 12 --hold), the X server's copy of the window, dumped by xwd, equals
# render's frame-0012.png of the same scene through the same path, every pixel. Resized by xdotool, the window shows,
# every pixel, what render draws of the scene at twice its size and camera scale, and at twice its height with the
# canvas centred; zoomed by a wheel step about its centre and dragged by (50, 20), it shows what render draws with
# the camera the view announces (for the knights, exactly the camera that zoom and drag make). Scenes: the demo rig's
# crowd through the gpu, gpu-tiles and cpu paths (the cpu path's view with --no-vsync); the five Spine example types
# of tests/scenes/crowd-mixed-types.json through the gpu path when the examples are there. SIGTERM closes the view
# cleanly: its summary counts the 12 frames, and the validation layer, on throughout, reports nothing. Also: without
# a display the error says a window needs one, and --hold needs --frames.
#   bash view_shows_what_render_draws.sh SPINEGPU EXAMPLES_DIR BUILD_DIR      (exit 77: skipped)
set -uo pipefail
bin=$1 examples=${SPINE_EXAMPLES:-$2} build=$3
here=$(cd "$(dirname "$0")" && pwd)
oracle=$here/../render_oracle
# shellcheck source=../render_oracle/require_packages.sh
source "$oracle/require_packages.sh"
require_render_oracle "$build"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0

# Skips (exit 77) saying why; in CI, where `make deps` installs everything this test needs, fails instead.
skip() {
  if [ -n "${CI:-}" ]; then echo "FAIL (CI has every dependency): $*"; exit 1; fi
  echo "skipped: $*"; exit 77
}
# Only lavapipe presents to Xvfb (hardware drivers need a real display), so both view and render use it.
export SPINEGPU_DEVICE=llvmpipe

out=$(env -u DISPLAY -u WAYLAND_DISPLAY "$bin" view --frames 1 2>&1)
status=$?
case $out in *"a window needs GLFW"*) skip "$out" ;; esac
if [ $status -ne 1 ] || [[ $out != *"a window needs a display"* ]]; then
  echo "FAIL: without a display, expected exit 1 saying a window needs one; got $status: $out"; failed=1
fi
out=$("$bin" view --hold 2>&1)
if [ $? -ne 2 ] || [[ $out != *"--hold keeps the last of --frames N frames"* ]]; then
  echo "FAIL: --hold without --frames: $out"; failed=1
fi
for tool in xvfb-run xwd xdotool; do
  command -v $tool >/dev/null || skip "$tool is not installed (Debian: xvfb, x11-apps, xdotool)"
done
# A display number of this test's own (xvfb-run -a races with other tests starting servers at the same time).
display=$((200 + $$ % 700))
xvfb-run -n $display -s "-screen 0 1024x768x24" xwd -silent -root -out /dev/null >/dev/null 2>&1 ||
  skip "Xvfb does not start here (xvfb-run -n $display xwd -root failed)"

# The demo rig's crowd on a 640x360 canvas: 40 knights placed by a fixed seed.
"$bin" demo --export "$work/rig" >/dev/null || { echo "FAIL: demo --export"; exit 1; }
RANDOM=7
animations=(idle walk run attack)
{
  echo '{"width": 640, "height": 360, "background": "1d2330ff", "camera": {"scale": 1, "x": 0, "y": 360},'
  echo ' "types": [{"name": "knight", "skeleton": "rig/spinegpu-demo.json", "atlas": "rig/spinegpu-demo.atlas"}],'
  echo ' "characters": ['
  for i in $(seq 0 39); do
    flip=false; [ $((RANDOM % 2)) -eq 1 ] && flip=true
    printf '  {"type": "knight", "x": %d, "y": %d, "scale": 0.%d, "flipX": %s, "animation": "%s", ' \
      "$((RANDOM % 600 + 20))" "$((RANDOM % 250 + 10))" "$((RANDOM % 10 + 20))" $flip "${animations[RANDOM % 4]}"
    printf '"start": %d.%03d}%s\n' \
      $((RANDOM % 2)) $((RANDOM % 1000)) "$([ "$i" -lt 39 ] && echo ,)"
  done
  echo ' ]}'
} > "$work/knights.json"

# Shows SCENE (through PATH) in a window of SIZE (WxH, the scene's canvas) under Xvfb, holding frame 12, and dumps
# the window to OUT.xwd; then resizes the window to twice that size and dumps it again to OUT-2x.xwd. The view's
# output goes to OUT.log.
show() {
  local scene=$1 path=$2 out=$3 size=$4
  xvfb-run -n $display -s "-screen 0 1600x1000x24" bash -c '
    bin=$1 scene=$2 path=$3 out=$4 w=$5 h=$6
    # Waits until the view says it holds frame 12 at the size given ($1), in a line after the first $2 it printed.
    held() {
      for _ in $(seq 1 1200); do
        tail -n +$((${2:-0} + 1)) "$out.log" | grep -q "holding frame 12 at $1," && return 0
        kill -0 $pid 2>/dev/null || return 1
        sleep 0.1
      done
      return 1
    }
    # Dumps the window to $1 once two dumps in a row agree (the held frame is on show).
    dump() {
      for _ in $(seq 1 60); do
        xwd -silent -name "spinegpu view: holding frame 12" -out "$1.a" &&
          sleep 0.3 && xwd -silent -name "spinegpu view: holding frame 12" -out "$1" && cmp -s "$1.a" "$1" &&
          return 0
      done
      return 1
    }
    vsync=; [ "$path" = cpu ] && vsync=--no-vsync  # (one path shows frames as they come)
    "$bin" view --scene "$scene" --path "$path" --frames 12 --hold $vsync --validation > "$out.log" 2>&1 &
    pid=$!
    if held "${w}x$h" && dump "$out.xwd"; then
      xdotool search --name "spinegpu view: holding frame 12" windowsize $((2 * w)) $((2 * h))
      held "$((2 * w))x$((2 * h))" && dump "$out-2x.xwd"
      xdotool search --name "spinegpu view: holding frame 12" windowsize $w $((2 * h))
      held "${w}x$((2 * h))" && dump "$out-tall.xwd"
      # Back to the canvas size, then one wheel step up at its centre and a drag by (50, 20) with the left button.
      lines=$(wc -l < "$out.log")
      xdotool search --name "spinegpu view: holding frame 12" windowsize $w $h
      if held "${w}x$h" "$lines"; then
        before=$(grep "^holding" "$out.log" | tail -n 1)
        xdotool search --name "spinegpu view: holding frame 12" mousemove --window %1 $((w / 2)) $((h / 2)) click 4 \
          mousedown 1 mousemove --window %1 $((w / 2 + 50)) $((h / 2 + 20)) mouseup 1
        # Until the camera has moved and its last announcement has stood for a second.
        last=$before
        for _ in $(seq 1 120); do
          sleep 1
          now=$(grep "^holding" "$out.log" | tail -n 1)
          [ "$now" != "$before" ] && [ "$now" = "$last" ] && break
          last=$now
        done
        dump "$out-moved.xwd"
      fi
    fi
    kill -TERM $pid
    wait $pid
    echo "exit $?" >> "$out.log"' bash "$bin" "$scene" "$path" "$out" "${size%x*}" "${size#*x}"
}

# Compares the window dump OUT.xwd with render's frame 12 of SCENE through PATH (background BG), labelled LABEL.
compare_dump() {
  local dump=$1 scene=$2 path=$3 bg=$4 label=$5
  [ -f "$dump.xwd" ] || { echo "FAIL: $label: no window dump"; failed=1; return; }
  node "$oracle/xwd_to_png.mjs" "$dump.xwd" "$dump.png" || { failed=1; return; }
  "$bin" render --scene "$scene" --frames 12 --path "$path" --out "$dump-render" >/dev/null ||
    { echo "FAIL: render --scene $scene --path $path"; failed=1; return; }
  echo -n "$label: the window against render's frame 12: "
  node "$oracle/compare_images.mjs" "$dump.png" "$dump-render/frame-0012.png" --threshold 0 --max-fraction 0 \
    --background "$bg" --diff "$dump-diff.png" || failed=1
  echo
}

# Checks that the view of SCENE (canvas SIZE, background BG) through PATH shows render's frame 12, and after the
# window is resized to twice its size, the frame render draws of the same scene at twice its size and scale.
check() {
  local scene=$1 path=$2 size=$3 bg=$4 name=$5
  local out=$work/$name-$path
  show "$scene" "$path" "$out" "$size"
  if ! grep -q "^showed 12 frames" "$out.log" || ! grep -q "^exit 0" "$out.log" || grep -q "validation" "$out.log"
  then
    echo "FAIL: view $name --path $path:"; cat "$out.log"; failed=1; return
  fi
  grep "^showed" "$out.log"
  compare_dump "$out" "$scene" "$path" "$bg" "$name, $path"
  # The scene as the window shows it at other sizes: twice the size (the camera scaled by 2), and twice as tall (the
  # canvas centred: the camera moved down by half the canvas's height).
  node -e '
    const fs = require("fs"), s = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
    const twice = {...s, width: 2 * s.width, height: 2 * s.height,
                   camera: {scale: 2 * s.camera.scale, x: 2 * s.camera.x, y: 2 * s.camera.y}};
    const tall = {...s, height: 2 * s.height, camera: {...s.camera, y: s.camera.y + s.height / 2}};
    fs.writeFileSync(process.argv[2], JSON.stringify(twice));
    fs.writeFileSync(process.argv[3], JSON.stringify(tall));' \
    "$scene" "${scene%.json}-2x.json" "${scene%.json}-tall.json"
  compare_dump "$out-2x" "${scene%.json}-2x.json" "$path" "$bg" "$name, $path, resized to twice the size"
  compare_dump "$out-tall" "${scene%.json}-tall.json" "$path" "$bg" "$name, $path, resized to twice the height"
  # Zoomed and panned: the camera the view last announced draws the same picture.
  local camera
  camera=$(grep "^holding frame 12 at" "$out.log" | tail -n 1 | sed -n 's/.*, camera \([^ ]*\) .*/\1/p')
  if [ "$camera" = "$(grep -m 1 "^holding frame 12 at" "$out.log" | sed -n 's/.*, camera \([^ ]*\) .*/\1/p')" ]; then
    echo "FAIL: $name, $path: zoomed and dragged, the camera stayed $camera"
    failed=1
  fi
  if [ -n "$expect_moved" ] && [ "$camera" != "$expect_moved" ]; then
    echo "FAIL: $name, $path: zoomed about the centre and dragged, the camera is '$camera', not $expect_moved"
    failed=1
  fi
  node -e '
    const fs = require("fs"), s = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
    const [scale, x, y] = process.argv[3].split(",").map(Number);
    fs.writeFileSync(process.argv[2], JSON.stringify({...s, camera: {scale, x, y}}));' \
    "$scene" "${scene%.json}-moved.json" "$camera"
  compare_dump "$out-moved" "${scene%.json}-moved.json" "$path" "$bg" "$name, $path, zoomed and panned ($camera)"
}

# The knights' camera (1, 0, 360), zoomed 1.25 times about (320, 180) and moved by (50, 20).
expect_moved=1.25,-30,425
for path in gpu gpu-tiles cpu; do check "$work/knights.json" $path 640x360 1d2330ff knights; done
expect_moved=
if [ -d "$examples/spineboy" ]; then
  examples=$(cd "$examples" && pwd)
  sed "s|EXAMPLES/|$examples/|g" "$here/../scenes/crowd-mixed-types.json" > "$work/mixed.json"
  check "$work/mixed.json" gpu 640x400 202830ff mixed
else
  echo "(the Spine examples are not at $examples: the mixed crowd is left out)"
fi
exit $failed
