#!/usr/bin/env python3
"""Reference re-implementation of the stream-version-2 normal transform (docs/normal_v2.md).

Bit-for-bit the same as include/impl/KokkosDTensor_NormalQuantile.hpp, in NumPy (float) and
plain Python integers/fractions (double). The coefficients are read from the generated
header include/impl/KokkosDTensor_NormalTable.hpp, so both sides use one table.

float path: np.float32 for the exact steps (int -> float conversion through float64, which is
exact for a uint32 and then rounds once; multiplications by powers of two), and an exact fma:
    fma32(a, b, c): p = a*b in float64 (exact: 24 + 24 <= 53 bits), s = p + c in float64 with
    its exact error e from TwoSum, s rounded to odd (if e != 0 and s has an even last bit, step
    one ulp toward e), then one rounding to float32. Rounding to odd at 53 >= 24 + 2 bits makes
    the final rounding correct (Boldo & Melquiond), so fma32 is the correctly rounded fma.
double path: Python ints for the bit steps, float(int) (correctly rounded) for the int ->
    double conversion, and fma64(a, b, c) = float(Fraction(a) * Fraction(b) + Fraction(c))
    (int / int true division is correctly rounded in CPython).

Usage:
    normal_v2_reference.py --compare FILE   # FILE from `check_normal_accuracy --dump N`
    normal_v2_reference.py --words 0x0 0x80000000 ...   # print float results
    normal_v2_reference.py --self-test      # fma32 on a double-rounding trap, a few words
"""
import argparse
import os
import re
import sys
from fractions import Fraction

import numpy as np

_HERE = os.path.dirname(os.path.abspath(__file__))
_TABLE = os.path.join(_HERE, "..", "include", "impl", "KokkosDTensor_NormalTable.hpp")


def load_tables(path=_TABLE):
    text = open(path).read()
    tables = {}
    for name in ("F32", "F64"):
        entries = int(re.search(rf"#define KOKKOSDTENSOR_IMPL_NORMAL_{name}_ENTRIES (\d+)", text).group(1))
        coefs = int(re.search(rf"#define KOKKOSDTENSOR_IMPL_NORMAL_{name}_COEFS (\d+)", text).group(1))
        m = re.search(rf"#define KOKKOSDTENSOR_IMPL_NORMAL_{name}_TABLE_DATA \\\n((?:.*\\\n)*.*\n)", text)
        lits = re.findall(r"-?0x[0-9a-fA-F.]+p[-+]?\d+f?", m.group(1))
        vals = [float.fromhex(s.rstrip("f")) for s in lits]
        assert len(vals) == entries * coefs, (name, len(vals))
        tables[name] = (np.array(vals, dtype=np.float32 if name == "F32" else np.float64).reshape(entries, coefs))
    return tables


TABLES = load_tables()


# ---- float ----------------------------------------------------------------------------------

def fma32(a, b, c):
    """Correctly rounded float32 fma of float32 arrays (see the module docstring)."""
    a = np.asarray(a, np.float32).astype(np.float64)
    b = np.asarray(b, np.float32).astype(np.float64)
    c = np.asarray(c, np.float32).astype(np.float64)
    p = a * b  # exact
    s = p + c
    bb = s - p
    e = (p - (s - bb)) + (c - bb)  # TwoSum: p + c = s + e exactly
    sbits = s.view(np.uint64)
    even = (sbits & np.uint64(1)) == 0
    fix = (e != 0) & even
    toward = np.where(e > 0, np.inf, -np.inf)
    s = np.where(fix, np.nextafter(s, toward), s)
    return s.astype(np.float32)


def normal_from_word(words):
    """Signed standard normals (float32) of uint32 words, bit for bit as the C++."""
    w = np.asarray(words, dtype=np.uint32)
    m = ((w & np.uint32(0x7FFFFFFF)) << np.uint32(1)) | np.uint32(1)
    q = m.astype(np.float64).astype(np.float32) * np.float32(2.0 ** -33)  # one rounding, then exact
    b = q.view(np.uint32)
    idx = (b >> np.uint32(19)) - np.uint32((127 - 33) << 4)
    u = ((b & np.uint32(0x7FFFF)).astype(np.int32) - np.int32(0x40000)).astype(np.float32) * np.float32(2.0 ** -19)
    c = TABLES["F32"][idx]
    z = fma32(fma32(fma32(c[:, 3], u, c[:, 2]), u, c[:, 1]), u, c[:, 0])
    return (z.view(np.uint32) ^ (w & np.uint32(0x80000000))).view(np.float32)


