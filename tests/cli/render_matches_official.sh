#!/usr/bin/env bash
# spinegpu render (GPU path) against the official renderer: see tests/render_oracle/run_render_oracle.sh.
here=$(cd "$(dirname "$0")" && pwd)
exec bash "$here/../render_oracle/run_render_oracle.sh" "$1" "$2" "$3" official
