"""Random and edge inputs per function (fixed seeds)."""
import zlib

import numpy as np

N = 100_000
FULL = {"f32": (-149, 128), "f64": (-1074, 1024)}
DT = {"f32": np.float32, "f64": np.float64}


def logu(rng, n, lo, hi, signed=True):
    """Magnitudes log-uniform over [2^lo, 2^hi), random mantissas, both signs."""
    m = 2.0 ** rng.uniform(lo, hi, n).astype(np.longdouble)
    m = m.astype(np.float64) if hi <= 1024 else m
    if signed:
        m = m * rng.choice([-1.0, 1.0], n)
    return m


def uni(rng, n, a, b):
    return rng.uniform(a, b, n)


def _cast(x, ft):
    with np.errstate(over="ignore"):
        x = np.asarray(x, dtype=np.float64).astype(DT[ft])
    return x[np.isfinite(x)]


def unary_inputs(fn, ft, n=N):
    rng = np.random.default_rng(zlib.crc32(f"{fn}/{ft}".encode()))
    lo, hi = FULL[ft]
    f64 = ft == "f64"
    q = n // 4
    tiny = (-60 if f64 else -30)
    parts = []
    if fn == "exp":
        parts = [uni(rng, 3 * q, -746 if f64 else -104, 710 if f64 else 89), logu(rng, q, tiny, 4)]
    elif fn == "exp2":
        parts = [uni(rng, 3 * q, -1076 if f64 else -150, 1025 if f64 else 129), logu(rng, q, tiny, 4)]
    elif fn == "expm1":
        parts = [uni(rng, 2 * q, -40, 710 if f64 else 89), logu(rng, 2 * q, tiny, 3)]
    elif fn in ("log", "log2", "log10", "sqrt"):
        parts = [logu(rng, 3 * q, lo, hi, False), uni(rng, q, 0.5, 2.0)]
    elif fn == "log1p":
        parts = [logu(rng, 2 * q, lo, hi, False), -logu(rng, q, tiny, 0, False) * 0.9999, logu(rng, q, tiny, 0)]
    elif fn in ("cbrt", "atan", "asinh"):
        parts = [logu(rng, 3 * q, lo, hi), uni(rng, q, -4, 4)]
    elif fn in ("sin", "cos", "tan"):
        k = rng.integers(1, 2**20 if f64 else 2**12, q).astype(np.float64)
        parts = [logu(rng, 2 * q, tiny, hi), uni(rng, q, -10, 10), k * (np.pi / 2)]
    elif fn in ("asin", "acos", "atanh"):
        parts = [uni(rng, 2 * q, -1, 1), logu(rng, q, tiny, 0),
                 (1 - logu(rng, q, -53 if f64 else -24, -1, False)) * rng.choice([-1.0, 1.0], q)]
    elif fn in ("sinh", "cosh"):
        parts = [uni(rng, 2 * q, -711 if f64 else -89.5, 711 if f64 else 89.5), logu(rng, q, tiny, 3), uni(rng, q, -25, 25)]
    elif fn == "tanh":
        parts = [uni(rng, 2 * q, -25, 25), logu(rng, 2 * q, tiny, 5)]
    elif fn == "acosh":
        parts = [1 + logu(rng, 2 * q, -52 if f64 else -23, 8, False), logu(rng, 2 * q, 0, hi, False)]
    elif fn in ("erf", "erfc"):
        m = n // 3 if f64 else n  # the f64 reference is mpmath (slow)
        parts = [uni(rng, m // 2, -7 if f64 else -5, 28 if (fn == "erfc" and f64) else (11 if fn == "erfc" else 7)),
                 logu(rng, m // 4, tiny, 2), uni(rng, m // 4, -1.5, 1.5)]
    elif fn in ("trunc", "floor", "ceil", "round"):
        h = rng.integers(-2000, 2000, q) * 0.5
        parts = [logu(rng, 2 * q, lo, hi), uni(rng, q, -10, 10), h]
    else:
        raise KeyError(fn)
    return _cast(np.concatenate(parts), ft)


def binary_inputs(fn, ft, n=N):
    rng = np.random.default_rng(zlib.crc32(f"{fn}/{ft}/2".encode()))
    lo, hi = FULL[ft]
    f64 = ft == "f64"
    q = n // 4
    if fn in ("atan2", "hypot"):
        x, y = logu(rng, n, lo, hi), logu(rng, n, lo, hi)
        if fn == "hypot":  # also operands of similar size, where cancellation-free sums matter
            y[:q] = x[:q] * rng.uniform(0.1, 10, q)
    elif fn == "pow":
        x = np.concatenate([logu(rng, 2 * q, -30, 30, False), uni(rng, q, 0.5, 2.0),
                            -logu(rng, q, -8, 8, False)])
        y = np.concatenate([uni(rng, 2 * q, -30, 30), uni(rng, q, -1000 if f64 else -120, 1000 if f64 else 120),
                            rng.integers(-60 if f64 else -20, 60 if f64 else 20, q).astype(np.float64)])
    elif fn == "logaddexp":
        x = np.concatenate([uni(rng, 2 * q, -700, 700), uni(rng, 2 * q, -5, 5)])
        y = np.concatenate([x[:2 * q] + uni(rng, 2 * q, -40, 40), uni(rng, 2 * q, -5, 5)])
    else:  # bitwise helpers: random bit patterns (incl. NaN, inf, subnormal)
        bits = rng.integers(0, 2**32 if ft == "f32" else 2**63, (2, n), dtype=np.uint64)
        if ft == "f32":
            x, y = bits.astype(np.uint32).view(np.float32)
        else:
            bits[:, ::2] |= np.uint64(1 << 63)
            x, y = bits.view(np.float64)
        y[:q] = x[:q]  # equal operands
        return x.copy(), y.copy()
    with np.errstate(over="ignore"):
        x, y = x.astype(DT[ft]), y.astype(DT[ft])
    ok = np.isfinite(x) & np.isfinite(y)
    return x[ok], y[ok]


SPECIAL = {
    "f64": [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 3.0, -3.0, 1.5, -1.5,
            5e-324, -5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, -1.7976931348623157e308,
            1e-300, 1e300, np.pi / 2, -np.pi / 2, 0.9999999999999999, 1.0000000000000002, 710.0, -750.0,
            1e22, 2.0 ** 53, 2.0 ** 52 + 1],
    "f32": [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 3.0, -3.0, 1.5, -1.5,
            1e-45, -1e-45, 1.1754944e-38, 3.4028235e38, -3.4028235e38, 1e-30, 1e30,
            np.pi / 2, -np.pi / 2, 0.99999994, 1.0000001, 89.0, -104.0, 1e22, 2.0 ** 24, 2.0 ** 23 + 1],
}


def special_values(ft):
    return np.array(SPECIAL[ft], dtype=DT[ft])
