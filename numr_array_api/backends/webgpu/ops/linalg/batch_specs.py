"""Kernel specs over stacks of small matrices (float32 / float64 / complex64 / complex128):
a row, or a whole matrix, per invocation, several matrices a workgroup.

BatchSolveSpec  solve / inv, a row of [A | B] per invocation in registers.
BatchCholSpec   cholesky, a row per invocation in registers (straight-line code).
BatchTinySpec   solve / inv of n, k <= 8, a whole matrix per invocation in named registers.
LUDiagSpec      det / sign of det from the LU diagonal and the pivots' parity, a thread per
                matrix.

The WGSL of the first two and of LUDiagSpec is in wgsl/ (batch_solve.wgsl,
lu_diag.wgsl); the straight-line kernels are generated here for their n and k.
"""

from __future__ import annotations

import dataclasses

from ...codegen.layout import Buf, Layout
from ...codegen.spec import KernelSpec
from ...codegen.types import WType
from .batch_rows import stack_layout
from .scalar import prelude
from .wgsl import kernel

__all__ = ["BatchCholSpec", "BatchSolveSpec", "BatchTinySpec", "LUDiagSpec"]


@dataclasses.dataclass(frozen=True)
class BatchSolveSpec(KernelSpec):
    """solve / inv of many m x m matrices (m <= nmax, at most ``kcap`` right-hand sides):
    ``nmax`` invocations per matrix, each holding one row of [A | B] in registers,
    wg / nmax matrices per workgroup; LU with partial pivoting applied to the augmented
    rows, then back substitution. The input is only read; X is written."""

    t: WType
    nmax: int
    kcap: int
    wg: int = 64

    def layout(self, caps):
        return stack_layout(self.t, caps, ("m", "kx", "ident"))

    def render(self, caps):
        per = self.wg // self.nmax
        w = self.nmax + self.kcap
        return kernel("batch_solve.wgsl").render(self.layout(caps).tokens(),
                                                 prelude=prelude(self.t), wg=self.wg,
                                                 nmax=self.nmax, kcap=self.kcap, w=w, per=per,
                                                 shw=per * w)

    def needs(self):
        return ("f64",) if self.t.need == "shader-f64" else ()


@dataclasses.dataclass(frozen=True)
class BatchCholSpec(KernelSpec):
    """Cholesky of many m x m matrices (m <= nmax): one invocation per row in registers,
    wg / nmax matrices per workgroup; reads the input in place and writes the factor with
    its zeros (L, or U = L^H when ``upper``) into a contiguous output."""

    t: WType
    nmax: int
    wg: int = 64

    def layout(self, caps):
        return Layout([Buf("A", self.t.arr), Buf("L", self.t.arr, "rw"),
                       Buf("st", "atomic<u32>", "rw", offset=False)],
                      ["m", "nbat", "upper", "a_rs", "a_cs", "a_bs", "l_rs", "l_bs"], caps)

    def render(self, caps):
        return self._render_unrolled(caps)

    def _head(self, tk, shared):
        N, wg = self.nmax, self.wg
        L = [prelude(self.t), tk["layout"], *shared, "", f"@compute @workgroup_size({wg})",
             "fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nw: "
             "vec3<u32>, @builtin(local_invocation_index) tid: u32) {",
             "  let gi = wid.x + wid.y * nw.x;",
             f"  let mat = tid / {N}u;", f"  let i = tid % {N}u;",
             f"  let b = gi * {wg // N}u + mat;", f"  let live = b < {tk['nbat']};",
             f"  let m = {tk['m']};", f"  let so = mat * {N}u;",
             f"  let ab = {tk['A_off']} + b * {tk['a_bs']} + i * {tk['a_rs']};",
             "  var bad = false;"]
        for c in range(N):
            L.append(f"  var r{c} = zero();")
            L.append(f"  if (live && i < m && {c}u < m && {c}u <= i) {{ r{c} = "
                     f"A[ab + {c}u * {tk['a_cs']}]; }}")
        return L

    def _tail(self, tk):
        N = self.nmax
        L = ["  if (live && i < m) {", f"    let ob = {tk['L_off']} + b * {tk['l_bs']};"]
        for c in range(N):
            L.append(f"    if ({c}u < m) {{ let v = select(zero(), r{c}, {c}u <= i); "
                     f"if ({tk['upper']} != 0u) {{ L[ob + {c}u * {tk['l_rs']} + i] = cj(v); }} "
                     f"else {{ L[ob + i * {tk['l_rs']} + {c}u] = v; }} }}")
        L += ["  }", "  if (live && bad) { atomicOr(&st[0], 1u); }", "}"]
        return L

    def _render_unrolled(self, caps):
        """The same algorithm as straight-line code over named registers r0 .. r{nmax-1}
        (no array indexing, so nothing spills to local memory)."""
        tk = self.layout(caps).tokens()
        N, wg = self.nmax, self.wg
        L = self._head(tk, [f"var<workgroup> col: array<T, {wg}>;",
                            f"var<workgroup> dg: array<R, {wg // N}>;"])
        for j in range(N):
            L.append(f"  if ({j}u < m) {{")
            L.append(f"    if (i == {j}u) {{ let d = re(r{j}); if (!(d > R(0.0))) {{ bad = true; }}"
                     f" let s = sqrt(d); r{j} = of_re(s); dg[mat] = s; }}")
            L.append("    workgroupBarrier();")
            L.append(f"    if (i > {j}u && i < m) {{ let l = r{j} / dg[mat]; r{j} = l; "
                     "col[tid] = l; }")
            L.append("    workgroupBarrier();")
            if j + 1 < N:
                L.append(f"    if (i > {j}u && i < m) {{ let l = r{j};")
                for c in range(j + 1, N):
                    L.append(f"      if ({c}u <= i) {{ r{c} = r{c} - mul(l, cj(col[so + {c}u])); }}")
                L.append("    }")
            L.append("  }")
        return "\n".join(L + self._tail(tk))

    def needs(self):
        return ("f64",) if self.t.need == "shader-f64" else ()


