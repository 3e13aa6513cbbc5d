#!/usr/bin/env bash
# Runs the renderer's checks and benchmarks on the machine with the NVIDIA H200 (the `device` tool of this
# workplace; see docs/PERFORMANCE.md for the command that sends it). Everything is built here and carried: the
# spinegpu binary, the shared libraries it needs that the device lacks (.devlib: libsimdjson, libtbb), the Vulkan
# loader packages with vulkan-validationlayers (.gl: Debian's .deb files, `apt-get download`) and the Spine examples
# the checks read (.examples); bench/device_prepare.sh makes all three. Results go to $OUT.
#   bash bench/device_run.sh [bench|checks|targets|sizes|diagnose|tiles|ab|frame|rounds|memory|host|closeups|gtests|
#                             offscreen|lend|onto|all]
#   (QUICK=1: the diagnosis at 64 px only)
# targets: the renderer issue's targets for 8,000 spineboy-pro characters (GPU ms, CPU frame, the CPU path's frame
#     against the tile path's), three runs.
# tiles: the tile rasterizer against the raster pipeline, 8,000 spineboys at 16 to 128 px, and the other skeletons.
# sizes: the tile rasterizer of every carried build (as ab) for fewer, larger characters: 8,000 spineboys at 64 px
#     to 2 at 4,096 px, raptors at 256 and 1,024 px; then the raster pipeline.
# frame: the CPU frame of 8,000 characters (spineboy, raptor, celestial) through gpu-tiles, the update before packing
#     and inside it (--update-in-pack), next to the update alone and the CPU path; every carried build in turn (as
#     ab), three rounds.
# rounds: the CPU frame of 8,000 spineboy-pro and raptor-pro characters (update alone on 1 and 16 threads, update
#     before packing, update inside it) for every carried build, their order rotated each round, rounds until
#     ROUNDS_S seconds (default 480) have passed: the form in which session 7 compared two builds.
# host: does the host's load explain the CPU frame? The machine's CPU layout and cgroup limits, then rounds (until
#     HOST_S seconds, default 420) of the CPU frame of 8,000 spineboy-pro characters, update in the pack, on 16, 15,
#     14, 12 and 8 threads, and of the update alone on 1 and 16; every row carries the host's steal share.
# offscreen: 8,000 spineboys in view and 8,000 or 24,000 more outside it, posed or passed over (--skip-offscreen);
#     EXTRAS="0 24000" picks the counts outside, WALK=P has every character walk P pixels a second (--walk).
# lend: samples/draw_on_your_device (an application lending its own Vulkan device to the renderer) on the hardware
#     driver, onto its image (lend-*-app.png), in its own render pass (lend-*-pass.png) and there from a secondary
#     command buffer (lend-*-secondary.png), with `spinegpu render` of the same frames beside it (lend-*-render.png;
#     to compare here: tests/cli/png_rgba.py decodes them); the in-pass ones come back only when they differ.
# onto: 8,000 spineboys into the renderer's own target, onto an application's RGBA8 UNORM image and onto an sRGB one
#     (bench --onto), every carried build (as ab), in turn, rounds rotated.
# gtests: the GPU test suite (spinegpu_gpu_tests, built by device_prepare.sh with TESTS=1) on the hardware driver.
# closeups: the cross close-up magnified 10 to 300,000 times through every path, to see where the raster pipeline's
#     clipping leaves pixel centres on a shared edge uncovered.
# ab: the tile rasterizer of every build carried as .devlib/spinegpu* (spinegpu-base: an earlier one, others:
#     variants), 8,000 spineboys at 64 px, in turn three times (AB_ROUNDS: more; the order rotated each round),
#     then each one's time split (SPINEGPU_DIAGNOSE_TILES; QUICK=1: not split). AB_PATHS=gpu-tiles,gpu,cpu: other
#     paths in the same rows.
set -uo pipefail
what=${1:-all}
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export LD_LIBRARY_PATH=$PWD/.devlib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
ls .gl/vulkan-validationlayers_*.deb >/dev/null 2>&1 || echo "no vulkan-validationlayers in .gl: the checks will fail"
if ! ./.devlib/spinegpu help >/dev/null 2>&1; then echo "spinegpu does not start here"; ./.devlib/spinegpu help; fi
bin=${BIN:-$PWD/.devlib/spinegpu}  # BIN: another build (.devlib/spinegpu-base, say)
E=$PWD/.examples
out=${OUT:-/tmp/out}
mkdir -p "$out"
nproc; lscpu | grep -E "^Model name|^L3" || true
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader || true
if ! "$bin" render --skeleton "$E/spineboy/spineboy-pro.skel" --atlas "$E/spineboy/spineboy-pma.atlas" \
     --animation run --steps 10 --width 64 --height 64 --fit --out /tmp/probe.png; then
  export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
  export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
