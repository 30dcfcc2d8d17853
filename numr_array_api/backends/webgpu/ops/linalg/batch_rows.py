"""solve / inv of stacks of matrices up to 32 x 32: a row of [A | B] per invocation.

BatchTinySpec (one invocation a matrix) stops paying beyond 16 x 16: [A | B] no longer fits
the registers. Here each matrix has ``rpm`` invocations (a power of two >= n), invocation r
holding row r of [A | B] in named registers (straight-line code for this n and k, no
indexed arrays), several matrices a workgroup. LU with partial pivoting without moving
rows: at column j every row not yet a pivot posts |a_rj| to workgroup memory, every
invocation scans the candidates for the largest (a NaN counts as huge, so some row is
always chosen), the chosen row posts itself and remembers its place ``pos = j``, and the
other remaining rows eliminate against it. Back substitution then runs over the pivot
order (the row with pos = s posts its solved row s), and row pos of X is written. Two
barriers a column, one a back-substitution step (its buffer alternates); invocations
past the matrix or the stack take every barrier too (WGSL needs them in uniform control
flow).
"""

from __future__ import annotations

import dataclasses

from ....._core import dtypes as dt
from .....tuning.registry import get as tuned
from ...codegen.layout import Buf, Layout
from ...codegen.spec import KernelSpec
from ...codegen.types import WType
from .scalar import prelude

WG = 64
NMAX = 32


def tiny_n(client, dtype):
    """The largest n of the one-invocation stacked solve (BatchTinySpec) for ``dtype``:
    the warp and segment ranges start or end there."""
    return tuned("BTINY_N_F32" if dtype is dt.float32 else "BTINY_N", client)


def rows_per_matrix(n):
    r = 1
    while r < n:
        r *= 2
    return r


def stack_layout(t, caps, words=()):
    """Bindings and words of the stacked solve kernels (BatchTinySpec, BatchRowsSpec and,
    with its own ``words``, BatchSolveSpec): A and B read, X written, one status word."""
    return Layout([Buf("A", t.arr), Buf("Bm", t.arr), Buf("X", t.arr, "rw"),
                   Buf("st", "atomic<u32>", "rw", offset=False)],
                  list(words) + ["nbat", "a_rs", "a_cs", "a_bs", "b_rs", "b_cs", "b_bs",
                                 "x_rs", "x_cs", "x_bs"], caps)


def _big(t):
    """``big(v)``: v, or a huge value for a NaN, tested on the bits: a compiler that assumes
    no NaNs (NVIDIA's did) folds ``v != v`` to false, and a row whose candidate stays NaN
    is then never chosen, so another row would be chosen twice."""
    if "f64" in t.val:   # (u64: shader-int64, which needs() asks for with f64)
        nan = "let isnan = (bitcast<u64>(v) & 0x7ffffffffffffffflu) > 0x7ff0000000000000lu;"
    else:
        nan = "let isnan = (bitcast<u32>(v) & 0x7fffffffu) > 0x7f800000u;"
    return f"fn big(v: R) -> R {{ {nan} return select(v, R(1e30), isnan); }}"


def load_row(tk, n, k, ident):
    """WGSL lines: row r of A into a0 .. a{n-1} and of B (``ident``: of the identity) into
    x0 .. x{k-1}, in lanes holding a row (``act``); BatchRowsSpec's and the warp kernels'."""
    L = ["  if (act) {"]
    L += [f"    a{c} = A[ab + {c}u * {tk['a_cs']}];" for c in range(n)]
    L += [f"    x{c} = select(zero(), one(), r == {c}u);" if ident else
          f"    x{c} = Bm[bb + {c}u * {tk['b_cs']}];" for c in range(k)]
    L.append("  }")
    return L


