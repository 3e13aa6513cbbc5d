#!/usr/bin/env bash
# Our runtime against the official one (@esotericsoftware/spine-core 4.2.119): every example skeleton's every
# animation (JSON against JSON, binary against binary), each skin of the multi-skin rigs, every schedule in
# tests/oracle/schedules, and the demo rig, compared with DESIGN.md's tolerances. See tests/oracle/README.md.
#   bash oracle_poses.sh SPINEGPU EXAMPLES_DIR BUILD_DIR      (exit 77: skipped)
here=$(cd "$(dirname "$0")" && pwd)
exec bash "$here/../oracle/run_pose_oracle.sh" "$@"
