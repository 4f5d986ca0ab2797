#!/usr/bin/env python3
"""The f16 and bf16 fills from the f32 fill, in NumPy (SPEC section 2, "Reduced precision";
docs/stream.md): an element of a half_t / bhalf_t tensor is the float element of the same op
rounded once to nearest-even; uniform_ maps a rounded `to` to `from`.

  reduced_precision_reference.py F32.npy OTHER.npy f16|bf16 [--uniform FROM,TO]

compares OTHER.npy (kdt-rand --dtype f16: <f2; --dtype bf16: <f4 holding bf16 values) with
the rounding of F32.npy (kdt-rand --dtype f32, the same op and state), bit for bit; exit 0
when equal. f16 rounds with NumPy's own float32 -> float16 conversion (nearest-even), bf16
with integer operations on the float32 bits.
"""
import sys

import numpy as np


def bf16_bits(x):
    """float32 array -> bfloat16 bits (uint16), nearest-even; NaN -> quiet NaN, same sign."""
    u = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    bits = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    nan = np.isnan(np.asarray(x, dtype=np.float32))
    bits[nan] = ((u[nan] >> 16) | 0x40).astype(np.uint16)
    return bits


def f16_bits(x):
    """float32 array -> binary16 bits (uint16), nearest-even (NumPy's conversion)."""
    return np.asarray(x, dtype=np.float32).astype(np.float16).view(np.uint16)


def bf16_values(bits):
    """bfloat16 bits -> float32 values (exact)."""
    return (np.asarray(bits, dtype=np.uint16).astype(np.uint32) << 16).view(np.float32)


def reduced_fill(f32, dtype, uniform_bounds=None):
    """The bits of the f16 / bf16 fill that the library writes where the f32 fill is f32."""
    round_bits = f16_bits if dtype == "f16" else bf16_bits
    bits = round_bits(f32)
    if uniform_bounds is not None:
        low, high = round_bits(np.array(uniform_bounds, dtype=np.float32))
        bits = np.where(bits == high, low, bits).astype(np.uint16)
    return bits


def main(argv):
    if len(argv) not in (3, 5) or argv[2] not in ("f16", "bf16"):
        print(__doc__, file=sys.stderr)
        return 2
    f32, other, dtype = np.load(argv[0]), np.load(argv[1]), argv[2]
    bounds = None
    if len(argv) == 5:
        if argv[3] != "--uniform":
            print(__doc__, file=sys.stderr)
            return 2
        bounds = [float(v) for v in argv[4].split(",")]
    expected = reduced_fill(f32, dtype, bounds)
    if dtype == "f16":
        if other.dtype != np.float16:
            print(f"{argv[1]}: dtype {other.dtype}, not float16", file=sys.stderr)
            return 1
        got = other.view(np.uint16)
    else:
        words = other.astype(np.float32).view(np.uint32)
        if np.any(words & 0xFFFF):
            print(f"{argv[1]}: values that are not bfloat16", file=sys.stderr)
            return 1
        got = (words >> 16).astype(np.uint16)
    if got.shape != expected.shape:
        print(f"shapes differ: {got.shape} and {expected.shape}", file=sys.stderr)
        return 1
    differ = np.flatnonzero(got != expected)
    if differ.size:
        i = differ[0]
        print(f"{differ.size} of {got.size} elements differ; first at {i}: "
              f"{got.flat[i]:#06x}, expected {expected.flat[i]:#06x} "
              f"(f32 {f32.flat[i]!r})", file=sys.stderr)
        return 1
    replaced = 0 if bounds is None else int(np.sum(
        reduced_fill(f32, dtype) != expected))
    print(f"{argv[1]}: {got.size} {dtype} elements equal the rounded f32 fill"
          + ("" if bounds is None else f" ({replaced} rounded `to` became `from`)"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