fi

if [ "$what" = checks ] || [ "$what" = all ]; then
  # Render cases on the hardware driver, validation on; the images come back to be compared here with the
  # official renderer and the CPU path (the device has no Node).
  mkdir -p /tmp/renders
  while IFS=$'\t' read -r label skeleton kind value skin steps; do
    case $label in '#'*|label|'') continue ;; esac
    [ "$kind" = schedule ] && value=tests/oracle/schedules/$value
    dir=$(dirname "$E/$skeleton") base=$(basename "$(dirname "$E/$skeleton")")
    for atlas in "$dir/$base.atlas" "$dir/$base-pma.atlas"; do
      id=$(printf '%s_%s' "$label" "$(basename "$atlas" .atlas)")
      args=(--skeleton "$E/$skeleton" --atlas "$atlas" --"$kind" "$value" --steps "$steps" --width 384 --height 384)
      [ "$skin" != "-" ] && args+=(--skin "$skin")
      camera=$("$bin" render "${args[@]}" --fit --background 404850ff --validation --out "/tmp/renders/$id.gpu.png") \
        || { echo "FAIL $id gpu"; continue; }
      echo "$id ${camera#--camera }" >> /tmp/renders/cameras.txt
      for path in cpu gpu-tiles; do
        "$bin" render "${args[@]}" --camera "${camera#--camera }" --background 404850ff --path $path --validation \
          --out "/tmp/renders/$id.$path.png" || echo "FAIL $id $path"
      done
    done
  done < tests/render_oracle/cases.tsv
  sed "s|EXAMPLES/|$E/|g" tests/scenes/crowd-mixed-types.json > /tmp/scene.json
  for path in gpu gpu-tiles cpu; do
    "$bin" render --scene /tmp/scene.json --frames 3 --path $path --validation --out /tmp/renders/scene-$path \
      || echo "FAIL scene $path"
  done
  # Crowds of small characters (the draw_a_crowd sample: 8,000, 2,000 and 500 spineboys in 1280x720, about 15, 30
  # and 60 pixels tall), where pages are minified many times and the paths' vertex placement and UV interpolation
  # must agree closely (docs/PERFORMANCE.md, sessions 18 and 19). They travel apart (crowds*.tgz): one archive would
  # pass the 16 MiB a file.
  for n in 8000 2000 500; do
    for path in gpu gpu-tiles cpu; do
      ./.devlib/draw_a_crowd "$E/spineboy/spineboy-pro.skel" "$E/spineboy/spineboy-pma.atlas" run \
        "/tmp/renders/crowd-$n-$path.png" $path $n >/dev/null || echo "FAIL crowd $n $path"
    done
  done
  # A mipmapped copy of spineboy's atlas at 64 px through every path, and the same frame at 512 px from the Linear
  # atlas (tests/cli/render_honours_the_atlas_filters.sh, part 2).
  mkdir -p /tmp/mipmap
  sed 's/filter: Linear, Linear/filter: MipMapLinearLinear, Linear/' "$E/spineboy/spineboy-pma.atlas" \
    > /tmp/mipmap/spineboy-pma.atlas
  ln -sf "$E/spineboy/spineboy-pma.png" /tmp/mipmap/spineboy-pma.png
  pose=(--skeleton "$E/spineboy/spineboy-pro.skel" --animation walk --steps 10)
  camera=$("$bin" render "${pose[@]}" --width 64 --height 64 --atlas "$E/spineboy/spineboy-pma.atlas" --fit \
    --out /tmp/probe.png) || echo "FAIL mipmap camera"
  large=$(awk -v c="${camera#--camera }" 'BEGIN { split(c, v, ","); printf "%.9g,%.9g,%.9g", 8 * v[1], 8 * v[2], 8 * v[3] }')
  "$bin" render "${pose[@]}" --width 512 --height 512 --atlas "$E/spineboy/spineboy-pma.atlas" --camera "$large" \
    --validation --out /tmp/renders/mipmap-large.png || echo "FAIL mipmap large"
  for path in gpu gpu-tiles cpu; do
    "$bin" render "${pose[@]}" --width 64 --height 64 --atlas /tmp/mipmap/spineboy-pma.atlas \
      --camera "${camera#--camera }" --path $path --validation --out "/tmp/renders/mipmap-$path.png" \
      || echo "FAIL mipmap $path"
    "$bin" render "${pose[@]}" --width 64 --height 64 --atlas /tmp/mipmap/spineboy-pma.atlas \
      --camera "${camera#--camera }" --path $path --background 404850ff --validation \
      --out "/tmp/renders/mipmap-opaque-$path.png" \
      || echo "FAIL mipmap $path over an opaque background"
  done
  # Close-ups whose vertices lie millions of pixels away, beyond the tile path's 32-bit grid (bench/closeups).
  while IFS=$'\t' read -r label skeleton size camera check; do
    case $label in '#'*|label|'') continue ;; esac
    for path in gpu gpu-tiles; do
      "$bin" render --skeleton ".devlib/closeups/$skeleton.json" --atlas ".devlib/closeups/$skeleton.atlas" \
        --animation still --steps 1 --width "$size" --height "$size" --camera "$camera" --background 336699ff \
        --path $path --validation --out "/tmp/renders/closeup-$label.$path.png" || echo "FAIL closeup $label $path"
    done
    # The tile path's coverage checked against its edge functions at every pixel (SPINEGPU_DIAGNOSE_TILES=4: opaque
    # black where they agree, white where not).
    SPINEGPU_DIAGNOSE_TILES=4 "$bin" render --skeleton ".devlib/closeups/$skeleton.json" \
      --atlas ".devlib/closeups/$skeleton.atlas" --animation still --steps 1 --width "$size" --height "$size" \
      --camera "$camera" --path gpu-tiles --validation --out "/tmp/renders/closeup-$label.coverage.png" \
      || echo "FAIL closeup $label coverage"
  done < bench/closeups/views.tsv
  tar -C /tmp -czf "$out/renders.tgz" --exclude='crowd-*' renders
  (cd /tmp && tar -czf "$out/crowds.tgz" renders/crowd-2000-* renders/crowd-500-*)
  (cd /tmp && tar -czf "$out/crowds-8000.tgz" renders/crowd-8000-*)
  "$bin" demo --out /tmp/demo --frames 30 --characters 2000 | tail -n 6 | tee "$out/demo.txt"
  cp /tmp/demo/demo.png "$out/demo.png" 2>/dev/null
