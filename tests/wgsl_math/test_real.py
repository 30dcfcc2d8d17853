"""Accuracy and special cases of the real-valued WGSL math functions on the live adapter."""
import json
import os

import numpy as np
import pytest

from harness import ARITY, DT, binary_job, unary_job
from inputs import binary_inputs, special_values, unary_inputs
from reference import ref_binary, ref_unary, ulp_error

# Max error in ulps (against the exact value) allowed per function and type. Measured values
# on lavapipe are in docs/wgsl-math.md; bounds leave some slack for other drivers.
BOUND = {
    # inputs are fixed (seeded); the slack above the measured maxima covers other drivers
    "f64": dict(exp=2, exp2=2, expm1=3, log=2, log2=3, log10=3, log1p=3, sqrt=0.5, cbrt=2,
                sin=2, cos=2, tan=4, asin=2, acos=2, atan=2, atan2=3, sinh=4, cosh=4, tanh=4,
                asinh=4, acosh=4, atanh=4, pow=2, hypot=2, erf=3, erfc=4, logaddexp=8,
                trunc=0, floor=0, ceil=0, round=0),
}
BOUND["f32"] = dict(BOUND["f64"])
# f32 erfc: 3.98 on lavapipe (a refined reciprocal; WGSL's division is only within 2.5 ulp)
BOUND["f32"]["erfc"] = 5
UNARY = [f for f in BOUND["f64"] if ARITY.get(f, 1) == 1]
BINARY = [f for f in BOUND["f64"] if ARITY.get(f, 1) == 2]
EXACT = ["copysign", "nextafter", "maximum", "minimum"]

_cache = {}
TINY32 = np.float32(2.0 ** -125)


def _ftz_mask(harness, ft, ref, *args):
    """On adapters that flush f32 subnormals, drop subnormal operands and results within a
    factor 2 of the subnormal range (documented deviation); everything else must still pass."""
    keep = np.ones(len(args[0]), dtype=bool)
    if ft != "f32" or not harness.flushes_f32:
        return keep
    for a in args:
        if a is not None:
            a = np.asarray(a, dtype=np.float32)
            keep &= ~((a != 0) & (np.abs(a) < TINY32))
    if ref is not None:
        r = np.asarray(ref, dtype=np.float64)
        keep &= ~((r != 0) & (np.abs(r) < float(TINY32)))
    return keep


def _measure(harness, ft):
    if ft in _cache:
        return _cache[ft]
    jobs, meta = [], []
    for fn in UNARY:
        x = unary_inputs(fn, ft)
        jobs.append(unary_job(fn, x, ft)); meta.append((fn, x, None))
    for fn in BINARY + EXACT:
        x, y = binary_inputs(fn, ft)
        jobs.append(binary_job(fn, x, y, ft)); meta.append((fn, x, y))
    outs = harness.run(ft, jobs)
    res = {}
    for (fn, x, y), got in zip(meta, outs):
        ref = ref_unary(fn, x, ft) if y is None else ref_binary(fn, x, y, ft)
        res[fn] = (x, y, got, ref)
    _cache[ft] = res
    return res


def _report(ft, fn, err, x, y):
    i = int(np.argmax(err))
    where = f"x={x[i]!r}" + ("" if y is None else f", y={y[i]!r}")
    path = os.environ.get("NUMR_WGSL_ULP_REPORT")
    if path:
        data = json.load(open(path)) if os.path.exists(path) else {}
        data.setdefault(ft, {})[fn] = float(err[i])
        json.dump(data, open(path, "w"), indent=1, sort_keys=True)
    return where


@pytest.mark.parametrize("fn", UNARY + BINARY)
def test_ulp(harness, ftype, fn):
    x, y, got, ref = _measure(harness, ftype)[fn]
    keep = _ftz_mask(harness, ftype, ref, x, y)
    x, got, ref = x[keep], got[keep], ref[keep]
    y = None if y is None else y[keep]
    err = ulp_error(got, ref, ftype)
    if fn == "logaddexp":
        # m + log1p(exp(-|x-y|)) cancels when the result is near 0 (as NumPy's does): the
        # error is bounded in ulps of max(|result|, |max(x, y)|), not of the result
        m = np.maximum(x, y).astype(ref.dtype)
        err = ulp_error(got, ref, ftype) * np.minimum(1.0, np.abs(ref.astype(np.float64)) / np.maximum(np.abs(m.astype(np.float64)), 1e-300))
        err = np.where(np.abs(ref) >= np.abs(m), ulp_error(got, ref, ftype), err)
    where = _report(ftype, fn, err, x, y)
    assert err.max() <= BOUND[ftype][fn], f"{fn} {ftype}: max {err.max():.3g} ulp at {where}"


