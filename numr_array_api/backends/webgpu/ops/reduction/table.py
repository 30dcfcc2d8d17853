"""The reductions as a table: per op a state, its identity, fold, combine and post.

Every reduction kernel (ops/reduction/spec.py) runs one frame: each thread folds elements
into a state, states are combined (subgroup shuffles / a workgroup tree / a second pass over
partial states / the boxes of big data), and ``post`` turns the final state into the
result. A row holds only WGSL snippets over named types:

  A  the accumulator (WGSL value type of the accumulation dtype; float16 -> f32)
  F  the real float type of var / std (the input's, float16 -> f32)
  I  the index / count type: i64 with shader-int64, else u32 (sizes < 2^31 enforced)
  X  the type an element is converted to before ``fold`` (A, F, or bool)

States are structs of 4- or 8-byte scalars / vec2 (never bool), so they live in
workgroup memory, move through subgroup shuffles and are stored as one array per field
(each a plain numr dtype, so state arrays are ordinary storages for the box splitter).

Result dtypes (the one place the backend derives them; the front-end's
``accumulation_dtype`` decides ``acc``): sum / prod: acc; max / min / mean / var / std: the
input dtype; all / any: bool; count_nonzero / argmax / argmin: the index dtype.
"""

from __future__ import annotations

import dataclasses

from ....._core import dtypes as dt
from ...codegen.types import WTYPES

# dtype of the unpacked array holding one WGSL scalar / vec2 type
VAL_DTYPE = {"i32": dt.int32, "u32": dt.uint32, "f32": dt.float32, "i64": dt.int64,
             "u64": dt.uint64, "f64": dt.float64, "vec2<f32>": dt.complex64,
             "vec2<f64>": dt.complex128}

ZERO = {"i32": "0i", "u32": "0u", "i64": "0li", "u64": "0lu", "f32": "0.0f", "f64": "0.0lf",
        "vec2<f32>": "vec2<f32>(0.0f)", "vec2<f64>": "vec2<f64>(0.0lf)"}
ONE = {"i32": "1i", "u32": "1u", "i64": "1li", "u64": "1lu", "f32": "1.0f", "f64": "1.0lf",
       "vec2<f32>": "vec2<f32>(1.0f, 0.0f)", "vec2<f64>": "vec2<f64>(1.0lf, 0.0lf)"}
# lowest / highest values: identities of max / min (floats: -inf / +inf)
LOW = {"i32": "bitcast<i32>(0x80000000u)", "u32": "0u",
       "i64": "bitcast<i64>(0x8000000000000000lu)", "u64": "0lu",
       "f32": "bitcast<f32>(0xff800000u)", "f64": "bitcast<f64>(0xfff0000000000000lu)"}
HIGH = {"i32": "bitcast<i32>(0x7fffffffu)", "u32": "0xffffffffu",
        "i64": "bitcast<i64>(0x7ffffffffffffffflu)", "u64": "0xfffffffffffffffflu",
        "f32": "bitcast<f32>(0x7f800000u)", "f64": "bitcast<f64>(0x7ff0000000000000lu)"}
INF = {"f32": "bitcast<f32>(0x7f800000u)", "f64": "bitcast<f64>(0x7ff0000000000000lu)"}
QNAN = {"f32": "bitcast<f32>(0x7fc00000u)", "f64": "bitcast<f64>(0x7ff8000000000000lu)"}
# NaN tests by bit pattern (naga lowers != to an ordered compare: x != x is false for NaN)
ISNAN = {
    "f32": "fn isnan_(x: f32) -> bool { return (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u; }",
    "f64": "fn isnan_(x: f64) -> bool {\n"
           "  return (bitcast<u64>(x) & 0x7ffffffffffffffflu) > 0x7ff0000000000000lu;\n}",
}


def acc_wtype(dtype):
    """WType whose ``val`` accumulates ``dtype`` (float16 in f32)."""
    return WTYPES[dt.float32] if dtype is dt.float16 else WTYPES[dtype]


def supported(caps, *dtypes) -> bool:
    """True if the adapter has every feature the kernels need for ``dtypes`` (float64 also
    needs shader-int64: NaN tests read the bits)."""
    for d in dtypes:
        need = WTYPES[d].need
        if need == "shader-f64" and not (caps.f64 and caps.int64):
            return False
        if need == "shader-int64" and not caps.int64:
            return False
    return True


@dataclasses.dataclass(frozen=True)
class Row:
    """One reduction. Snippets name the types A / F / I / X and the helpers ``isnan_``,
    ``cmul``; ``fold`` sees ``s`` (state), ``x`` (element as X) and ``i`` (its global index,
    I); ``comb`` sees ``a``, ``b`` (states; ``a`` holds the earlier elements where order
    matters); ``post`` sees ``s`` and ``dv`` (the divisor: the element count for mean,
    count - correction for var / std, as F or A's real type) and returns R."""

    name: str
    fields: tuple          # ((name, type letter), ...)
    ident: str             # St(...) arguments
    fold: str              # body returning a St
    comb: str              # body returning a St
    post: str              # body returning an R
    x: str = "A"           # what elements convert to before fold: "A", "F" or "bool"
    result: str = "A"      # R: "A", "F" or "I"
    uses_index: bool = False
    uses_div: bool = False


_ARG_COMB = """var take = false;
  ${nan_rule}
  if (take) { return b; }
  return a;"""

