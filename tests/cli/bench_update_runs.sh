#!/usr/bin/env bash
# `spinegpu bench --paths update --json` on spineboy-pro with small counts: one JSON line per row, each with the
# fields of DESIGN.md's row format (null where a figure does not apply) and the host's steal share, a single-threaded
# and a multi-threaded row per count; unknown paths and bad counts are refused with a message. Checks behaviour only,
# never timings.
# usage: bench_update_runs.sh SPINEGPU EXAMPLES_DIR BUILD_DIR
set -uo pipefail
bin=$1 examples=${SPINE_EXAMPLES:-$2}
if [ ! -d "$examples/spineboy" ]; then echo "skipped: Spine example exports not found at $examples"; exit 77; fi
command -v node >/dev/null || { echo "skipped: node not installed"; exit 77; }
skeleton="$examples/spineboy/spineboy-pro.skel" atlas="$examples/spineboy/spineboy.atlas"

if ! out=$("$bin" bench --skeleton "$skeleton" --atlas "$atlas" --characters 3,17 --frames 5 --threads 2 \
             --paths update --json 2>&1); then
  echo "FAIL: bench exited non-zero: $out"; exit 1
fi
if ! printf '%s\n' "$out" | node -e '
  const lines = require("fs").readFileSync(0, "utf8").split("\n").filter((l) => l.length > 0);
  const rows = lines.map((l) => JSON.parse(l));
  if (rows.length !== 4) throw new Error("expected 4 rows (2 counts x 1 and 2 threads), got " + rows.length);
  const keys = ["skeleton", "characters", "path", "threads", "frames", "update_ms", "pack_ms", "record_ms", "gpu_ms",
                "frame_ms", "bytes_per_character", "device"];
  const expected = [[3, 1], [3, 2], [17, 1], [17, 2]];
  rows.forEach((row, i) => {
    for (const k of keys) if (!(k in row)) throw new Error("row " + i + " has no " + k);
    if (row.skeleton !== "spineboy-pro") throw new Error("skeleton " + row.skeleton);
    if (row.path !== "update") throw new Error("path " + row.path);
    if (row.characters !== expected[i][0] || row.threads !== expected[i][1])
      throw new Error("row " + i + ": characters " + row.characters + ", threads " + row.threads);
    if (row.frames !== 5) throw new Error("frames " + row.frames);
    for (const k of ["update_ms", "update_us_per_character"])
      if (typeof row[k] !== "number" || !(row[k] >= 0)) throw new Error(k + " is not a number >= 0");
    for (const k of ["pack_ms", "record_ms", "gpu_ms", "frame_ms", "bytes_per_character", "device"])
      if (row[k] !== null) throw new Error(k + " should be null for path update");
    // The host steal share over the frames: a percentage on Linux, null where /proc/stat cannot be read.
    const linux = require("fs").existsSync("/proc/stat");
    if (linux ? !(row.steal_percent >= 0 && row.steal_percent <= 100) : row.steal_percent !== null)
      throw new Error("steal_percent " + row.steal_percent);
  });'; then
  echo "FAIL: bad --json rows:"; printf '%s\n' "$out"; exit 1
fi

# The table form runs too and has one line per row after the header.
if ! table=$("$bin" bench --skeleton "$skeleton" --atlas "$atlas" --characters 4 --frames 3 --threads 2 2>&1); then
  echo "FAIL: bench (table) exited non-zero: $table"; exit 1
fi
[ "$(printf '%s\n' "$table" | grep -c spineboy-pro)" -eq 2 ] || { echo "FAIL: table:"; printf '%s\n' "$table"; exit 1; }

# Unknown paths and bad counts are usage errors (exit 2) with a message.
for bad in "--paths update,bogus" "--characters 0" "--characters 5,x" "--frames -3"; do
  # shellcheck disable=SC2086
  msg=$("$bin" bench --skeleton "$skeleton" --atlas "$atlas" --characters 2 $bad 2>&1 >/dev/null)
  rc=$?
  if [ "$rc" -ne 2 ] || [ -z "$msg" ]; then echo "FAIL: bench $bad: exit $rc, message \"$msg\""; exit 1; fi
done
echo "ok"