@dataclasses.dataclass(frozen=True)
class BatchTinySpec(KernelSpec):
    """solve / inv of many n x n matrices (n, k <= 8) with one invocation per matrix: the
    whole [A | B] in named registers (straight-line code generated for this n and k, no
    array indexing), LU with partial pivoting (row interchanges as selects), then back
    substitution. ``ident``: B is the identity (inv)."""

    t: WType
    n: int
    k: int
    ident: bool

    def layout(self, caps):
        return stack_layout(self.t, caps)

    def render(self, caps):
        tk = self.layout(caps).tokens()
        n, k = self.n, self.k
        L = [prelude(self.t), tk["layout"], "",
             "@compute @workgroup_size(64)",
             "fn main(@builtin(global_invocation_id) gid: vec3<u32>, "
             "@builtin(num_workgroups) nw: vec3<u32>) {",
             "  let b = gid.x + gid.y * nw.x * 64u;",
             f"  if (b >= {tk['nbat']}) {{ return; }}",
             f"  let ab = {tk['A_off']} + b * {tk['a_bs']};",
             f"  let bb = {tk['Bm_off']} + b * {tk['b_bs']};",
             f"  let xb = {tk['X_off']} + b * {tk['x_bs']};"]
        for i in range(n):
            for c in range(n):
                L.append(f"  var a{i}_{c} = A[ab + {i}u * {tk['a_rs']} + {c}u * {tk['a_cs']}];")
            for c in range(k):
                if self.ident:
                    L.append(f"  var x{i}_{c} = {'one()' if i == c else 'zero()'};")
                else:
                    L.append(f"  var x{i}_{c} = Bm[bb + {i}u * {tk['b_rs']} + {c}u * "
                             f"{tk['b_cs']}];")
        L.append("  var bad = false;")
        for j in range(n):
            L.append(f"  {{ var best = cabs1(a{j}_{j}); var p = {j}u;")
            for i in range(j + 1, n):
                L.append(f"    {{ let v = cabs1(a{i}_{j}); let g = v > best; "
                         f"best = select(best, v, g); p = select(p, {i}u, g); }}")
            L.append("    bad = bad || best == R(0.0);")
            cols = [f"a{{r}}_{c}" for c in range(j, n)] + [f"x{{r}}_{c}" for c in range(k)]
            for i in range(j + 1, n):
                L.append(f"    {{ let s = p == {i}u;")
                for cn in cols:
                    aj, ai = cn.format(r=j), cn.format(r=i)
                    L.append(f"      {{ let t = {aj}; {aj} = select({aj}, {ai}, s); "
                             f"{ai} = select({ai}, t, s); }}")
                L.append("    }")
            for i in range(j + 1, n):
                L.append(f"    {{ let l = dv(a{i}_{j}, a{j}_{j}); a{i}_{j} = l;")
                for c in range(j + 1, n):
                    L.append(f"      a{i}_{c} = a{i}_{c} - mul(l, a{j}_{c});")
                for c in range(k):
                    L.append(f"      x{i}_{c} = x{i}_{c} - mul(l, x{j}_{c});")
                L.append("    }")
            L.append("  }")
        for j in reversed(range(n)):
            for c in range(k):
                L.append(f"  x{j}_{c} = dv(x{j}_{c}, a{j}_{j});")
                for i in range(j):
                    L.append(f"  x{i}_{c} = x{i}_{c} - mul(a{i}_{j}, x{j}_{c});")
        for i in range(n):
            for c in range(k):
                L.append(f"  X[xb + {i}u * {tk['x_rs']} + {c}u * {tk['x_cs']}] = x{i}_{c};")
        L.append("  if (bad) { atomicOr(&st[0], 1u); }")
        L.append("}")
        return "\n".join(L)

    def needs(self):
        return ("f64",) if self.t.need == "shader-f64" else ()


@dataclasses.dataclass(frozen=True)
class LUDiagSpec(KernelSpec):
    """det (``sign`` False) or the sign of det (product of the diagonal's phases) from LU."""

    t: WType
    sign: bool

    def layout(self, caps):
        return Layout([Buf("A", self.t.arr), Buf("ipiv", "i32"), Buf("D", self.t.arr, "rw")],
                      ["n", "nbat", "a_ds", "a_bs", "p_bs"], caps)

    def render(self, caps):
        return kernel("lu_diag.wgsl").render(self.layout(caps).tokens(), prelude=prelude(self.t),
                                             elem="phase" if self.sign else "")

    def needs(self):
        return ("f64",) if self.t.need == "shader-f64" else ()
