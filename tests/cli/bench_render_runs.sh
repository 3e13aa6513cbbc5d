#!/usr/bin/env bash
# `spinegpu bench` through the renderer's paths with --json, on spineboy-pro with a small crowd: one row per path,
# with pack, record, GPU and frame times, bytes per character and the device; with --update-in-pack the update runs
# inside packing, so update_ms is null and the row says so; every row has the host's steal share and the cpu path's
# frame over its own; --offscreen adds culled characters, which --skip-offscreen does not pose (walking too, with
# --walk); --skin puts every character in a skin (mix-and-match draws nothing without one); --onto unorm|srgb draws
# the same triangles onto an image of a device the bench lends the renderer, and says so; a crowd that draws nothing is
# warned of, a path that cannot draw the skeleton refused before timing, and rows measured before a path fails are
# printed. Checks behaviour only, never timings.
# usage: bench_render_runs.sh SPINEGPU EXAMPLES_DIR BUILD_DIR
set -uo pipefail
bin=$1 examples=${SPINE_EXAMPLES:-$2}
if [ ! -d "$examples/spineboy" ]; then echo "skipped: Spine example exports not found at $examples"; exit 77; fi
command -v node >/dev/null || { echo "skipped: node not installed"; exit 77; }
skeleton="$examples/spineboy/spineboy-pro.skel" atlas="$examples/spineboy/spineboy-pma.atlas"

check_rows() {  # in_pack rows...
  printf '%s\n' "$2" | IN_PACK=$1 node -e '
    const lines = require("fs").readFileSync(0, "utf8").split("\n").filter((l) => l.length > 0);
    const rows = lines.map((l) => JSON.parse(l));
    const inPack = process.env.IN_PACK === "1";
    const paths = ["gpu", "gpu-tiles", "cpu"];
    if (rows.length !== paths.length) throw new Error("expected " + paths.length + " rows, got " + rows.length);
    rows.forEach((row, i) => {
      if (row.path !== paths[i]) throw new Error("row " + i + ": path " + row.path);
      if (row.characters !== 40 || row.threads !== 2 || row.frames !== 3) throw new Error("row " + i + ": counts");
      for (const k of ["pack_ms", "record_ms", "gpu_ms", "frame_ms", "bytes_per_character", "triangles"])
        if (typeof row[k] !== "number" || !(row[k] > 0)) throw new Error(row.path + ": " + k + " is not a number > 0");
      if (typeof row.device !== "string" || row.device.length === 0) throw new Error(row.path + ": no device");
      if (row.update_in_pack !== inPack) throw new Error(row.path + ": update_in_pack " + row.update_in_pack);
      if (row.onto !== null) throw new Error(row.path + ": onto " + row.onto + " without --onto");
      if (inPack ? row.update_ms !== null : !(row.update_ms > 0))
        throw new Error(row.path + ": update_ms " + row.update_ms + (inPack ? ", expected null" : ""));
      const cpu = rows.find((r) => r.path === "cpu");
      if (Math.abs(row.cpu_frame_ratio - cpu.frame_ms / row.frame_ms) > 1e-9 * row.cpu_frame_ratio)
        throw new Error(row.path + ": cpu_frame_ratio " + row.cpu_frame_ratio + ", not the cpu frame over its own");
      const linux = require("fs").existsSync("/proc/stat");
      if (linux ? !(row.steal_percent >= 0 && row.steal_percent <= 100) : row.steal_percent !== null)
        throw new Error(row.path + ": steal_percent " + row.steal_percent);
    });'
}

for in_pack in 0 1; do
  flag=(); [ "$in_pack" = 1 ] && flag=(--update-in-pack)
  if ! out=$("$bin" bench --skeleton "$skeleton" --atlas "$atlas" --characters 40 --frames 3 --threads 2 \
               --width 320 --height 180 --paths gpu,gpu-tiles,cpu "${flag[@]}" --json 2>&1); then
    case $out in *"no Vulkan"*|*"no usable Vulkan device"*) echo "skipped: $out"; exit 77 ;; esac
    echo "FAIL: bench ${flag[*]} exited non-zero: $out"; exit 1
  fi
  check_rows "$in_pack" "$out" || { echo "FAIL: bad --json rows (${flag[*]}):"; printf '%s\n' "$out"; exit 1; }