@pytest.mark.parametrize("fn", EXACT)
def test_bitwise_helpers(harness, ftype, fn):
    x, y, got, ref = _measure(harness, ftype)[fn]
    ref = np.asarray(ref, dtype=DT[ftype])
    keep = _ftz_mask(harness, ftype, ref, x, y)
    x, y, got, ref = x[keep], y[keep], got[keep], ref[keep]
    if fn in ("maximum", "minimum"):
        # NaN propagates; the sign of a zero result is unspecified by the standard
        same = (np.isnan(got) & np.isnan(ref)) | (got == ref)
    elif fn == "copysign":
        # NaN payloads aside, the result must carry x's magnitude and y's sign bit exactly
        same = (np.isnan(got) & np.isnan(ref) & (np.signbit(got) == np.signbit(ref))) | (got.view(f"u{got.itemsize}") == ref.view(f"u{ref.itemsize}"))
    else:
        same = (np.isnan(got) & np.isnan(ref)) | (got.view(f"u{got.itemsize}") == ref.view(f"u{ref.itemsize}"))
    bad = np.flatnonzero(~same)
    assert bad.size == 0, f"{fn} {ftype}: {bad.size} mismatches, e.g. x={x[bad[0]]!r} y={y[bad[0]]!r} got={got[bad[0]]!r} want={ref[bad[0]]!r}"


def _special_grid(ft, arity, ftz=False):
    s = special_values(ft)
    if ftz:
        s = s[~((s != 0) & (np.abs(s) < TINY32))]
    if arity == 1:
        return s, None
    xx, yy = np.meshgrid(s, s, indexing="ij")
    return xx.ravel(), yy.ravel()


_scache = {}


def _special(harness, ft):
    if ft in _scache:
        return _scache[ft]
    jobs, meta = [], []
    for fn in UNARY + BINARY + EXACT:
        ar = ARITY.get(fn, 1)
        x, y = _special_grid(ft, ar, ft == "f32" and harness.flushes_f32)
        jobs.append(unary_job(fn, x, ft) if ar == 1 else binary_job(fn, x, y, ft))
        meta.append((fn, x, y))
    outs = harness.run(ft, jobs)
    _scache[ft] = {fn: (x, y, got) for (fn, x, y), got in zip(meta, outs)}
    return _scache[ft]


@pytest.mark.parametrize("fn", UNARY + BINARY + EXACT)
def test_special_values(harness, ftype, fn):
    """NaN / +-inf / +-0 / +-1 / extremes: NaN-ness, infinities and zero signs must match the
    C99 (= array API) results exactly, finite values to the accuracy bound."""
    x, y, got = _special(harness, ftype)[fn]
    ref = ref_unary(fn, x, ftype) if y is None else ref_binary(fn, x, y, ftype)
    ref = np.asarray(ref)
    refc = ref.astype(DT[ftype]) if ref.dtype != np.longdouble else ref
    bad = []
    for i in range(len(x)):
        g, r = got[i], ref[i]
        args = (x[i],) if y is None else (x[i], y[i])
        if ftype == "f32" and harness.flushes_f32 and r != 0 and abs(float(r)) < float(TINY32):
            if not (g == 0 or ulp_error([g], [r], ftype)[0] <= max(BOUND[ftype].get(fn, 0), 1)):
                bad.append((args, g, r))  # a flushed subnormal result may come back as 0
        elif np.isnan(r):
            if not np.isnan(g):
                bad.append((args, g, r))
        elif np.isinf(r) or r == 0 or not np.isfinite(refc[i]) or refc[i] == 0:
            rr = DT[ftype](r) if ref.dtype == np.longdouble else refc[i]
            if fn in ("maximum", "minimum") and rr == 0:
                ok = g == 0
            else:
                ok = (g == rr) and (np.signbit(g) == np.signbit(rr))
            if not ok and not (np.isfinite(rr) and ulp_error([g], [r], ftype)[0] <= max(BOUND[ftype].get(fn, 0), 1)):
                bad.append((args, g, r))
        else:
            bound = BOUND[ftype].get(fn, 0)
            if ulp_error([g], [r], ftype)[0] > max(bound, 0.5):
                bad.append((args, g, r))
    assert not bad, f"{fn} {ftype}: {len(bad)} special-case mismatches, e.g. {bad[:5]}"


def test_sqrt_bitwise(harness, ftype):
    """sqrt must be correctly rounded (2024.12): compare bit for bit with NumPy on random bit
    patterns over the whole positive range, subnormals included."""
    rng = np.random.default_rng(7)
    n = 100_000
    if ftype == "f32":
        x = rng.integers(0, 0x7F800000, n, dtype=np.uint32).view(np.float32)
    else:
        x = rng.integers(0, 0x7FF0000000000000, n, dtype=np.uint64).view(np.float64)
    got = harness.run(ftype, [unary_job("sqrt", x, ftype)])[0]
    want = np.sqrt(x)
    keep = _ftz_mask(harness, ftype, want, x)
    x, got, want = x[keep], got[keep], want[keep]
    bad = np.flatnonzero(got.view(f"u{got.itemsize}") != want.view(f"u{want.itemsize}"))
    assert bad.size == 0, f"{bad.size} differ, e.g. sqrt({x[bad[0]]!r}) = {got[bad[0]]!r}, NumPy {want[bad[0]]!r}"


