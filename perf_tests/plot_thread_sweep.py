#!/usr/bin/python3
"""Plot a host thread sweep: GB/s against thread count at one size, one line per op.

    /usr/bin/python3 perf_tests/plot_thread_sweep.py out.png sweep.json [SIZE]

sweep.json: {"machine": ..., "threads": {"1": [kdt-perf records], "2": [...], ...}}, the
records of `kdt-perf --sizes ... --json` at each thread count (as in
docs/perf/xeon16_omp_sweep_2026-12-01.json). SIZE: elements (default: the largest size).
Needs matplotlib (Debian: python3-matplotlib).
"""
import json
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    out, path = argv[1], argv[2]
    with open(path) as fh:
        sweep = json.load(fh)
    threads = sorted(int(t) for t in sweep["threads"])
    size = int(argv[3]) if len(argv) > 3 else max(
        r["size"] for rows in sweep["threads"].values() for r in rows)
    lines = defaultdict(list)  # name -> [(threads, gbps)]
    for t in threads:
        for r in sweep["threads"][str(t)]:
            if r["size"] == size and r["name"] != "copy_ceiling":
                lines[r["name"]].append((t, r["gbps"]))
    fig, ax = plt.subplots(figsize=(8, 6))
    for name, points in sorted(lines.items()):
        style = "k--" if name == "fill_ceiling" else "o-"
        ax.plot([p[0] for p in points], [p[1] for p in points], style, label=name)
    ax.set_xscale("log", base=2)
    ax.set_xticks(threads)
    ax.set_xticklabels([str(t) for t in threads])
    ax.set_xlabel("threads (OpenMP)")
    ax.set_ylabel("GB/s")
    ax.set_title(f"{sweep.get('machine', '')[:60]}\n{size} elements", fontsize=9)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
