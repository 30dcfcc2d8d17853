"""Development tool: derives the polynomial coefficients in _coeffs.py (needs mpmath).

Not imported at runtime. Each approximation is a Chebyshev fit (mpmath.chebyfit, near
minimax) of a smooth, non-vanishing function, so absolute error ~ relative error; the fit
is then re-evaluated with the coefficients rounded to the target type to report the real
error. Run: python -m numr_array_api.backends.webgpu.wgsl._gen_coeffs > _coeffs.py
"""
import mpmath as mp
import numpy as np

mp.mp.prec = 200


def fit(g, a, b, deg, ftype):
    coeffs, _ = mp.chebyfit(g, [a, b], deg + 1, error=True)
    coeffs = coeffs[::-1]  # lowest order first
    cast = (lambda c: float(c)) if ftype == "f64" else (lambda c: float(np.float32(float(c))))
    rc = [cast(c) for c in coeffs]
    err = mp.mpf(0)
    for i in range(2001):
        z = a + (b - a) * mp.mpf(i) / 2000
        v = mp.mpf(0)
        for c in reversed(rc):
            v = v * z + mp.mpf(c)
        gv = g(z)
        err = max(err, abs((v - gv) / gv))
    return rc, float(err)


def taylor(cs, ftype):
    cast = float if ftype == "f64" else (lambda c: float(np.float32(float(c))))
    return [cast(c) for c in cs]


def gen():
    out = {}
    errs = {}
    cfg = {
        "f64": dict(atan=12, asin=16, erf=14, erfc=14, erfc_edges=[0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 4.0], h=14, hmax=27.3),
        "f32": dict(atan=5, asin=6, erf=6, erfc=8, erfc_edges=[0.5, 1.0, 2.0, 4.0], h=5, hmax=10.1),
    }
    for ft, c in cfg.items():
        # atan(t) = t + t*z*P(z), z = t^2, |t| <= 7/16
        g = lambda z: (mp.atan(mp.sqrt(z)) / mp.sqrt(z) - 1) / z if z > 0 else mp.mpf(-1) / 3
        out[f"ATAN_{ft}"], errs[f"ATAN_{ft}"] = fit(g, 0, mp.mpf(7) ** 2 / 256, c["atan"], ft)
        # asin(x) = x + x*z*P(z), z = x^2 <= 1/4
        g = lambda z: (mp.asin(mp.sqrt(z)) / mp.sqrt(z) - 1) / z if z > 0 else mp.mpf(1) / 6
        out[f"ASIN_{ft}"], errs[f"ASIN_{ft}"] = fit(g, 0, mp.mpf(1) / 4, c["asin"], ft)
        # erf(x) = x*Q(z), |x| <= 1 (z <= 1)
        g = lambda z: mp.erf(mp.sqrt(z)) / mp.sqrt(z) if z > 0 else 2 / mp.sqrt(mp.pi)
        out[f"ERF_{ft}"], errs[f"ERF_{ft}"] = fit(g, 0, 1, c["erf"], ft)
        # erfc(x) = exp(-x^2) * G(x) on pieces of [0.5, 4); G fitted in u = (x - mid) / half.
        # Stored flat (one stride per piece) so the shader indexes a const array.
        edges = c["erfc_edges"]
        flat, worst = [], 0.0
        for k in range(len(edges) - 1):
            a, b = mp.mpf(edges[k]), mp.mpf(edges[k + 1])
            mid, half = (a + b) / 2, (b - a) / 2
            g = lambda u, mid=mid, half=half: mp.erfc(mid + half * u) * mp.exp((mid + half * u) ** 2)
            co, e = fit(g, -1, 1, c["erfc"], ft)
            flat += co
            worst = max(worst, e)
        out[f"ERFC_EDGES_{ft}"] = edges
        out[f"ERFC_{ft}"], errs[f"ERFC_{ft}"] = flat, worst
        # erfc(x) = exp(-x^2) / x * H(w), w = 1/x^2, for 4 <= x <= last finite erfc
        g = lambda w: mp.erfc(1 / mp.sqrt(w)) * mp.exp(1 / w) / mp.sqrt(w)
        out[f"ERFCH_{ft}"], errs[f"ERFCH_{ft}"] = fit(g, 1 / mp.mpf(c["hmax"]) ** 2, mp.mpf(1) / 16, c["h"], ft)
        if ft == "f32":
            # erfc(x) = exp(-x^2) T(t) / (1 + 2x), t = (x - 2) / (x + 2), for the whole of
            # [0.5, last finite erfc]: one polynomial (T is flat, so t's rounding is harmless)
            X = lambda t: 2 * (1 + t) / (1 - t)  # noqa: E731
            g = lambda t: mp.erfc(X(t)) * mp.exp(X(t) ** 2) * (1 + 2 * X(t))  # noqa: E731
            lo, hi = mp.mpf(0.5), mp.mpf(c["hmax"])
            out["ERFCT_f32"], errs["ERFCT_f32"] = fit(g, (lo - 2) / (lo + 2), (hi - 2) / (hi + 2), 10, ft)
    return out, errs


