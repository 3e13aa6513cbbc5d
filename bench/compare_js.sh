#!/usr/bin/env bash
# Our runtime against the official JS runtime on the same work, one thread, run alternately R times so that both
# see the same machine load; prints each pair and the median ratio (JS time / ours).
#   bash bench/compare_js.sh SPINEGPU SKELETON ATLAS [CHARACTERS=1000] [ROUNDS=5]
set -euo pipefail
bin=$1 skeleton=$2 atlas=$3 count=${4:-1000} rounds=${5:-5}
here=$(cd "$(dirname "$0")" && pwd)
ratios=()
for ((r = 1; r <= rounds; r++)); do
  ours=$("$bin" bench --skeleton "$skeleton" --atlas "$atlas" --characters "$count" --threads 1 --paths update --json \
         | head -n 1 | sed 's/.*"update_ms": \([0-9.e+-]*\).*/\1/')
  js=$(node "$here/js_update_bench.mjs" "$skeleton" "$atlas" "$count" | sed 's/.*"update_ms":\([0-9.e+-]*\).*/\1/')
  ratio=$(awk -v a="$js" -v b="$ours" 'BEGIN { printf "%.2f", a / b }')
  ratios+=("$ratio")
  echo "round $r: spine-core $js ms, spinegpu $ours ms per frame ($count characters): ${ratio}x"
done
printf '%s\n' "${ratios[@]}" | sort -n | awk '{ a[NR] = $1 } END { print "median ratio: " a[int((NR + 1) / 2)] "x" }'