ROWS = {
    "sum": Row("sum", (("v", "A"),), "${zero_A}", "return St(s.v + x);",
               "return St(a.v + b.v);", "return s.v;"),
    "mean": Row("mean", (("v", "A"),), "${zero_A}", "return St(s.v + x);",
                "return St(a.v + b.v);", "return s.v / dv;", uses_div=True),
    "prod": Row("prod", (("v", "A"),), "${one_A}", "return St(cmul(s.v, x));",
                "return St(cmul(a.v, b.v));", "return s.v;"),
    "max": Row("max", (("v", "A"),), "${low_A}", "return St(pick(s.v, x));",
               "return St(pick(a.v, b.v));", "return s.v;"),
    "min": Row("min", (("v", "A"),), "${high_A}", "return St(pick(s.v, x));",
               "return St(pick(a.v, b.v));", "return s.v;"),
    "all": Row("all", (("v", "u32"),), "1u", "return St(s.v & select(0u, 1u, x));",
               "return St(a.v & b.v);", "return s.v;", x="bool", result="u32"),
    "any": Row("any", (("v", "u32"),), "0u", "return St(s.v | select(0u, 1u, x));",
               "return St(a.v | b.v);", "return s.v;", x="bool", result="u32"),
    "count_nonzero": Row("count_nonzero", (("n", "I"),), "${zero_I}",
                         "return St(s.n + select(${zero_I}, ${one_I}, x));",
                         "return St(a.n + b.n);", "return s.n;", x="bool", result="I"),
    "argmax": Row("argmax", (("v", "A"), ("i", "I")), "${low_A}, ${max_I}",
                  "return comb(s, St(x, i));", "${arg_comb}", "return s.i;", result="I",
                  uses_index=True),
    "argmin": Row("argmin", (("v", "A"), ("i", "I")), "${high_A}, ${max_I}",
                  "return comb(s, St(x, i));", "${arg_comb}", "return s.i;", result="I",
                  uses_index=True),
    # Welford per element, Chan et al.'s pairwise merge between states: one pass, stable
    # for large means and small variances (no sum-of-squares cancellation)
    "var": Row("var", (("n", "F"), ("mu", "F"), ("q", "F")), "${zero_F}, ${zero_F}, ${zero_F}",
               """let n = s.n + ${one_F};
  let d = x - s.mu;
  let mu = s.mu + d / n;
  return St(n, mu, s.q + d * (x - mu));""",
               """let n = a.n + b.n;
  if (n == ${zero_F}) { return a; }
  let d = b.mu - a.mu;
  let f = b.n / n;
  return St(n, a.mu + d * f, a.q + b.q + d * d * a.n * f);""",
               """var r = s.q / dv;
  ${sqrt}
  // count - correction <= 0: NumPy divides by 0 (inf; NaN for 0 / 0 or NaN data)
  if (!(dv > ${zero_F})) { r = select(${inf_F}, ${nan_F}, !(s.q > ${zero_F})); }
  return r;""", x="F", result="F", uses_div=True),
}
ROWS["std"] = dataclasses.replace(ROWS["var"], name="std")
OPS = tuple(ROWS)


def row(op: str) -> Row:
    return ROWS[op]


def arg_comb(op: str, a: str) -> str:
    """``comb`` of argmax / argmin: the better value wins, ties (and NaNs, which win) go to
    the smaller index; the identity's index is I's maximum, so any real element beats it."""
    cmp = ">" if op == "argmax" else "<"
    if a in ("f32", "f64"):
        rule = (f"let na = isnan_(a.v);\n  let nb = isnan_(b.v);\n"
                f"  if (na || nb) {{ take = nb && (!na || b.i < a.i); }}\n"
                f"  else {{ take = b.v {cmp} a.v || (b.v == a.v && b.i < a.i); }}")
    else:
        rule = f"take = b.v {cmp} a.v || (b.v == a.v && b.i < a.i);"
    return _ARG_COMB.replace("${nan_rule}", rule)


def pick_fn(op: str, a: str) -> str:
    """``pick(x, y)``: max / min keeping NaN (WGSL max / min are undefined on NaN)."""
    cmp = ">" if op == "max" else "<"
    if a in ("f32", "f64"):
        return (f"fn pick(x: {a}, y: {a}) -> {a} {{\n"
                f"  if (isnan_(x)) {{ return x; }}\n  if (isnan_(y)) {{ return y; }}\n"
                f"  return select(x, y, y {cmp} x);\n}}")
    return f"fn pick(x: {a}, y: {a}) -> {a} {{ return select(x, y, y {cmp} x); }}"


def cmul_fn(a: str) -> str:
    if a.startswith("vec2"):
        return (f"fn cmul(x: {a}, y: {a}) -> {a} {{\n"
                f"  return {a}(x.x * y.x - x.y * y.y, x.x * y.y + x.y * y.x);\n}}")
    return f"fn cmul(x: {a}, y: {a}) -> {a} {{ return x * y; }}"


def result_dtype(op: str, in_dtype, acc_dtype, index_dtype):
    """The numr dtype of ``op``'s result."""
    r = ROWS[op].result
    if op in ("all", "any"):
        return dt.bool_
    if r == "I":
        return index_dtype
    if op in ("sum", "prod"):
        return acc_dtype
    return in_dtype
