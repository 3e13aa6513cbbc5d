#!/usr/bin/env python3
"""Summarises `bash bench/device_run.sh rounds` (rounds.jsonl) or `host` (host.jsonl): per skeleton and figure, each
build's median and range over the rounds, and how many rounds each build beat the first one named (the base) in; then
the host's steal share over the rows' frames, where the rows carry it.
    python3 bench/rounds_summary.py rounds.jsonl [BASE_BUILD]   (BASE_BUILD: spinegpu-base unless given)"""
import json
import statistics
import sys
from collections import defaultdict


def figures(row):
    """The figures one bench row gives, in ms: the update alone, or the CPU frame and its parts."""
    if row["path"] == "update":
        return {f"update, {row['threads']} thread(s)": row["update_ms"]}
    if row.get("update_in_pack"):
        return {"CPU frame, update in pack": row["pack_ms"] + row["record_ms"]}
    return {"CPU frame, update before pack": row["update_ms"] + row["pack_ms"] + row["record_ms"],
            "pack (after the update)": row["pack_ms"], "GPU": row["gpu_ms"]}


def main():
    base = sys.argv[2] if len(sys.argv) > 2 else "spinegpu-base"
    table = defaultdict(dict)  # (skeleton, figure) -> {(build, round): ms}
    steal = defaultdict(list)  # round -> the steal percentages of its rows
    with open(sys.argv[1]) as f:
        for line in f:
            if not line.startswith("{"):
                continue
            row = json.loads(line)
            for name, ms in figures(row).items():
                table[(row["skeleton"], name)][(row["build"], row["round"])] = ms
            if row.get("steal_percent") is not None:
                steal[row["round"]].append(row["steal_percent"])
    for (skeleton, name), values in sorted(table.items()):
        builds = sorted({b for b, _ in values})
        for build in builds:
            rounds = sorted(r for b, r in values if b == build)
            ms = [values[(build, r)] for r in rounds]
            line = f"{skeleton:22s} {name:32s} {build:16s} median {statistics.median(ms):7.3f}"
            line += f" ({min(ms):.3f}-{max(ms):.3f}, {len(ms)} rounds)"
            if build != base and all((base, r) in values for r in rounds):
                wins = sum(values[(build, r)] < values[(base, r)] for r in rounds)
                line += f", faster than {base} in {wins}/{len(rounds)}"
            print(line)
    if steal:
        per_round = [statistics.median(v) for _, v in sorted(steal.items())]
        print("host steal % per round (median of its rows): " + " ".join(f"{v:.1f}" for v in per_round))


if __name__ == "__main__":
    main()
