#!/usr/bin/env bash
# Device choice by name: `--device NAME` and SPINEGPU_DEVICE keep the Vulkan devices whose name contains NAME in any
# case, the flag before the variable; a name no device has is an error naming it. Read from `bench --json`, whose
# rows name the device that drew (the project's demo rig, a few frames). Skipped without lavapipe (llvmpipe).
# usage: render_picks_the_device_by_name.sh SPINEGPU EXAMPLES_DIR BUILD_DIR
set -uo pipefail
bin=$1 build=$3
rig=$build/demo_rig/spinegpu-demo.json atlas=$build/demo_rig/spinegpu-demo.atlas
fail() { echo "FAIL: $*"; exit 1; }

# device ARGS...: the device name in the bench row drawn with ARGS (env assignments go before the call).
bench=(bench --skeleton "$rig" --atlas "$atlas" --characters 2 --frames 2 --threads 1 --paths gpu --width 64 --height 64
       --json)
device() { "$bin" "${bench[@]}" "$@" 2>&1 | sed -n 's/.*"device": "\([^"]*\)".*/\1/p'; }

any=$(device)
[ -n "$any" ] || { echo "skipped: no Vulkan device draws here: $("$bin" "${bench[@]}" 2>&1 | tail -n 1)"; exit 77; }
[[ $(device --device llvmpipe) == llvmpipe* ]] || { echo "skipped: no lavapipe device (found $any)"; exit 77; }
[[ $(device --device LLVMPIPE) == llvmpipe* ]] || fail "--device LLVMPIPE did not pick llvmpipe"
[[ $(SPINEGPU_DEVICE=LlvmPipe device) == llvmpipe* ]] || fail "SPINEGPU_DEVICE=LlvmPipe did not pick llvmpipe"
[[ $(SPINEGPU_DEVICE=no-such-device device --device llvm) == llvmpipe* ]] ||
  fail "--device llvm did not win over SPINEGPU_DEVICE=no-such-device"
err=$(SPINEGPU_DEVICE=no-such-device "$bin" "${bench[@]}" 2>&1 >/dev/null)
code=$?
[ $code -eq 1 ] || fail "SPINEGPU_DEVICE=no-such-device: exit code $code ($err)"
[[ $err == *'"no-such-device"'* && $err == *llvmpipe* ]] ||
  fail "SPINEGPU_DEVICE=no-such-device: the error names neither the name nor the devices: $err"
echo "ok (devices found: $any; error: $err)"
