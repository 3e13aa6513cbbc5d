#!/usr/bin/env bash
# spinegpu render through the tile rasterizer (--path gpu-tiles) against the official renderer: see
# tests/render_oracle/run_render_oracle.sh.
here=$(cd "$(dirname "$0")" && pwd)
SPINEGPU_RENDER_PATH=gpu-tiles exec bash "$here/../render_oracle/run_render_oracle.sh" "$1" "$2" "$3" official