# ---- double ---------------------------------------------------------------------------------

def fma64(a, b, c):
    return float(Fraction(a) * Fraction(b) + Fraction(c))


def _f2b(x):
    return int(np.float64(x).view(np.uint64))


def _b2f(b):
    return float(np.uint64(b).view(np.float64))


def normal_from_words(w0, w1):
    """Signed standard normal (float64) of two uint32 words, bit for bit as the C++."""
    x = (int(w0) << 32) | int(w1)
    m = ((x & (2 ** 63 - 1)) << 1) | 1
    q = float(m) * 2.0 ** -65  # float(int) rounds to nearest even; the scaling is exact
    b = _f2b(q)
    idx = (b >> 50) - ((1023 - 65) << 2)
    u = float((b & (2 ** 50 - 1)) - 2 ** 49) * 2.0 ** -50
    c = [float(v) for v in TABLES["F64"][idx]]
    p = c[12]
    for j in range(11, -1, -1):
        p = fma64(p, u, c[j])
    if idx == TABLES["F64"].shape[0] - 2:
        p = p * (0.5 - u)
    return _b2f(_f2b(p) ^ ((x >> 63) << 63))


# ---- command line ---------------------------------------------------------------------------

def compare(path):
    fw, fr, dcases = [], [], []
    for line in open(path):
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "f":
            fw.append(int(parts[1], 16))
            fr.append(int(parts[2], 16))
        elif parts[0] == "d":
            dcases.append((int(parts[1], 16), int(parts[2], 16), int(parts[3], 16)))
    bad = 0
    got = normal_from_word(np.array(fw, dtype=np.uint32)).view(np.uint32)
    for w, r, g in zip(fw, fr, got):
        if int(g) != r:
            bad += 1
            if bad <= 10:
                print(f"float mismatch: word {w:08x}: C++ {r:08x} python {int(g):08x}")
    for w0, w1, r in dcases:
        g = _f2b(normal_from_words(w0, w1))
        if g != r:
            bad += 1
            if bad <= 10:
                print(f"double mismatch: words {w0:08x} {w1:08x}: C++ {r:016x} python {g:016x}")
    print(f"compared {len(fw)} float and {len(dcases)} double results: {bad} mismatches")
    return 1 if bad else 0


def self_test():
    """fma32 on a case where float64-then-float32 double rounding is wrong, and a few words."""
    a, b, c = np.float32(1 + 2 ** -12), np.float32((1 - 2 ** -12 + 2 ** -24) * 2 ** -24), np.float32(1)
    # exact a*b + c = 1 + 2^-24 + 2^-60: correctly rounded 1 + 2^-23; naive double rounding gives 1.
    ok = float(fma32(a, b, c)) == 1 + 2 ** -23 and float(fma32(-a, b, -c)) == -(1 + 2 ** -23)
    ok = ok and float(np.float32(np.float64(a) * np.float64(b) + np.float64(c))) == 1.0
    z = normal_from_word(np.array([0, 0x80000000, 0x7FFFFFFF], dtype=np.uint32))
    ok = ok and abs(float(z[0]) - 6.3379577) < 1e-5 and z[1] == -z[0] and z[2] == 0
    d = normal_from_words(0, 0)
    ok = ok and abs(d - 9.155293772686072) < 1e-12 and normal_from_words(0x80000000, 0) == -d
    print("self-test", "passed" if ok else "FAILED")
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--compare", metavar="FILE")
    ap.add_argument("--words", nargs="*", default=[])
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    if args.compare:
        return compare(args.compare)
    for s in args.words:
        w = int(s, 0)
        z = normal_from_word(np.array([w], dtype=np.uint32))[0]
        print(f"{w:08x} {float(z):.9g} {int(z.view(np.uint32)):08x}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