fi

if [ "$what" = diagnose ] || [ "$what" = all ]; then
  # Where the GPU time of 8,000 spineboys goes: character size (fragments) and the texture fetch.
  for px in 16 32 64 128; do
    [ -n "${QUICK:-}" ] && [ $px != 64 ] && continue
    "$bin" bench --skeleton "$E/spineboy/spineboy-pro.skel" --atlas "$E/spineboy/spineboy-pma.atlas" \
      --characters 8000 --frames 60 --threads 16 --paths gpu --character-pixels $px --json \
      | tee -a "$out/diagnose.jsonl"
  done
  SPINEGPU_DIAGNOSE_FLAT=1 "$bin" bench --skeleton "$E/spineboy/spineboy-pro.skel" \
    --atlas "$E/spineboy/spineboy-pma.atlas" --characters 8000 --frames 60 --threads 16 --paths gpu,cpu --json \
    | sed 's/"path": "/"path": "flat-/' | tee -a "$out/diagnose.jsonl"
  SPINEGPU_DIAGNOSE_PLAIN_BLEND=1 "$bin" bench --skeleton "$E/spineboy/spineboy-pro.skel" \
    --atlas "$E/spineboy/spineboy-pma.atlas" --characters 8000 --frames 60 --threads 16 --paths gpu --json \
    | sed 's/"path": "/"path": "plainblend-/' | tee -a "$out/diagnose.jsonl"
  SPINEGPU_DIAGNOSE_PLAIN_BLEND=1 SPINEGPU_DIAGNOSE_FLAT=1 "$bin" bench --skeleton "$E/spineboy/spineboy-pro.skel" \
    --atlas "$E/spineboy/spineboy-pma.atlas" --characters 8000 --frames 60 --threads 16 --paths gpu --json \
    | sed 's/"path": "/"path": "plainblend-flat-/' | tee -a "$out/diagnose.jsonl"