def split_consts():
    """Constants for Cody-Waite reductions: leading parts have few bits so k*part is exact."""
    out = {}
    def trunc_bits(v, bits):
        m, e = mp.frexp(v)
        return mp.ldexp(mp.floor(m * 2 ** bits), e - bits)
    def parts(c, nbits, nparts, last_bits):
        ps, rest = [], c
        for _ in range(nparts):
            p = trunc_bits(rest, nbits)
            ps.append(p)
            rest = rest - p
        ps.append(trunc_bits(rest, last_bits) if last_bits < 60 else rest)
        return ps
    f32 = lambda v: float(np.float32(float(v)))
    ln2, pio2 = mp.log(2), mp.pi / 2
    out["LN2_f64"] = [float(p) for p in parts(ln2, 32, 1, 53)]
    out["LN2_f32"] = [f32(p) for p in parts(ln2, 16, 1, 24)]
    out["PIO2_CW_f64"] = [float(p) for p in parts(pio2, 33, 3, 53)]
    out["PIO2_CW_f32"] = [f32(p) for p in parts(pio2, 16, 3, 24)]
    l10 = mp.log10(2)
    out["LOG10_2_f64"] = [float(p) for p in parts(l10, 32, 1, 53)]
    out["LOG10_2_f32"] = [f32(p) for p in parts(l10, 16, 1, 24)]
    # double-word constants (hi, lo) for both types
    for name, v in (("PI", mp.pi), ("PIO2", pio2), ("PIO4", mp.pi / 4), ("LN2", ln2),
                    ("INV_LN2", 1 / ln2), ("TWO_THIRDS", mp.mpf(2) / 3), ("ATAN_HALF", mp.atan(0.5)),
                    ("ATAN_ONE", mp.pi / 4), ("ATAN_1P5", mp.atan(1.5)), ("PI3O4", 3 * mp.pi / 4)):
        h = float(v); out[f"{name}_DD_f64"] = [h, float(v - h)]
        h = f32(v); out[f"{name}_DD_f32"] = [h, f32(v - mp.mpf(h))]
    # bits of 2/pi for Payne-Hanek, preceded by 64 zero bits so that the window may start
    # slightly before the binary point; word j holds bits [32j - 63, 32j - 32] (MSB first)
    nw = 40
    mp.mp.prec = 32 * nw + 100
    big = int(mp.floor(2 / mp.pi * mp.mpf(2) ** (32 * nw - 64)))
    words = [(big >> (32 * (nw - 1 - j))) & 0xFFFFFFFF for j in range(nw)]
    mp.mp.prec = 200
    out["TWO_OVER_PI_WORDS"] = words
    return out


if __name__ == "__main__":
    out, errs = gen()
    out.update(split_consts())
    print('"""Generated by _gen_coeffs.py (mpmath Chebyshev fits); lowest order first."""')
    print("# max relative error of each fit with rounded coefficients:")
    for k, v in errs.items():
        print(f"#   {k}: {v:.3g}")
    for k, v in out.items():
        print(f"{k} = {v!r}")
