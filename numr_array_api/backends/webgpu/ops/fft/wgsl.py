"""WGSL fragments shared by the FFT kernels: complex helpers, radix butterflies, and the
row loaders / storers through which every kernel reads its source and writes its result.

Rows. A kernel sees ``rows`` transforms; row ``r`` is split as ``(r / inner, r % inner)``
and starts at ``a * s_outer + b * s_inner`` in its binding, elements ``s_elem`` apart. One
form covers a contiguous last axis (inner = 1), any axis of a contiguous array (outer dims
collapse to one, inner dims to one) and the scratch buffers, so no transpose copy is made.

Load modes (source ``x``), logical complex element ``i`` of the row:
  c   complex element i (0 beyond ``in_len``)
  r   real element i, imaginary 0
  rp  real pair: x[2i] + i x[2i+1] (the half-length trick of a real transform)
  h   Hermitian extension of a half spectrum of a length-``n`` real signal
      (``i > n/2`` reads conj(x[n - i]); the imaginary parts of x[0] and x[n/2] are
      ignored, as NumPy's c2r transforms do)
Store modes (destination ``y``): c (complex), re (real part), rp (real pair: y[2i] = re,
y[2i+1] = im); elements at or beyond ``out_len`` (in the destination's own units) are not
written. Every stored value is multiplied by the scale (``scale0`` f32 bits for complex64;
``scale0 + scale1 + scale2`` as f64 for complex128, the three f32 parts of one double).
"""

import functools
import math

LOADS = ("c", "r", "rp", "h")
STORES = ("c", "re", "rp")
RADICES = (2, 3, 4, 5, 7, 8)


def types(cdtype):
    """(complex type, real type, literal suffix) of a complex dtype name."""
    if cdtype == "complex64":
        return "vec2<f32>", "f32", "f"
    return "vec2<f64>", "f64", "lf"


def lit(x, suf):
    return f"{float(x)!r}{suf}" if suf == "lf" else f"{float(x):.9e}f"


def complex_helpers(C, R, suf, inverse):
    """cmul, the twiddle accessor ``twid(e)`` over the table ``tw`` (forward twiddles
    exp(-2 pi i e / N) in the kernel's precision: the inverse conjugates them)."""
    conj = "vec2(w.x, -w.y)" if inverse else "w"
    return f"""
fn cmul(a: {C}, b: {C}) -> {C} {{ return {C}(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }}
fn twid(e: u32) -> {C} {{ let w = tw[${{tw_off}} + e]; return {conj}; }}
"""


def scale_expr(R):
    if R == "f32":
        return "bitcast<f32>(${scale0})"
    return ("(f64(bitcast<f32>(${scale0})) + f64(bitcast<f32>(${scale1})) + "
            "f64(bitcast<f32>(${scale2})))")


@functools.lru_cache(maxsize=256)
def scale_words(cdtype, s):
    """The scale words of ``s`` (a Python float) for ``cdtype`` (callers copy the dict)."""
    import numpy as np
    w0 = np.float32(s)
    if cdtype == "complex64":
        return {"scale0": int(w0.view(np.uint32)), "scale1": 0, "scale2": 0}
    r1 = s - float(w0)
    w1 = np.float32(r1)
    w2 = np.float32(r1 - float(w1))
    return {"scale0": int(w0.view(np.uint32)), "scale1": int(w1.view(np.uint32)),
            "scale2": int(w2.view(np.uint32))}