fi

if [ "$what" = tiles ] || [ "$what" = all ]; then
  for px in 16 32 64 128; do
    paths=gpu,gpu-tiles
    [ $px = 64 ] && paths=update,gpu,gpu-tiles,cpu
    "$bin" bench --skeleton "$E/spineboy/spineboy-pro.skel" --atlas "$E/spineboy/spineboy-pma.atlas" \
      --characters 8000 --frames 60 --threads 16 --paths $paths --character-pixels $px --json \
      | sed "s/\"path\": \"/\"pixels\": $px, \"path\": \"/" | tee -a "$out/tiles.jsonl"
  done
  # The update inside the packing pass (PoseJob), next to the same frame with the update before it.
  "$bin" bench --skeleton "$E/spineboy/spineboy-pro.skel" --atlas "$E/spineboy/spineboy-pma.atlas" \
    --characters 8000 --frames 60 --threads 16 --paths gpu-tiles --update-in-pack --json | tee -a "$out/tiles.jsonl"
  for skel in raptor/raptor-pro celestial-circus/celestial-circus-pro; do
    atlas=$E/$(dirname $skel)/$(basename $(dirname $skel))-pma.atlas
    "$bin" bench --skeleton "$E/$skel.skel" --atlas "$atlas" --characters 8000 --frames 60 --threads 16 \
      --paths gpu,gpu-tiles --json | tee -a "$out/tiles.jsonl"
  done
  "$bin" bench --skeleton "$E/spineboy/spineboy-pro.skel" --atlas "$E/spineboy/spineboy-pma.atlas" \
    --characters 1000,30000 --frames 60 --threads 16 --paths gpu-tiles --json | tee -a "$out/tiles.jsonl"
fi

if [ "$what" = frame ]; then
  tag() { sed "s/\"path\": \"/\"build\": \"$1\", \"path\": \"/"; }
  builds=$(cd .devlib && ls spinegpu spinegpu-* 2>/dev/null)
  for round in 1 2 3; do
    for skel in spineboy/spineboy-pro raptor/raptor-pro celestial-circus/celestial-circus-pro; do
      atlas=$E/$(dirname $skel)/$(basename $(dirname $skel))-pma.atlas
      paths=update,gpu-tiles
      [ $skel = spineboy/spineboy-pro ] && paths=update,gpu-tiles,cpu
      for b in $builds; do
        "$PWD/.devlib/$b" bench --skeleton "$E/$skel.skel" --atlas "$atlas" --characters 8000 --frames 60 \
          --threads 16 --paths $paths --json | tag "$b" | tee -a "$out/frame.jsonl"
        "$PWD/.devlib/$b" bench --skeleton "$E/$skel.skel" --atlas "$atlas" --characters 8000 --frames 60 \
          --threads 16 --paths gpu-tiles --update-in-pack --json | tag "$b" | tee -a "$out/frame.jsonl"
      done
    done
  done
fi