done
# --offscreen M: M more characters outside the view, all culled; --skip-offscreen passes over them in the update,
# drawing the same triangles, standing or walking (--walk 900: each character walks 15 px a frame, those outside
# staying outside). Mix-and-match in a full skin too (its inactive bones lie at the world origin, which the bench's
# view shows).
offscreen_row() {  # skeleton atlas flags...
  "$bin" bench --skeleton "$1" --atlas "$2" --characters 20 --offscreen 30 --frames 3 --threads 2 \
    --width 320 --height 180 --paths gpu --json "${@:3}"
}
mm="$examples/mix-and-match/mix-and-match-pro.skel" mm_atlas="$examples/mix-and-match/mix-and-match-pma.atlas"
for rig in spineboy mix-and-match spineboy-walking; do
  args=("$skeleton" "$atlas"); [ $rig = mix-and-match ] && args=("$mm" "$mm_atlas" --skin full-skins/girl)
  walk=0; [ $rig = spineboy-walking ] && walk=900 && args+=(--walk 900)
  for skip in 0 1; do
    flag=(); [ "$skip" = 1 ] && flag=(--skip-offscreen)
    row=$(offscreen_row "${args[@]}" "${flag[@]}") || { echo "FAIL: $rig --offscreen 30 ${flag[*]}: $row"; exit 1; }
    printf '%s\n' "$row" | SKIP=$skip WALK=$walk node -e '
      const row = JSON.parse(require("fs").readFileSync(0, "utf8"));
      const skip = process.env.SKIP === "1";
      if (row.characters !== 20 || row.offscreen !== 30) throw new Error("counts");
      if (row.skip_offscreen !== skip) throw new Error("skip_offscreen " + row.skip_offscreen);
      if (row.walk_pixels !== Number(process.env.WALK)) throw new Error("walk_pixels " + row.walk_pixels);
      if (!(row.culled >= 30)) throw new Error("culled " + row.culled);
      if (skip ? row.passed_over !== row.culled : row.passed_over !== 0)
        throw new Error("passed_over " + row.passed_over + ", culled " + row.culled);
      if (!(row.update_ms > 0 && row.triangles > 0)) throw new Error("update_ms " + row.update_ms);
      console.log(row.triangles);' > "${TMPDIR:-/tmp}/offscreen-$skip.$$" ||
      { echo "FAIL: $rig --offscreen 30 ${flag[*]}: $row"; exit 1; }
  done
  cmp -s "${TMPDIR:-/tmp}/offscreen-0.$$" "${TMPDIR:-/tmp}/offscreen-1.$$" ||
    { echo "FAIL: $rig: --skip-offscreen drew other triangles"; rm -f "${TMPDIR:-/tmp}"/offscreen-?.$$; exit 1; }
