#!/usr/bin/env python3
"""Fit the coefficient tables of the stream-version-2 normal transform (docs/normal_v2.md).

Writes include/impl/KokkosDTensor_NormalTable.hpp (generated; do not edit by hand):

    /usr/bin/python3 tools/fit_normal_table.py [--out PATH]

Needs python3-mpmath (Debian) and, for the starting guesses only, python3-scipy.
The output is deterministic: the same mpmath version gives the same bytes (and a change of
version could only move a coefficient if a rounding of a 50-digit value changed).

Scheme (float; double in brackets): q in (0, 1/2] is split by its binary exponent e
(-33..-2 [-65..-2]) and the next 4 [2] mantissa bits k into 16 [4] segments per octave;
q = 2^e (1 + (k + 1/2 + u) / S) with u in [-1/2, 1/2) made exactly from the remaining
19 [50] mantissa bits. In each segment |z| = -Phi^-1(q) is a polynomial of degree 3 [12]
in u, evaluated by Horner with fma. Entry S*(e - e_min) + k; one extra last entry (all zero)
is q = 1/2 exactly (e = -1, k = 0), where z = 0. For double the last real segment
(q in [7/16, 1/2)) stores the polynomial of z / (1/2 - u) instead, and the code multiplies by
the exact (1/2 - u), so that z keeps its relative accuracy down to z -> 0.

Fit: least squares at 3(n+1) Chebyshev nodes of [-1/2, 1/2] with 50-digit values of
Phi^-1 (Newton on mpmath's erfc), then the coefficients are rounded to the target type one
at a time, from the constant term up, refitting the remaining ones after each rounding so
that they absorb the rounding error of those already fixed.
"""
import argparse
import os
import sys

import mpmath as mp
from scipy.special import ndtri

mp.mp.dps = 50

FLOAT = dict(name="f32", ctype="float", prec=24, seg_bits=4, e_min=-33, degree=3, lastdiv=False)
DOUBLE = dict(name="f64", ctype="double", prec=53, seg_bits=2, e_min=-65, degree=12, lastdiv=True)


def neg_quantile(q):
    """-Phi^-1(q) to ~45 digits for q in (0, 1/2]."""
    q = mp.mpf(q)
    if q == mp.mpf(1) / 2:
        return mp.mpf(0)
    z = mp.mpf(-float(ndtri(float(q))))
    s2 = mp.sqrt(2)
    c = 1 / mp.sqrt(2 * mp.pi)
    for _ in range(4):
        g = mp.erfc(z / s2) / 2 - q
        z = z + g / (c * mp.exp(-z * z / 2))
    return z


def round_to(x, prec):
    with mp.workprec(prec):
        y = +mp.mpf(x)
    return y


def pinv(V):
    """(V^T V)^-1 V^T in mpmath."""
    Vt = V.T
    return mp.inverse(Vt * V) * Vt


def fit_tables(cfg):
    n = cfg["degree"]
    S = 1 << cfg["seg_bits"]
    N = 3 * (n + 1)
    nodes = [mp.cos(mp.pi * (2 * i + 1) / (2 * N)) / 2 for i in range(N)]
    V = mp.matrix(N, n + 1)
    for i, u in enumerate(nodes):
        for j in range(n + 1):
            V[i, j] = u ** j
    # P[j]: least-squares solver for coefficients j..n given the first j fixed.
    P = []
    for j in range(n + 1):
        Vj = mp.matrix(N, n + 1 - j)
        for i in range(N):
            for l in range(n + 1 - j):
                Vj[i, l] = V[i, j + l]
        P.append(pinv(Vj))
    octaves = -1 - cfg["e_min"]
    entries = []
    last_seg = octaves * S - 1
    for idx in range(octaves * S):
        e = cfg["e_min"] + idx // S
        k = idx % S
        base = mp.mpf(2) ** e
        vals = []
        for u in nodes:
            q = base * (1 + (k + mp.mpf(1) / 2 + u) / S)
            z = neg_quantile(q)
            if cfg["lastdiv"] and idx == last_seg:
                z = z / (mp.mpf(1) / 2 - u)
            vals.append(z)
        coefs = []
        for j in range(n + 1):
            r = mp.matrix([vals[i] - sum(coefs[l] * V[i, l] for l in range(j)) for i in range(N)])
            sol = P[j] * r
            coefs.append(round_to(sol[0], cfg["prec"]))
        entries.append(coefs)
        if idx % 64 == 63:
            print(f"  {cfg['name']}: {idx + 1}/{octaves * S} segments", file=sys.stderr)
    entries.append([mp.mpf(0)] * (n + 1))  # q = 1/2 exactly
    return entries


def hexlit(x, ctype):
    h = float(x).hex()  # e.g. 0x1.9553600000000p+2: drop the trailing zero digits
    mant, exp = h.split("p")
    if "." in mant:
        mant = mant.rstrip("0").rstrip(".")
    h = mant + "p" + exp
    return h + ("f" if ctype == "float" else "")


def emit(cfg, entries):
    n = cfg["degree"]
    lines = []
    name = cfg["name"].upper()
    lines.append(f"#define KOKKOSDTENSOR_IMPL_NORMAL_{name}_TABLE_DATA \\")
    for i, c in enumerate(entries):
        sep = ", \\" if i + 1 < len(entries) else ""
        lines.append("  " + ", ".join(hexlit(x, cfg["ctype"]) for x in c) + sep)
    lines.append("")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--out", default=os.path.join(here, "..", "include", "impl",
                                                   "KokkosDTensor_NormalTable.hpp"))
    args = ap.parse_args()
    tables = []
    for cfg in (FLOAT, DOUBLE):
        entries = fit_tables(cfg)
        tables.append((cfg, entries))
    out = []
    out.append("""#ifndef KOKKOSDTENSOR_IMPL_NORMALTABLE_HPP
#define KOKKOSDTENSOR_IMPL_NORMALTABLE_HPP

// GENERATED by tools/fit_normal_table.py -- do not edit by hand. Regenerate with
//   /usr/bin/python3 tools/fit_normal_table.py
// (python3-mpmath, python3-scipy). Coefficient tables of the stream-version-2 normal
// transform (docs/normal_v2.md, include/impl/KokkosDTensor_NormalQuantile.hpp).
// Hex-float literals: every value is exact.
//
// Each table is given once as a macro (the initializer list) so that the header
// KokkosDTensor_NormalQuantile.hpp can instantiate it both as a host constexpr array and,
// under CUDA/HIP, as a __device__ array.
// clang-format off
""")
    for cfg, entries in tables:
        n = cfg["degree"]
        S = 1 << cfg["seg_bits"]
        out.append(f"// {cfg['ctype']}: {len(entries)} entries x {n + 1} coefficients (c0 .. c{n}, "
                   f"constant term first), {S} segments per octave, octaves 2^{cfg['e_min']} .. 2^-2, "
                   f"then q = 1/2.")
        out.append(f"#define KOKKOSDTENSOR_IMPL_NORMAL_{cfg['name'].upper()}_ENTRIES {len(entries)}")
        out.append(f"#define KOKKOSDTENSOR_IMPL_NORMAL_{cfg['name'].upper()}_COEFS {n + 1}")
        out.append(emit(cfg, entries))
    out.append("// clang-format on")
    out.append("#endif  // KOKKOSDTENSOR_IMPL_NORMALTABLE_HPP\n")
    with open(args.out, "w") as f:
        f.write("\n".join(out))
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
