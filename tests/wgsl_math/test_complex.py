"""Complex helpers: accuracy against NumPy (long double for complex128) and every complex
special case the array API 2025.12 lists. spec_complex_cases.json holds those lines verbatim,
extracted from array_api_stubs/_2025_12/elementwise_functions.py (array-api, MIT licence)."""
import json
import re
from pathlib import Path

import zlib

import numpy as np
import pytest

from harness import CARITY, CTYPE, DT, complex_job

SPEC = json.loads((Path(__file__).parent / "spec_complex_cases.json").read_text())
MINE = {"acos": "cacos", "acosh": "cacosh", "asinh": "casinh", "atanh": "catanh", "cosh": "ccosh",
        "exp": "cexp", "expm1": "cexpm1", "log": "clog", "log1p": "clog1p", "sinh": "csinh",
        "sqrt": "csqrt", "tanh": "ctanh", "abs": "cabs"}
NP = {"cadd": np.add, "csub": np.subtract, "cmul": np.multiply, "cdiv": np.divide, "cpow": np.power,
      "cabs": np.abs, "csqrt": np.sqrt, "cexp": np.exp, "cexpm1": np.expm1, "clog": np.log,
      "clog1p": np.log1p, "csin": np.sin, "ccos": np.cos, "ctan": np.tan, "csinh": np.sinh,
      "ccosh": np.cosh, "ctanh": np.tanh, "casin": np.arcsin, "cacos": np.arccos, "catan": np.arctan,
      "casinh": np.arcsinh, "cacosh": np.arccosh, "catanh": np.arctanh}
# normwise error bound |got - ref| / ulp(|ref|); measured values in docs/wgsl-math.md
CBOUND = {"cadd": 1, "csub": 1, "cmul": 3, "cdiv": 4, "cabs": 2, "csqrt": 3, "cexp": 3, "cexpm1": 6,
          "clog": 3, "clog1p": 4, "csin": 4, "ccos": 4, "ctan": 6, "csinh": 4, "ccosh": 4, "ctanh": 6,
          "casin": 5, "cacos": 5, "catan": 5, "casinh": 5, "cacosh": 5, "catanh": 5, "cpow": 6}
P = {"f32": 24, "f64": 53}