if [ "$what" = rounds ]; then
  builds=($(cd .devlib && ls spinegpu spinegpu-* 2>/dev/null))
  start=$SECONDS
  for round in $(seq 1 50); do
    [ $((SECONDS - start)) -gt "${ROUNDS_S:-480}" ] && break
    first=$(( (round - 1) % ${#builds[@]} ))
    order=("${builds[@]:first}" "${builds[@]:0:first}")
    for skel in spineboy/spineboy-pro raptor/raptor-pro; do
      args=(--skeleton "$E/$skel.skel" --atlas "$E/$(dirname $skel)/$(dirname $skel)-pma.atlas" --characters 8000
            --frames 60 --threads 16 --json)
      for b in "${order[@]}"; do
        "$PWD/.devlib/$b" bench "${args[@]}" --paths update,gpu-tiles |
          sed "s/^{/{\"build\": \"$b\", \"round\": $round, /" | tee -a "$out/rounds.jsonl"
        "$PWD/.devlib/$b" bench "${args[@]}" --paths gpu-tiles --update-in-pack |
          sed "s/^{/{\"build\": \"$b\", \"round\": $round, /" | tee -a "$out/rounds.jsonl"
      done
    done
  done
fi

if [ "$what" = memory ]; then
  # Where the CPU frame's memory goes: the update of 1,000 and 8,000 spineboys on 1 and 16 threads (do the poses
  # fitting in the caches matter?), and the frame with the per-frame buffers in device-local memory the host writes
  # through the bus (the default), in host-cached system memory, or in other system memory
  # (SPINEGPU_DIAGNOSE_HOST_MEMORY); every carried build, three rounds.
  tag() { sed "s/\"path\": \"/\"build\": \"$1\", \"path\": \"/"; }
  builds=$(cd .devlib && ls spinegpu spinegpu-* 2>/dev/null)
  sb=(--skeleton "$E/spineboy/spineboy-pro.skel" --atlas "$E/spineboy/spineboy-pma.atlas" --frames 60 --json)
  for round in 1 2 3; do
    for b in $builds; do
      for t in 1 16; do
        "$PWD/.devlib/$b" bench "${sb[@]}" --characters 1000,8000 --threads $t --paths update | tag "$b" \
          | tee -a "$out/memory.jsonl"
      done
      for m in device_local cached system; do
        for inpack in "" --update-in-pack; do
          SPINEGPU_DIAGNOSE_HOST_MEMORY=$m "$PWD/.devlib/$b" bench "${sb[@]}" --characters 8000 --threads 16 \
            --paths gpu-tiles $inpack | tag "$b-$m" | tee -a "$out/memory.jsonl"
        done
      done
    done
  done
fi

if [ "$what" = host ]; then
  { lscpu; echo; cat /proc/loadavg; for f in cpu.max cpu.stat; do echo "$f:"; cat /sys/fs/cgroup/$f; done; } \
    > "$out/host.txt" 2>&1
  sb=(--skeleton "$E/spineboy/spineboy-pro.skel" --atlas "$E/spineboy/spineboy-pma.atlas" --characters 8000
      --frames 60 --json)
  tag() { sed "s/^{/{\"build\": \"$1\", \"round\": $2, /"; }
  start=$SECONDS
  for round in $(seq 1 50); do
    [ $((SECONDS - start)) -gt "${HOST_S:-420}" ] && break
    "$bin" bench "${sb[@]}" --threads 16 --paths update | tag threads-16 "$round" | tee -a "$out/host.jsonl"
    for t in 16 15 14 12 8; do
      "$bin" bench "${sb[@]}" --threads $t --paths gpu-tiles --update-in-pack | tag "threads-$t" "$round" \
        | tee -a "$out/host.jsonl"
    done
  done
  { echo "after:"; cat /proc/loadavg /sys/fs/cgroup/cpu.stat; } >> "$out/host.txt" 2>&1
fi

if [ "$what" = ab ]; then
  ab_bench() {
    "$1" bench --skeleton "$E/spineboy/spineboy-pro.skel" --atlas "$E/spineboy/spineboy-pma.atlas" \
      --characters 8000 --frames 60 --threads 16 --paths "${AB_PATHS:-gpu-tiles}" --json \
      | sed "s/\"path\": \"/\"build\": \"$2\", \"path\": \"/"
  }
  builds=$(cd .devlib && ls spinegpu spinegpu-* 2>/dev/null)
  # (AB_ROUNDS rounds, default 3, the builds' order rotated each round: the first of a round is not always the same.)
  for round in $(seq 1 "${AB_ROUNDS:-3}"); do
    for b in $builds; do ab_bench "$PWD/.devlib/$b" "$b" | tee -a "$out/ab.jsonl"; done
    builds=$(echo $builds | awk '{for (i = 2; i <= NF; i++) printf "%s ", $i; print $1}')
  done
  if [ -z "${QUICK:-}" ]; then
    for d in 1 2 3; do
      for b in $builds; do
        SPINEGPU_DIAGNOSE_TILES=$d ab_bench "$PWD/.devlib/$b" "$b-diagnose-$d" | tee -a "$out/ab.jsonl"
      done
    done
  fi
fi

if [ "$what" = onto ]; then
  # The cost of drawing onto an application's image, sRGB ones in linear light: 8,000 spineboys at 64 px into the
  # renderer's own target, onto an RGBA8 UNORM image and onto an RGBA8 sRGB one (--onto), on the paths AB_PATHS
  # (default gpu-tiles,gpu), for every build carried (as ab), all in turn, their order rotated each round,
  # ONTO_ROUNDS rounds (default 3).
  runs=""
  for b in $(cd .devlib && ls spinegpu spinegpu-* 2>/dev/null); do runs="$runs $b:own $b:unorm $b:srgb"; done
  for round in $(seq 1 "${ONTO_ROUNDS:-3}"); do
    for run in $runs; do
      b=${run%%:*} t=${run#*:}
      flag=(); [ "$t" = own ] || flag=(--onto "$t")
      "$PWD/.devlib/$b" bench --skeleton "$E/spineboy/spineboy-pro.skel" --atlas "$E/spineboy/spineboy-pma.atlas" \
        --characters 8000 --frames 60 --threads 16 --paths "${AB_PATHS:-gpu-tiles,gpu}" "${flag[@]}" --json \
        | sed "s/\"path\": \"/\"build\": \"$b\", \"path\": \"/" | tee -a "$out/onto.jsonl"
    done
    runs=$(echo $runs | awk '{for (i = 2; i <= NF; i++) printf "%s ", $i; print $1}')
  done
fi

if [ "$what" = sizes ]; then
  # The tile path as characters grow and their number falls (about the same covered area: 8,000 spineboys 64 pixels
  # tall down to 2 of 4,096; raptors at 256 and 1,024): every carried build in turn, three rounds, then the raster
  # pipeline once for comparison. Past some hundreds of pixels a character's masks no longer fit shared memory.
  sizes_bench() {
    for spec in spineboy:8000:64 spineboy:2000:128 spineboy:500:256 spineboy:125:512 spineboy:32:1024 \
                spineboy:8:2048 spineboy:2:4096 raptor:500:256 raptor:32:1024; do
      IFS=: read -r skel n px <<< "$spec"
      "$1" bench --skeleton "$E/$skel/$skel-pro.skel" --atlas "$E/$skel/$skel-pma.atlas" --characters "$n" \
        --character-pixels "$px" --frames 30 --threads 16 --paths "$3" --json \
        | sed "s/\"path\": \"/\"build\": \"$2\", \"pixels\": $px, \"path\": \"/"
    done
  }
  builds=$(cd .devlib && ls spinegpu spinegpu-* 2>/dev/null)
  for round in 1 2 3; do
    for b in $builds; do sizes_bench "$PWD/.devlib/$b" "$b" gpu-tiles | tee -a "$out/sizes.jsonl"; done
  done
  sizes_bench "$bin" spinegpu gpu | tee -a "$out/sizes.jsonl"
fi

if [ "$what" = offscreen ]; then
  # Characters outside the view: 8,000 spineboy-pro characters in view and 8,000 or 24,000 more outside it, posed and
  # culled, or passed over by the update (--skip-offscreen, gpu::OffscreenFilter); the update before the pack and
  # inside it (--update-in-pack); three rounds. One JSON row per run in offscreen.jsonl.
  for round in 1 2 3; do
    for extra in ${EXTRAS:-0 8000 24000}; do
      for skip in "" --skip-offscreen; do
        [ "$extra" = 0 ] && [ -n "$skip" ] && continue
        for pack in "" --update-in-pack; do
          "$bin" bench --skeleton "$E/spineboy/spineboy-pro.skel" --atlas "$E/spineboy/spineboy-pma.atlas" \
            --characters 8000 --offscreen "$extra" $skip $pack ${WALK:+--walk "$WALK"} --paths gpu-tiles --frames 120 \
            --json \
            >> "$out/offscreen.jsonl" 2>> "$out/offscreen-errors.txt"
        done
      done
    done
  done
fi

if [ "$what" = gtests ]; then
  # The GPU test suite on the hardware driver (device_prepare.sh with TESTS=1), validation on as in `make test`. The
  # tests that compare with the official renderer need Node, which the device lacks: they skip.
  # The whole suite creates some fifty instances in one process; session 27 saw the last ones fail on the H100
  # (VK_ERROR_INCOMPATIBLE_DRIVER) after the earlier ones had drawn: the tile tests run again alone, and the suite
  # once more with the loader's messages, of which the distinct ones are kept (gtests-loader.txt) to show why.
  export SPINEGPU_SHADER_DIR=$PWD/.devlib/shaders
  SPINE_EXAMPLES=$E ./.devlib/spinegpu_gpu_tests --gtest_brief=1 --gtest_output="xml:$out/gtests.xml" 2>&1 \
    | tail -n 200 > "$out/gtests.txt"
  tail -n 5 "$out/gtests.txt"
  if [ -z "${GTESTS_ONCE:-}" ]; then  # (GTESTS_ONCE=1: the suite once, when device time is short)
    SPINE_EXAMPLES=$E ./.devlib/spinegpu_gpu_tests --gtest_filter='TileRasterizer.*' 2>&1 | tail -n 60 \
      > "$out/gtests-tiles.txt"
    SPINE_EXAMPLES=$E VK_LOADER_DEBUG=error,warn,driver ./.devlib/spinegpu_gpu_tests --gtest_brief=1 2>&1 \
      | grep -v "^\[" | sed 's/0x[0-9a-f]*/0x/g' | sort | uniq -c | sort -rn | head -n 60 > "$out/gtests-loader.txt"
    tail -n 5 "$out/gtests-tiles.txt"; head -n 20 "$out/gtests-loader.txt"
  fi
fi

if [ "$what" = lend ]; then
  # Spineboy and the demo rig, each drawn by the sample on a device of its own and by render on the renderer's own.
  rig=/tmp/lend-rig
  ./.devlib/spinegpu demo --export "$rig" > /dev/null
  for spec in "$E/spineboy/spineboy-pro.skel:$E/spineboy/spineboy-pma.atlas:run:0.5,256,480" \
              "$rig/spinegpu-demo.json:$rig/spinegpu-demo.atlas:attack:1.29832137,234.237289,470.820129"; do
    IFS=: read -r skel atlas anim cam <<< "$spec"
    name=$(basename "$skel" | cut -d. -f1)
    ./.devlib/draw_on_your_device "$skel" "$atlas" "$anim" 30 "$cam" "$out/lend-$name-app.png" 2>&1
    ./.devlib/draw_on_your_device "$skel" "$atlas" "$anim" 30 "$cam" "$out/lend-$name-pass.png" in-pass 2>&1
    ./.devlib/draw_on_your_device "$skel" "$atlas" "$anim" 30 "$cam" "$out/lend-$name-secondary.png" \
      in-secondary 2>&1
    "$bin" render --skeleton "$skel" --atlas "$atlas" --animation "$anim" --steps 30 --width 512 --height 512 \
      --camera "$cam" --out "$out/lend-$name-render.png" 2>&1
    # (The same pixels make the same bytes: the sample and render encode alike. The in-pass images come back only
    # when they differ from render's.)
    for mode in app pass secondary; do
      if cmp -s "$out/lend-$name-$mode.png" "$out/lend-$name-render.png"; then
        echo "lend $name $mode: the same bytes as render's"
        [ $mode = app ] || rm "$out/lend-$name-$mode.png"
      else
        echo "lend $name $mode: differs from render's (compare here: tests/cli/png_rgba.py)"
      fi
    done
  done
fi

if [ "$what" = closeups ]; then
  # Where does the raster pipeline leave the pixel centres on the cross's x axis uncovered (session 26: the H200's
  # did in the cross-O view, 100,000 times magnified)? The cross-O view magnified 10 to 300,000 times through every
  # path (the CPU path's vertices never pass through the GPU's skinning), and the other cross views through the CPU
  # path; bench/closeups/crack_report.mjs DIR reads them here.
  mkdir -p /tmp/closeups
  cross() {  # name camera path
    "$bin" render --skeleton .devlib/closeups/cross.json --atlas .devlib/closeups/cross.atlas --animation still \
      --steps 1 --width 128 --height 128 --camera "$2" --background 336699ff --path "$3" --validation \
      --out "/tmp/closeups/$1.$3.png" || echo "FAIL $1 $3"
  }
  for scale in 10 100 1000 10000 30000 100000 300000; do
    for path in gpu cpu gpu-vertex gpu-tiles; do cross "cross-O-$scale" "$scale,64.25,64.5" $path; done
  done
  for view in cross-N cross-E cross-Otie; do
    cross "$view" "$(awk -v l="$view" '$1 == l { print $4 }' bench/closeups/views.tsv)" cpu
  done
  tar -C /tmp -czf "$out/closeups.tgz" closeups
fi

if [ "$what" = targets ]; then  # not in all: its file would make nine in $OUT
  # The renderer issue's three targets for 8,000 spineboy-pro characters, three runs: the update alone (on 1 and 16
  # threads), the tile path and the CPU path in one run, then the tile path with the update inside the pack (the CPU
  # frame).
  sb=(--skeleton "$E/spineboy/spineboy-pro.skel" --atlas "$E/spineboy/spineboy-pma.atlas" --characters 8000 --frames 60)
  for _ in 1 2 3; do
    "$bin" bench "${sb[@]}" --threads 16 --paths update,gpu-tiles,cpu --json | tee -a "$out/targets.jsonl"
    "$bin" bench "${sb[@]}" --threads 16 --paths gpu-tiles --update-in-pack --json | tee -a "$out/targets.jsonl"
  done
fi

if [ "$what" = bench ] || [ "$what" = all ]; then
  for skel in spineboy/spineboy-pro raptor/raptor-pro celestial-circus/celestial-circus-pro; do
    atlas=$E/$(dirname $skel)/$(basename $(dirname $skel))-pma.atlas
    paths=update,gpu,gpu-tiles,cpu
    [ $skel = spineboy/spineboy-pro ] && paths=update,gpu,gpu-tiles,cpu,gpu-vertex
    "$bin" bench --skeleton "$E/$skel.skel" --atlas "$atlas" --characters 1000,8000 --frames 120 --threads 16 \
      --paths $paths --json | tee -a "$out/bench.jsonl"
  done
  "$bin" bench --skeleton "$E/spineboy/spineboy-pro.skel" --atlas "$E/spineboy/spineboy-pma.atlas" \
    --characters 8000,30000 --frames 120 --threads 16 --paths gpu,gpu-tiles,gpu-vertex --json \
    | tee -a "$out/bench.jsonl"
  # Thread scaling of the update, 1 to 16 threads.
  for t in 1 2 4 8 12 16; do
    "$bin" bench --skeleton "$E/spineboy/spineboy-pro.skel" --atlas "$E/spineboy/spineboy-pma.atlas" \
      --characters 8000 --frames 120 --threads $t --paths update --json | tee -a "$out/scaling.jsonl"
  done
fi
