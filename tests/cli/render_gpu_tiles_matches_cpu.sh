#!/usr/bin/env bash
# The tile rasterizer (--path gpu-tiles) against the CPU path on every example skeleton: see
# tests/render_oracle/run_render_oracle.sh.
here=$(cd "$(dirname "$0")" && pwd)
SPINEGPU_RENDER_PATH=gpu-tiles exec bash "$here/../render_oracle/run_render_oracle.sh" "$1" "$2" "$3" cpu
