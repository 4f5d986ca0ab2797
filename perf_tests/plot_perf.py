#!/usr/bin/python3
"""Plot kdt-perf JSON files: GB/s against size, one line per op and anchor.

    /usr/bin/python3 perf_tests/plot_perf.py out.png run1.json [run2.json ...]

Each JSON file is what `kdt-perf --sizes N1,N2,... --json FILE` writes (a list of records
with name, size, gbps, backend, ranks). Several files (e.g. a CUDA and a Serial run) give
one panel per (backend, ranks). Needs matplotlib (Debian: python3-matplotlib).
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
    out, files = argv[1], argv[2:]
    panels = defaultdict(lambda: defaultdict(list))  # (backend, ranks) -> name -> [(size, gbps)]
    for f in files:
        with open(f) as fh:
            for r in json.load(fh):
                panels[(r["backend"], r["ranks"])][r["name"]].append((r["size"], r["gbps"]))
    fig, axes = plt.subplots(1, len(panels), figsize=(8 * len(panels), 6), squeeze=False)
    for ax, ((backend, ranks), series) in zip(axes[0], sorted(panels.items())):
        for name, points in sorted(series.items()):
            points.sort()
            style = "--" if "ceiling" in name or name == "cuda_memset" else "-"
            if name.startswith(("std_", "kokkos_", "curand_")):
                style = ":"
            ax.plot([p[0] for p in points], [p[1] for p in points], style, marker="o",
                    markersize=3, label=name)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("elements")
        ax.set_ylabel("GB/s (bytes written, + read for dropout/copy)")
        ax.set_title(f"kdt-perf: {backend}, {ranks} rank(s)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