def bfly(r, C, R, suf, inverse):
    """``bfly{r}(u)``: the length-r DFT of u[0..r) in place (sign -1 forward, +1 inverse);
    constants are rounded once from float64; multiplications by +-1, +-i are exact."""
    sign = 1.0 if inverse else -1.0
    lines = [f"fn bfly{r}(u: ptr<function, array<{C}, 8>>) {{"]
    for t in range(r):
        lines.append(f"  let a{t} = (*u)[{t}];")
    for q in range(r):
        terms = []
        for t in range(r):
            e = (q * t) % r
            if e == 0:
                terms.append(f"a{t}")
                continue
            ang = sign * 2.0 * math.pi * e / r
            c, s = math.cos(ang), math.sin(ang)
            if 4 * e == r:  # angle = sign * pi/2
                terms.append(f"{C}(-a{t}.y, a{t}.x)" if sign > 0 else f"{C}(a{t}.y, -a{t}.x)")
            elif 2 * e == r:
                terms.append(f"(-a{t})")
            elif 4 * e == 3 * r:
                terms.append(f"{C}(a{t}.y, -a{t}.x)" if sign > 0 else f"{C}(-a{t}.y, a{t}.x)")
            else:
                terms.append(f"cmul(a{t}, {C}({lit(c, suf)}, {lit(s, suf)}))")
        lines.append(f"  (*u)[{q}] = " + " + ".join(terms) + ";")
    lines.append("}")
    return "\n".join(lines) + "\n"


def io(C, R, ld, st, three=False):
    """``rowbase_in(row)``, ``rowbase_out(row)``, ``ld(base, i)``, ``st(base, i, v)``.
    ``three``: rows split in three, ``(a, m, b)`` with ``m < mid`` and ``b < inner``, at
    ``a * so + m * sm + b * si`` (the four-step's sub-rows of a batch of strided rows)."""
    zero = f"{C}(0.0, 0.0)"
    if three:
        split = """  let b = row % ${inner};
  let t = row / ${inner};
  let m = t % ${mid};
  let a = t / ${mid};
"""
        base = ["a * ${%s_so} + m * ${%s_sm} + b * ${%s_si}" % (x, x, x) for x in ("in", "out")]
    else:
        split = ""
        base = ["(row / ${inner}) * ${%s_so} + (row %% ${inner}) * ${%s_si}" % (x, x)
                for x in ("in", "out")]
    out = [f"""
fn fscale() -> {R} {{ return {scale_expr(R)}; }}
fn rowbase_in(row: u32) -> u32 {{
{split}  return {base[0]};
}}
fn rowbase_out(row: u32) -> u32 {{
{split}  return {base[1]};
}}
"""]
    if ld == "c":
        out.append(f"""fn ld(base: u32, i: u32) -> {C} {{
  if (i >= ${{in_len}}) {{ return {zero}; }}
  return x[${{x_off}} + base + i * ${{in_se}}];
}}
""")
    elif ld == "r":
        out.append(f"""fn ld(base: u32, i: u32) -> {C} {{
  if (i >= ${{in_len}}) {{ return {zero}; }}
  return {C}(x[${{x_off}} + base + i * ${{in_se}}], 0.0);
}}
""")
    elif ld == "rp":
        out.append(f"""fn ld(base: u32, i: u32) -> {C} {{
  var v = {zero};
  let j = 2u * i;
  if (j < ${{in_len}}) {{ v.x = x[${{x_off}} + base + j * ${{in_se}}]; }}
  if (j + 1u < ${{in_len}}) {{ v.y = x[${{x_off}} + base + (j + 1u) * ${{in_se}}]; }}
  return v;
}}
""")
    elif ld == "h":
        # n: the length of the real signal (the transform length)
        out.append(f"""fn ld(base: u32, i: u32) -> {C} {{
  let n = ${{n}};
  var k = i;
  var flip = false;
  if (2u * i > n) {{ k = n - i; flip = true; }}
  if (k >= ${{in_len}}) {{ return {zero}; }}
  var v = x[${{x_off}} + base + k * ${{in_se}}];
  if (k == 0u || 2u * k == n) {{ v.y = 0.0; }}
  if (flip) {{ v.y = -v.y; }}
  return v;
}}
""")
    else:
        raise ValueError(ld)
    if st == "c":
        out.append(f"""fn st(base: u32, i: u32, v: {C}) {{
  if (i < ${{out_len}}) {{ y[${{y_off}} + base + i * ${{out_se}}] = v * fscale(); }}
}}
""")
    elif st == "re":
        out.append(f"""fn st(base: u32, i: u32, v: {C}) {{
  if (i < ${{out_len}}) {{ y[${{y_off}} + base + i * ${{out_se}}] = v.x * fscale(); }}
}}
""")
    elif st == "rp":
        out.append(f"""fn st(base: u32, i: u32, v: {C}) {{
  let j = 2u * i;
  if (j < ${{out_len}}) {{ y[${{y_off}} + base + j * ${{out_se}}] = v.x * fscale(); }}
  if (j + 1u < ${{out_len}}) {{ y[${{y_off}} + base + (j + 1u) * ${{out_se}}] = v.y * fscale(); }}
}}
""")
    else:
        raise ValueError(st)
    return "".join(out)


