"""WGSL shared by the Jacobi kernels (spec.py, rounds.py, small_spec.py) and eig_spec.py:
the per-dtype literals and constants, the element arithmetic of real and complex variants
(re, ab2, mul, cj, ...), the Jacobi rotation, and unrolled loops for lavapipe's loop budget.
"""

from __future__ import annotations

from ...codegen.types import WType


def needs(t: WType):
    return ("f64",) if "f64" in t.val else ()


def lit(t: str, x: float) -> str:
    return f"{x!r}{'f' if t == 'f32' else 'lf'}"


def elem_types(t: WType):
    """(E, T): the element type (real, or vec2 for complex) and its real type."""
    E = t.val
    return E, ("f32" if "f32" in E else "f64")


def consts(t: WType) -> dict:
    E, T = elem_types(t)
    f32 = T == "f32"
    eps = 2.0 ** -23 if f32 else 2.0 ** -52
    return {"T": T, "E": E, "eps": lit(T, eps), "zero": lit(T, 0.0), "one": lit(T, 1.0),
            "two": lit(T, 2.0), "halfv": lit(T, 0.5), "big": lit(T, 2.0 ** 32),
            "small": lit(T, 2.0 ** -32), "maxsw": 30 if f32 else 40,
            "ezero": f"{E}({lit(T, 0.0)})"}


def _jrot(t: WType) -> str:
    """The Jacobi rotation of tangent t (t = tan theta, signed) and off-diagonal z (|z| > 0),
    as (h, g): c = cos theta = 1 - h, g = sin theta * z / |z|. Rotations are applied in the
    update form p' = x - (conj(g) y + h x), q' = y + (g x - h y), which keeps
    c^2 + |g|^2 = 1 where c itself cannot: for |t| < 2^-12 (float32) c = 1 / sqrt(1 + t^2)
    rounds to 1 while |g| = |t|, so every late small rotation grew both columns by
    1 + t^2 / 2, a systematic drift that shifted every eigenvalue of the shifted round path
    by about 1e-4 ||B|| (at n = 200; ~1000 ulp, within tolerance on lavapipe's exact
    rounding only). Also: the phase z / |z| is taken after scaling z (|z|^2 underflows, and
    a GPU flushing subnormals dropped one component's square: |g| came out 0.7% large), and
    one Newton step on c^2 + |g|^2 absorbs the few-ulp error of approximate sqrt / division
    (NVIDIA's), before h = |g|^2 / (1 + c) is formed."""
    E, T = elem_types(t)
    one, half, onehalf = lit(T, 1.0), lit(T, 0.5), lit(T, 1.5)
    if E == T:
        ph = f"select(-{one}, {one}, z >= {lit(T, 0.0)})"
    else:
        ph = ("junit(z)")
    out = f"""struct JRot {{ h: {T}, g: {E} }}
fn jrot(t: {T}, z: {E}) -> JRot {{
  var c = {one} / sqrt(t * t + {one});
  var g = {ph} * (t * c);
  let f = {onehalf} - {half} * (c * c + ab2(g));
  c = c * f;
  g = g * f;
  return JRot(ab2(g) / ({one} + c), g);
}}"""
    if E != T:
        out = f"""fn junit(z: {E}) -> {E} {{
  let w = z / max(abs(z.x), abs(z.y));
  return w / sqrt(ab2(w));
}}
""" + out
    return out


def elem_fns(t: WType) -> str:
    """Element arithmetic shared by the real and complex variants of one template."""
    return _cfns0(t) + "\n" + _jrot(t)


def _cfns0(t: WType) -> str:
    E, T = elem_types(t)
    z = lit(T, 0.0)
    if E == T:
        return f"""fn re(x: {T}) -> {T} {{ return x; }}
fn ab2(x: {T}) -> {T} {{ return x * x; }}
fn cabs(x: {T}) -> {T} {{ return abs(x); }}
fn amax(x: {T}) -> {T} {{ return abs(x); }}
fn cj(x: {T}) -> {T} {{ return x; }}
fn mul(a: {T}, b: {T}) -> {T} {{ return a * b; }}
fn nz(x: {T}) -> bool {{ return x != {z}; }}
fn tov(x: {T}) -> {T} {{ return x; }}"""
    # |x| as sqrt(x.x^2 + x.y^2) is safe: inputs are scaled so max |component| <= 1
    return f"""fn re(x: {E}) -> {T} {{ return x.x; }}
fn ab2(x: {E}) -> {T} {{ return x.x * x.x + x.y * x.y; }}
fn cabs(x: {E}) -> {T} {{ return sqrt(ab2(x)); }}
fn amax(x: {E}) -> {T} {{ return max(abs(x.x), abs(x.y)); }}
fn cj(x: {E}) -> {E} {{ return {E}(x.x, -x.y); }}
fn mul(a: {E}, b: {E}) -> {E} {{ return {E}(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }}
fn nz(x: {E}) -> bool {{ return x.x != {z} || x.y != {z}; }}
fn tov(x: {T}) -> {E} {{ return {E}(x, {z}); }}"""


UNROLL = 8   # lavapipe stops a loop after 65535 iterations per invocation, counted over
             # every entry: unrolled bodies keep the hot loops of a whole solve below that


def unrolled(var: str, start: str, bound: str, step: str, body: str, indent: str) -> str:
    """``for (var = start; var < bound; var += step) { body }`` with UNROLL copies of the body
    per iteration (each guarded), so the loop's backedge count drops UNROLL-fold."""
    lines = [f"{indent}for (var {var}0 = {start}; {var}0 < {bound}; "
             f"{var}0 += {UNROLL}u * {step}) {{"]
    for u in range(UNROLL):
        lines.append(f"{indent}  {{ let {var} = {var}0 + {u}u * {step};")
        lines.append(f"{indent}    if ({var} < {bound}) {{")
        lines += [f"{indent}      {ln}" for ln in body.strip().splitlines()]
        lines.append(f"{indent}    }}")
        lines.append(f"{indent}  }}")
    lines.append(f"{indent}}}")
    return "\n".join(lines)