VIA = ["exp", "expm1", "log", "log1p", "sin", "cos", "tan", "atan", "asin", "tanh", "erf", "pow", "atan2"]


def test_f32_via_f64(harness):
    """The optional f32-through-f64 path: every result within 1 ulp (double rounding)."""
    if not harness.supports("f64"):
        pytest.skip("adapter lacks shader-f64 / shader-int64")
    jobs, meta = [], []
    for fn in VIA:
        if ARITY.get(fn, 1) == 1:
            x = unary_inputs(fn, "f32", 20_000); y = None
            jobs.append(unary_job(fn, x, "f32"))
        else:
            x, y = binary_inputs(fn, "f32", 20_000)
            jobs.append(binary_job(fn, x, y, "f32"))
        meta.append((fn, x, y))
    outs = harness.run("f32", jobs, f32_via_f64=True)
    worst = {}
    for (fn, x, y), got in zip(meta, outs):
        ref = ref_unary(fn, x, "f32") if y is None else ref_binary(fn, x, y, "f32")
        keep = _ftz_mask(harness, "f32", ref, x, y)
        worst[fn] = float(ulp_error(got[keep], ref[keep], "f32").max())
    assert max(worst.values()) <= 1.0, worst


def test_predicates_frexp_ldexp(harness, ftype):
    """is_nan / is_inf / is_finite / signbit / abs / frexp / ldexp against NumPy, bit for bit,
    on random bit patterns (NaN payloads, infinities, subnormals, both zero signs)."""
    rng = np.random.default_rng(11)
    n = 50_000
    if ftype == "f32":
        x = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32).view(np.float32)
    else:
        x = rng.integers(0, 2**63, n, dtype=np.uint64)
        x[::2] |= np.uint64(1 << 63)
        x = x.view(np.float64)
    x[:8] = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.75]
    k = rng.integers(-1200 if ftype == "f64" else -300, 1200 if ftype == "f64" else 300, n).astype(x.dtype)
    T = ftype
    sel = lambda c: f"select($T(0.0), $T(1.0), {c})"
    exprs = {
        "is_nan": sel("numr_is_nan_$T(a)"), "is_inf": sel("numr_is_inf_$T(a)"),
        "is_finite": sel("numr_is_finite_$T(a)"), "signbit": sel("numr_signbit_$T(a)"),
        "abs": "numr_abs_$T(a)", "frexp_m": "numr_frexp_$T(a).fract", "frexp_e": "$T(numr_frexp_$T(a).exp)",
        "ldexp": "numr_ldexp_$T(a, i32(b))",
    }
    fns = {"is_nan": ["is_nan"], "is_inf": ["is_inf"], "is_finite": ["is_finite"], "signbit": ["signbit"],
           "abs": ["abs"], "frexp_m": ["frexp"], "frexp_e": ["frexp"], "ldexp": ["ldexp"]}
    jobs = [{"fns": fns[k_], "expr": e, "a": x, "b": k} for k_, e in exprs.items()]
    outs = dict(zip(exprs, harness.run(ftype, jobs)))
    m, e = np.frexp(x)
    with np.errstate(all="ignore"):
        want = {"is_nan": np.isnan(x), "is_inf": np.isinf(x), "is_finite": np.isfinite(x),
                "signbit": np.signbit(x), "abs": np.abs(x), "frexp_m": m, "frexp_e": e,
                "ldexp": np.ldexp(x, k.astype(np.int64))}
    fin = np.isfinite(x)
    keep = _ftz_mask(harness, ftype, None, x)
    for name, w in want.items():
        g = outs[name]
        w = np.asarray(w).astype(g.dtype)
        if name == "ldexp":
            keep_n = keep & _ftz_mask(harness, ftype, np.where(np.isfinite(w), w, 1.0), x)
        else:
            keep_n = keep
        if name == "frexp_e":  # exponent unspecified for inf/nan/zero
            ok = (g == w) | ~fin | (x == 0)
        else:
            ok = (np.isnan(g) & np.isnan(w)) | (g.view(f"u{g.itemsize}") == w.view(f"u{w.itemsize}"))
        bad = np.flatnonzero(~ok & keep_n)
        assert bad.size == 0, f"{name}: {bad.size} mismatches, e.g. x={x[bad[0]]!r} k={k[bad[0]]!r} got={g[bad[0]]!r} want={w[bad[0]]!r}"