@dataclasses.dataclass(frozen=True)
class BatchRowsSpec(KernelSpec):
    t: WType
    n: int
    k: int
    ident: bool   # inv: B is the identity (never read)

    def layout(self, caps):
        return stack_layout(self.t, caps)

    def render(self, caps):
        tk = self.layout(caps).tokens()
        n, k = self.n, self.k
        rpm = rows_per_matrix(n)
        mpw = WG // rpm
        w = n + k   # values of a posted pivot row
        L = [prelude(self.t), tk["layout"], "",
             f"var<workgroup> cand: array<R, {WG}>;",
             f"var<workgroup> prow: array<T, {mpw * w}>;",
             f"var<workgroup> xs: array<T, {2 * mpw * k}>;",
             _big(self.t),
             "",
             f"@compute @workgroup_size({WG})",
             "fn main(@builtin(local_invocation_index) li: u32, "
             "@builtin(workgroup_id) wid: vec3<u32>, "
             "@builtin(num_workgroups) nw: vec3<u32>) {",
             f"  let r = li % {rpm}u;",
             f"  let mi = li / {rpm}u;",
             f"  let b = (wid.x + wid.y * nw.x) * {mpw}u + mi;",
             f"  let act = r < {n}u && b < {tk['nbat']};",
             f"  let cb = mi * {rpm}u;",
             f"  let rb = mi * {w}u;",
             f"  let xb2 = mi * {k}u;",
             f"  let ab = {tk['A_off']} + b * {tk['a_bs']} + r * {tk['a_rs']};",
             f"  let bb = {tk['Bm_off']} + b * {tk['b_bs']} + r * {tk['b_rs']};",
             f"  var pos = {rpm}u;   // the column this row is the pivot of ({rpm}: none yet)"]
        for c in range(n):
            L.append(f"  var a{c} = zero();")
        for c in range(k):
            L.append(f"  var x{c} = zero();")
        L += load_row(tk, n, k, self.ident)
        L.append("  var bad = false;")
        for j in range(n):
            L.append(f"  cand[li] = select(R(-1.0), big(cabs1(a{j})), act && pos == {rpm}u);")
            L.append("  workgroupBarrier();")
            L.append(f"  {{ var best = R(-2.0); var p = 0u;")
            L.append(f"    for (var i = 0u; i < {n}u; i++) {{ let v = cand[cb + i]; "
                     f"if (v > best) {{ best = v; p = i; }} }}")
            L.append("    bad = bad || best == R(0.0);")
            L.append("    if (r == p) {")
            L.append(f"      pos = {j}u;")
            L += [f"      prow[rb + {c}u] = a{c};" for c in range(j, n)]
            L += [f"      prow[rb + {n + c}u] = x{c};" for c in range(k)]
            L.append("    }")
            L.append("    workgroupBarrier();")
            L.append(f"    if (pos == {rpm}u) {{")
            L.append(f"      let l = dv(a{j}, prow[rb + {j}u]); a{j} = l;")
            for c in range(j + 1, n):
                L.append(f"      a{c} = a{c} - mul(l, prow[rb + {c}u]);")
            for c in range(k):
                L.append(f"      x{c} = x{c} - mul(l, prow[rb + {n + c}u]);")
            L.append("    }")
            L.append("  }")
        for s_ in reversed(range(n)):
            base = f"{((n - 1 - s_) % 2) * mpw * k}u + xb2"
            L.append(f"  if (pos == {s_}u) {{")
            for c in range(k):
                L.append(f"    x{c} = dv(x{c}, a{s_}); xs[{base} + {c}u] = x{c};")
            L.append("  }")
            L.append("  workgroupBarrier();")
            if s_:
                L.append(f"  if (pos < {s_}u) {{")
                for c in range(k):
                    L.append(f"    x{c} = x{c} - mul(a{s_}, xs[{base} + {c}u]);")
                L.append("  }")
        L.append(f"  if (act && pos < {n}u) {{")
        L.append(f"    let xo = {tk['X_off']} + b * {tk['x_bs']} + pos * {tk['x_rs']};")
        for c in range(k):
            L.append(f"    X[xo + {c}u * {tk['x_cs']}] = x{c};")
        L.append("  }")
        L.append("  if (act && r == 0u && bad) { atomicOr(&st[0], 1u); }")
        L.append("}")
        return "\n".join(L)

    def needs(self):
        return ("f64", "int64") if self.t.need == "shader-f64" else ()