IO_WORDS = ["rows", "inner", "in_so", "in_si", "in_se", "in_len",
            "out_so", "out_si", "out_se", "out_len", "scale0", "scale1", "scale2"]


def elem(C, R, mode, side):
    """WGSL element type of the source (side 'ld') or destination binding for a mode."""
    if side == "ld":
        return C if mode in ("c", "h") else R
    return C if mode == "c" else R


def fast_bfly(r, C, suf, inverse):
    """``bfly{r}(u)`` for r in (2, 4, 8) as radix-2 / radix-4 decompositions (about a
    fifth of the operations of the direct length-r DFT of ``bfly``); 3, 5, 7 as ``bfly``."""
    if r not in (2, 4, 8):
        return bfly(r, C, "", suf, inverse)
    # -i z forward, +i z inverse
    rot = (lambda z: f"{C}(-({z}).y, ({z}).x)") if inverse else \
        (lambda z: f"{C}(({z}).y, -({z}).x)")
    L = [f"fn bfly{r}(u: ptr<function, array<{C}, 8>>) {{"]
    if r == 2:
        L += ["  let a0 = (*u)[0];", "  let a1 = (*u)[1];",
              "  (*u)[0] = a0 + a1;", "  (*u)[1] = a0 - a1;"]
    elif r == 4:
        L += [f"  let a{t} = (*u)[{t}];" for t in range(4)]
        L += ["  let s02 = a0 + a2;", "  let d02 = a0 - a2;", "  let s13 = a1 + a3;",
              f"  let d13 = {rot('a1 - a3')};",
              "  (*u)[0] = s02 + s13;", "  (*u)[2] = s02 - s13;",
              "  (*u)[1] = d02 + d13;", "  (*u)[3] = d02 - d13;"]
    else:
        h = lit(math.sqrt(0.5), suf)
        L += [f"  let a{t} = (*u)[{t}];" for t in range(8)]
        L += [f"  let b{t} = a{t} + a{t + 4};" for t in range(4)]
        L += [f"  let c{t} = a{t} - a{t + 4};" for t in range(4)]
        if inverse:   # W8^1 = (1 + i)/sqrt2, W8^2 = i, W8^3 = (-1 + i)/sqrt2
            L += [f"  let e1 = {C}((c1.x - c1.y) * {h}, (c1.x + c1.y) * {h});",
                  f"  let e3 = {C}(-(c3.x + c3.y) * {h}, (c3.x - c3.y) * {h});"]
        else:         # W8^1 = (1 - i)/sqrt2, W8^2 = -i, W8^3 = (-1 - i)/sqrt2
            L += [f"  let e1 = {C}((c1.x + c1.y) * {h}, (c1.y - c1.x) * {h});",
                  f"  let e3 = {C}((c3.y - c3.x) * {h}, -(c3.x + c3.y) * {h});"]
        L += [f"  let e2 = {rot('c2')};"]
        for (x0, x1, x2, x3), outs in ((("b0", "b1", "b2", "b3"), (0, 2, 4, 6)),
                                       (("c0", "e1", "e2", "e3"), (1, 3, 5, 7))):
            g = outs[0]
            L += [f"  let s02_{g} = {x0} + {x2};", f"  let d02_{g} = {x0} - {x2};",
                  f"  let s13_{g} = {x1} + {x3};", f"  let d13_{g} = {rot(f'{x1} - {x3}')};",
                  f"  (*u)[{outs[0]}] = s02_{g} + s13_{g};",
                  f"  (*u)[{outs[2]}] = s02_{g} - s13_{g};",
                  f"  (*u)[{outs[1]}] = d02_{g} + d13_{g};",
                  f"  (*u)[{outs[3]}] = d02_{g} - d13_{g};"]
    L.append("}")
    return "\n".join(L) + "\n"