done
rm -f "${TMPDIR:-/tmp}"/offscreen-?.$$
err=$("$bin" bench --skeleton "$skeleton" --atlas "$atlas" --characters 10 --offscreen -1 --paths gpu 2>&1 >/dev/null)
[ $? -eq 2 ] && [[ $err == *'--offscreen needs an integer'* ]] || { echo "FAIL: --offscreen -1: $err"; exit 1; }
err=$("$bin" bench --skeleton "$skeleton" --atlas "$atlas" --characters 10 --walk 1.5 --paths gpu 2>&1 >/dev/null)
[ $? -eq 2 ] && [[ $err == *'--walk needs an integer'* ]] || { echo "FAIL: --walk 1.5: $err"; exit 1; }
# --onto: the same triangles as into the renderer's own target, on every path, timed on the GPU, the row naming the
# image's form.
onto_rows() {  # flags...
  "$bin" bench --skeleton "$skeleton" --atlas "$atlas" --characters 20 --frames 2 --threads 2 --width 320 \
    --height 180 --paths gpu,gpu-tiles,cpu,gpu-vertex --json "$@"
}
own=$(onto_rows) || { echo "FAIL: bench without --onto: $own"; exit 1; }
for onto in unorm srgb; do
  rows=$(onto_rows --onto $onto) || { echo "FAIL: --onto $onto: $rows"; exit 1; }
  printf '%s\n%s\n' "$own" "$rows" | ONTO=$onto node -e '
    const rows = require("fs").readFileSync(0, "utf8").split("\n").filter((l) => l.length > 0).map(JSON.parse);
    if (rows.length !== 8) throw new Error("expected 4 rows with and 4 without --onto, got " + rows.length);
    for (let i = 0; i < 4; ++i) {
      const own = rows[i], onto = rows[i + 4];
      if (onto.path !== own.path) throw new Error("row " + i + ": path " + onto.path);
      if (onto.onto !== process.env.ONTO) throw new Error(onto.path + ": onto " + onto.onto);
      if (!(onto.gpu_ms > 0)) throw new Error(onto.path + ": gpu_ms " + onto.gpu_ms);
      if (onto.triangles !== own.triangles || onto.device !== own.device)
        throw new Error(onto.path + ": " + onto.triangles + " triangles on " + onto.device + ", " + own.triangles +
                        " on " + own.device + " without --onto");
    }' || { echo "FAIL: --onto $onto:"; printf '%s\n%s\n' "$own" "$rows"; exit 1; }
done
err=$("$bin" bench --skeleton "$skeleton" --atlas "$atlas" --characters 10 --onto bgra --paths gpu 2>&1 >/dev/null)
[ $? -eq 2 ] && [[ $err == *'--onto is unorm or srgb'* ]] || { echo "FAIL: --onto bgra: $err"; exit 1; }
# --skin: every character in that skin. Mix-and-match's default skin draws nothing; its full skins draw.
triangles() {
  "$bin" bench --skeleton "$mm" --atlas "$mm_atlas" --characters 10 --frames 2 --threads 2 --width 320 --height 180 \
    --paths gpu --json "$@" | sed -n 's/.*"triangles": \([0-9]*\).*/\1/p'
}
[ "$(triangles)" = 0 ] || { echo "FAIL: mix-and-match in its default skin drew $(triangles) triangles"; exit 1; }
err=$(triangles 2>&1 >/dev/null)
[[ $err == *"the characters draw no triangle (no attachment shows in the default skin)"* ]] ||
  { echo "FAIL: no warning for a crowd that draws nothing: $err"; exit 1; }
[ "$(triangles --skin full-skins/girl)" -gt 1000 ] || { echo "FAIL: --skin full-skins/girl drew too little"; exit 1; }
err=$("$bin" bench --skeleton "$mm" --atlas "$mm_atlas" --characters 10 --skin nope 2>&1 >/dev/null)
[ $? -eq 1 ] && [[ $err == *'unknown skin "nope"'* ]] || { echo "FAIL: --skin nope: $err"; exit 1; }
# A path that cannot draw the skeleton is refused before anything is timed; a path that fails later leaves the rows
# measured before it printed.
raptor="$examples/raptor/raptor-pro.skel"
if [ -f "$raptor" ]; then
  out=$("$bin" bench --skeleton "$raptor" --atlas "$examples/raptor/raptor-pma.atlas" --characters 10 --frames 2 \
    --paths update,gpu-vertex --json 2>&1)
  [ $? -eq 1 ] && [[ $out == *"path gpu-vertex: the vertex-shader path cannot follow draw-order timelines"* &&
                     $out != *'"path"'* ]] || { echo "FAIL: gpu-vertex on raptor: $out"; exit 1; }
fi
rows=$("$bin" bench --skeleton "$skeleton" --atlas "$atlas" --characters 10 --frames 2 --paths update,gpu \
  --device no-such-device --json 2>/dev/null)
[ $? -eq 1 ] && [ "$(printf '%s\n' "$rows" | grep -c '"path": "update"')" -ge 1 ] ||
  { echo "FAIL: the update rows before a failing path: $rows"; exit 1; }
echo "ok"