def _inputs(fn, ft, n):
    rng = np.random.default_rng(zlib.crc32(f"{fn}/{ft}/3".encode()))
    f64 = ft == "f64"
    def lu(k, lo, hi):
        return 2.0 ** rng.uniform(lo, hi, k) * rng.choice([-1.0, 1.0], k)
    h = n // 2
    if fn in ("cexp", "cexpm1"):
        z = np.concatenate([rng.uniform(-700 if f64 else -87, 700 if f64 else 87, h), lu(h, -30, 3)]) + \
            1j * np.concatenate([rng.uniform(-20, 20, h), lu(h, -30, 3)])
    elif fn in ("csin", "ccos", "ctan", "csinh", "ccosh", "ctanh"):
        big = 700 if f64 else 87
        re_, im_ = rng.uniform(-20, 20, n), lu(n, -30, 4.3)
        if fn in ("csinh", "ccosh", "ctanh"):
            re_, im_ = im_, re_
        z = re_ + 1j * im_
        z[: n // 8] = rng.uniform(-big, big, n // 8) * (1 if fn.startswith("ch") or fn in ("csinh", "ccosh", "ctanh") else 1j) + 1j * rng.uniform(-3, 3, n // 8) * (1 if fn in ("csinh", "ccosh", "ctanh") else -1j)
    else:
        lo, hi = (-1000, 1000) if f64 else (-120, 120)
        z = np.concatenate([lu(h, lo, hi), lu(h, -10, 10)]) + 1j * np.concatenate([lu(h, lo, hi), lu(h, -10, 10)])
        if fn in ("clog", "clog1p", "cacos", "casin", "catanh", "cacosh", "catan", "casinh"):
            z[: n // 8] = np.exp(1j * rng.uniform(-4, 4, n // 8)) * (1 + lu(n // 8, -40, -1))  # near |z| = 1
    w = None
    if CARITY.get(fn) == 2:
        if fn == "cpow":
            z = lu(n, -8, 8) + 1j * lu(n, -8, 8)
            w = rng.uniform(-6, 6, n) + 1j * rng.uniform(-6, 6, n)
        else:
            w = np.concatenate([lu(h, lo, hi), lu(h, -10, 10)]) + 1j * np.concatenate([lu(h, lo, hi), lu(h, -10, 10)])
    z = z.astype(CTYPE[ft])
    if w is not None:
        w = w.astype(CTYPE[ft])
    return z, w


def _mp_ref(fn, z):
    import mpmath as mp
    mp.mp.prec = 90
    f = mp.expm1 if fn == "cexpm1" else (lambda v: mp.log1p(v))
    out = np.empty(len(z), dtype=np.clongdouble)
    for i, v in enumerate(z):
        r = f(mp.mpc(float(v.real), float(v.imag)))
        out[i] = np.clongdouble(complex(r)) if not mp.isfinite(r) else \
            np.longdouble(mp.nstr(r.real, 25)) + 1j * np.clongdouble(np.longdouble(mp.nstr(r.imag, 25)))
    return out


def _ref(fn, z, w, ft):
    t = np.clongdouble if ft == "f64" else np.complex128
    if fn in ("cexpm1", "clog1p"):  # NumPy's complex expm1/log1p lose accuracy near 0
        return _mp_ref(fn, z).astype(t)
    with np.errstate(all="ignore"):
        if w is None:
            return NP[fn](z.astype(t))
        return NP[fn](z.astype(t), w.astype(t))


def normwise_ulps(got, ref, ft):
    ref = np.asarray(ref)
    mag = np.abs(ref).astype(np.longdouble)
    d = np.abs(np.asarray(got).astype(ref.dtype) - ref).astype(np.longdouble)
    _, e = np.frexp(mag)
    e = np.maximum(e.astype(np.int64) - P[ft], (-126 if ft == "f32" else -1022) - P[ft] + 1)
    return (d / np.ldexp(np.longdouble(1), e)).astype(np.float64)


_cache = {}


def _run_all(harness, ft):
    if ft not in _cache:
        n = 40_000
        jobs, meta = [], []
        for fn in CBOUND:
            # the mpmath references are slow: fewer points there
            z, w = _inputs(fn, ft, 8_000 if fn in ("cexpm1", "clog1p") else n)
            ref = _ref(fn, z, w, ft)
            ok = np.isfinite(ref) & (np.abs(ref) < np.finfo(DT[ft]).max / 4) & (np.abs(ref) > np.finfo(DT[ft]).tiny * 2**P[ft])
            z = z[ok]; w = None if w is None else w[ok]; ref = ref[ok]
            jobs.append(complex_job(fn, z, ft, w)); meta.append((fn, z, w, ref))
        outs = harness.run(ft, jobs)
        _cache[ft] = {m[0]: (m[1], m[2], m[3], o) for m, o in zip(meta, outs)}
    return _cache[ft]


@pytest.mark.parametrize("fn", list(CBOUND))
def test_complex_accuracy(harness, ftype, fn):
    z, w, ref, got = _run_all(harness, ftype)[fn]
    err = normwise_ulps(got, ref, ftype)
    i = int(np.argmax(err))
    import os
    path = os.environ.get("NUMR_WGSL_ULP_REPORT")
    if path:
        data = json.load(open(path)) if os.path.exists(path) else {}
        data.setdefault("c" + ftype, {})[fn] = float(err[i])
        json.dump(data, open(path, "w"), indent=1, sort_keys=True)
    if fn == "cpow":
        # exp(y log x): the rounding of y*log x is amplified by |y log x|
        lz = np.log(np.abs(z.astype(np.complex128))) + 1j * np.angle(z.astype(np.complex128))
        err = err / (1.0 + 0.5 * np.abs(w.astype(np.complex128) * lz))
    assert err.max() <= CBOUND[fn], f"{fn} {ftype}: {err.max():.3g} ulp at z={z[i]!r} w={None if w is None else w[i]!r} got={got[i]!r} ref={ref[i]!r}"


# ---- special cases parsed from the standard ----

def _cond_values(cond, ft):
    big = 1e300 if ft == "f64" else 1e30
    small = 1e-300 if ft == "f64" else 1e-30
    cond = cond.strip()
    m = re.fullmatch(r"either ``(.+?)`` or ``(.+?)``", cond)
    if m:
        return _cond_values(f"``{m.group(1)}``", ft) + _cond_values(f"``{m.group(2)}``", ft)
    table = {
        "``+0``": [0.0], "``-0``": [-0.0], "``+infinity``": [np.inf], "``-infinity``": [-np.inf],
        "``NaN``": [np.nan], "``1``": [1.0], "``-1``": [-1.0],
        "a finite number": [0.0, -0.0, 1.5, -2.5, small, -big],
        "a nonzero finite number": [1.5, -2.5, small, -big],
        "a positive (i.e., greater than ``0``) finite number": [1.5, 0.25, small, big],
        "a positive finite number": [1.5, 0.25, small, big],
        "either a finite number or ``NaN``": [0.0, -0.0, 1.5, -2.5, small, -big, np.nan],
        "a nonzero number": [1.5, -2.5, np.inf, -np.inf],
        "not equal to ``0``": [1.5, -2.5, np.inf, -np.inf, np.nan],
        "any value": [0.0, -0.0, 1.5, -2.5, np.inf, -np.inf, np.nan],
        "any value (including ``NaN``)": [0.0, -0.0, 1.5, -2.5, np.inf, -np.inf, np.nan],
    }
    return table[cond]


_CONST = {"π": np.pi, "π/2": np.pi / 2, "π/4": np.pi / 4, "3π/4": 3 * np.pi / 4}


def _part(tok, neg=False):
    """-> (kind, value, signed) for one component token."""
    tok = tok.strip()
    sign = -1.0 if neg else 1.0
    if tok.startswith("±"):
        return ("val", _part(tok[1:])[1], False)
    signed = tok[:1] in "+-" or neg
    if tok[:1] in "+-":
        sign *= -1.0 if tok[0] == "-" else 1.0
        tok = tok[1:]
    if tok == "NaN":
        return ("nan", None, False)
    if tok == "infinity":
        return ("val", sign * np.inf, signed)
    if tok == "0":
        return ("val", sign * 0.0, signed)
    if tok in _CONST:
        return ("approx", sign * _CONST[tok], True)
    return ("val", sign * float(tok), True)


def _expected(res, rest, b):
    """Parsed result as ((kind, value, signed) real, imag) for this b (cis forms need b)."""
    res = res.strip()
    m = re.fullmatch(r"(\+0|\+infinity) \* cis\(b\)( - 1\.0)?", res)
    if m:
        if not np.isfinite(b):
            return None
        mag = 0.0 if m.group(1) == "+0" else np.inf
        re_ = np.copysign(mag, np.cos(b)); im = np.copysign(mag, np.sin(b))
        if m.group(2):
            re_ = re_ - 1.0
        return (("val", re_, True), ("val", im, True))
    if " " not in res:  # real result (abs)
        return (_part(res), None)
    m = re.fullmatch(r"(\S+) ([+\-±]) (.+)", res)
    re_tok, op, im_tok = m.groups()
    im_tok = im_tok.replace(" j", "").replace("j", "")
    re_p = _part(re_tok)
    im_p = _part(im_tok, neg=(op == "-"))
    if op == "±":
        im_p = (im_p[0], im_p[1], False)
    if "sign of the real component is unspecified" in rest:
        re_p = (re_p[0], re_p[1], False)
    if "sign of the imaginary component is unspecified" in rest or "sign of imaginary component is unspecified" in rest:
        im_p = (im_p[0], im_p[1], False)
    return (re_p, im_p)


def _check(got, exp, ft):
    kind, val, signed = exp
    if kind == "nan":
        return np.isnan(got)
    if kind == "approx":
        return abs(got - val) <= 4 * float(np.spacing(DT[ft](abs(val))))
    if np.isnan(got) or got != val and not (np.isinf(val) and np.isinf(got) and not signed):
        return False
    return (not signed) or np.signbit(got) == np.signbit(val)


def _spec_cases(ft):
    cases = []
    for spec_fn, lines in SPEC.items():
        if spec_fn not in MINE:
            continue
        for line in lines:
            m = re.match(r"- If ``([ab])`` is (.+?), the result is equal to ``abs\(([ab])\)``\.$", line)
            if m:
                for v in _cond_values(m.group(2), ft):
                    for o in _cond_values("any value", ft):
                        a, b = (v, o) if m.group(1) == "a" else (o, v)
                        cases.append((MINE[spec_fn], a, b, (("val", abs(o), True), None) if not np.isnan(o) else (("nan", None, False), None), line))
                continue
            # (one line of the 2025.12 text lacks the "is" after ``a``)
            m = re.match(r"- If ``a`` (?:is )?(.+?) and ``b`` is (.+?), the result is ``(.+?)``(.*)$", line)
            assert m, line
            ca, cb, res, rest = m.groups()
            for a in _cond_values(ca, ft):
                for b in _cond_values(cb, ft):
                    b = float(DT[ft](b))  # cis(b) of the value the shader sees
                    exp = _expected(res, rest, b)
                    if exp is not None:
                        cases.append((MINE[spec_fn], a, b, exp, line))
                        if spec_fn != "abs":  # f(conj z) = conj f(z) holds for all of them
                            re_e, (k, v, sg) = exp
                            cases.append((MINE[spec_fn], a, -b, (re_e, (k, None if v is None else -v, sg)), line + " [conj]"))
    return cases


def test_spec_special_cases(harness, ftype):
    cases = _spec_cases(ftype)
    fns = sorted({c[0] for c in cases})
    jobs = []
    for fn in fns:
        sel = [c for c in cases if c[0] == fn]
        z = np.array([complex(c[1], 0) for c in sel], dtype=CTYPE[ftype])
        z.imag = [c[2] for c in sel]
        jobs.append(complex_job(fn, z, ftype))
    outs = dict(zip(fns, harness.run(ftype, jobs)))
    # an input may match several lines (e.g. sqrt(NaN + inf j)); the more specific line and
    # the conj-mirrored ones all describe valid results, so any match passes
    verdict = {}
    for fn in fns:
        sel = [c for c in cases if c[0] == fn]
        for c, g in zip(sel, outs[fn]):
            re_e, im_e = c[3]
            if fn == "cabs":
                ok = _check(float(g), re_e, ftype)
            else:
                ok = _check(float(g.real), re_e, ftype) and _check(float(g.imag), im_e, ftype)
            key = (fn, repr(c[1]), repr(c[2]))
            prev = verdict.get(key, (False, []))
            verdict[key] = (prev[0] or ok, prev[1] + [f"{fn}({c[1]!r}, {c[2]!r}) = {g!r}: {c[4]}"])
    bad = [msgs[0] if len(msgs) == 1 else " | ".join(msgs) for ok, msgs in verdict.values() if not ok]
    assert len(cases) > 400
    assert not bad, f"{len(bad)} of {len(cases)} special cases fail:\n" + "\n".join(bad[:20])


GRID = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, np.inf, -np.inf, np.nan, 1e30, -1e-30]


def test_identities_on_special_grid(harness, ftype):
    """sin, cos, tan, asin, atan are defined by the standard through sinh, cosh, tanh, asinh,
    atanh of iz: check those identities bit for bit (NaN for NaN) on a special-value grid."""
    vals = np.array(GRID)
    z = (vals[:, None] + 1j * vals[None, :]).ravel().astype(CTYPE[ftype])
    z.imag = np.repeat(vals[None, :], len(vals), 0).ravel()
    z.real = np.repeat(vals[:, None], len(vals), 1).ravel()
    iz = np.empty_like(z); iz.real = -z.imag; iz.imag = z.real
    pairs = [("csin", "csinh"), ("ccos", "ccosh"), ("ctan", "ctanh"), ("casin", "casinh"), ("catan", "catanh")]
    jobs = []
    for f, g in pairs:
        jobs += [complex_job(f, z, ftype), complex_job(g, iz, ftype)]
    outs = harness.run(ftype, jobs)
    bad = []
    for k, (f, g) in enumerate(pairs):
        a, w = outs[2 * k], outs[2 * k + 1]
        want = w.copy() if f == "ccos" else np.empty_like(w)
        if f != "ccos":
            want.real, want.imag = w.imag, -w.imag * 0 - w.real  # -i * w = (w.im, -w.re)
            want.imag = np.negative(w.real)
        for i in range(len(z)):
            # with a NaN operand the signs of the results are unspecified (and drivers may
            # canonicalise NaNs): compare NaN-ness and magnitudes only
            loose = np.isnan(z[i].real) or np.isnan(z[i].imag)
            for x, y in ((a[i].real, want[i].real), (a[i].imag, want[i].imag)):
                if loose:
                    x, y = abs(x), abs(y)
                if not ((np.isnan(x) and np.isnan(y)) or (x == y and np.signbit(x) == np.signbit(y))):
                    bad.append((f, z[i], a[i], want[i]))
                    break
    assert not bad, bad[:10]
