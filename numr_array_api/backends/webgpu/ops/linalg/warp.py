"""solve / inv / cholesky of stacks of small real matrices: one matrix per subgroup.

Lane i of a subgroup holds row i of [A | B] (solve, inv) or of A (cholesky) in named
registers (straight-line code for the compile-time n and k, no indexed private arrays),
several matrices (subgroups) per workgroup and no workgroup memory or barriers:

* WarpSolveSpec: Gaussian elimination with partial pivoting without moving rows (as
  BatchRowsSpec): at column j every row not yet a pivot offers |a_rj| (a NaN counts as
  1e30, so some row is always chosen), the largest wins (subgroupMax of the value's bits,
  which order like the values for non-negative floats; the first row on ties by
  subgroupBallot), the pivot row is broadcast by subgroupShuffle and the remaining rows
  eliminate against it with register FMAs. Back substitution walks the pivots backwards,
  broadcasting each solved row of X. Status bit 1: an exact zero pivot (singular).
* WarpCholSpec: right-looking Cholesky of the lower triangle: lane j takes the square
  root of its diagonal, the column is scaled by it, and the trailing rows are updated
  with column entries broadcast by subgroupShuffle. Status bit 1: a diagonal that is not
  positive (or NaN). Output as BatchCholSpec (L, or U = L^H when ``upper``, zeros filled).

The kernels are compiled for one subgroup size ``sg`` (n <= sg). WebGPU does not promise
a size, so the shader checks the ``subgroup_size`` builtin (and that the workgroup splits
into wg / sg subgroups): on a mismatch it sets status bit 2 and does nothing else; the
host (mixin.py) sees that bit in the call's one status read, turns the path off for the
client and reruns the call on the workgroup kernels.

float64: values are shuffled as f64, the pivot keys reduced as two u32 (no 64-bit integer
subgroup operation); needs shader-f64 and shader-int64 (the keys' bits).
"""

from __future__ import annotations

import dataclasses

from ....._core import dtypes as dt
from .....tuning.registry import get as tuned
from ...codegen.caps import Caps
from ...codegen.layout import Buf, Layout
from ...codegen.spec import KernelSpec
from ...codegen.types import WTYPES, WType
from ...codegen.wgmem import spec_fits
from . import warp_seg
from .batch_rows import load_row, stack_layout, tiny_n
from .scalar import prelude

WRONG_SUBGROUP = 2   # status bit: the subgroup size was not the compiled one
NMAX = 32            # registers: rows of [A | B] beyond 32 + 32 values are not attempted
KMAX = 32

# launches recorded per kind ("solve", "inv", "chol"): the tests check the path ran
# seg: solve / inv on segments (seg_staged: through workgroup memory); chol_staged:
# cholesky through workgroup memory
LAUNCHES = {"solve": 0, "inv": 0, "chol": 0, "seg": 0, "chol_staged": 0, "seg_staged": 0}


# ---- WGSL helpers -------------------------------------------------------------------------

def _helpers(t):
    """``shf(v, lane)``: subgroupShuffle of a T (f64 as itself: Vulkan's subgroup operations
    take 64-bit floats without the extended-types feature that 64-bit integers need);
    ``key(v)``: the bits of |v| as a u32 (32-bit) or vec2<u32> (hi, lo) (64-bit, through
    u64: shader-int64), NaN mapped to 1e30's bits (tested on the bits: NVIDIA's compiler
    may fold v != v to false). Only u32 subgroup reductions are used."""
    if t.val == "f64":
        return """fn shf(v: T, l: u32) -> T { return subgroupShuffle(v, l); }
fn key(v: T) -> vec2<u32> {
  let w = bitcast<u64>(abs(v)) & 0x7ffffffffffffffflu;
  let k = select(w, bitcast<u64>(T(1e30)), w > 0x7ff0000000000000lu);
  return vec2<u32>(u32(k >> 32u), u32(k & 0xfffffffflu));
}"""
    return """fn shf(v: T, l: u32) -> T { return subgroupShuffle(v, l); }
fn key(v: T) -> u32 {
  let b = bitcast<u32>(abs(v)) & 0x7fffffffu;
  return select(b, bitcast<u32>(T(1e30)), b > 0x7f800000u);
}"""


def _pivot(t, j, cand_expr):
    """Lines choosing the pivot lane ``p{j}`` of column j among the lanes where
    ``cand_expr`` holds (the largest key, the first lane on ties); ``bad`` set when the
    largest is zero. Every lane runs them (uniform control flow)."""
    if t.val == "f64":
        return [f"  let c{j} = {cand_expr};",
                f"  let k{j} = select(vec2<u32>(0u, 0u), key(a{j}), c{j});",
                f"  let mh{j} = subgroupMax(k{j}.x);",
                f"  let ch{j} = c{j} && k{j}.x == mh{j};",
                f"  let ml{j} = subgroupMax(select(0u, k{j}.y, ch{j}));",
                f"  let p{j} = firstTrailingBit(subgroupBallot(ch{j} && k{j}.y == ml{j}).x);",
                f"  bad = bad || (mh{j} == 0u && ml{j} == 0u);"]
    return [f"  let c{j} = {cand_expr};",
            f"  let k{j} = select(0u, key(a{j}), c{j});",
            f"  let mk{j} = subgroupMax(k{j});",
            f"  let p{j} = firstTrailingBit(subgroupBallot(c{j} && k{j} == mk{j}).x);",
            f"  bad = bad || mk{j} == 0u;"]


def _masked(cond, assigns, pre=(), indent="  "):
    """Lines assigning ``var = expr`` for the (var, expr) pairs in lanes where ``cond``
    holds (``pre``: let-lines the expressions read), as selects: straight-line code the
    compiler may interleave across columns."""
    return [indent + p for p in pre] + \
        [f"{indent}{v} = select({v}, {e}, {cond});" for v, e in assigns]


def _head(tk, sg, wg, w=0, stage=0):
    """``w`` < sg: segments of w lanes (warp_seg.head), else a subgroup a matrix;
    ``stage`` (segments only): n of the matrices staged through a workgroup tile
    (warp_seg.staged_head: no early return)."""
    per = wg // sg
    seg = 0 < w < sg
    L = [f"var<workgroup> tile: array<T, {warp_seg.tile_words(sg, wg, w, stage)}>;"] \
        if stage else []
    L += [f"@compute @workgroup_size({wg})",
          "fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nw: "
          "vec3<u32>, @builtin(local_invocation_index) li: u32, @builtin(subgroup_size) "
          f"sgs: u32, @builtin(subgroup_invocation_id) {'sl' if seg else 'r'}: u32, "
          "@builtin(subgroup_id) sid: u32, @builtin(num_subgroups) nsg: u32) {"]
    if stage:
        return L + [f"  if (sgs != {sg}u || nsg != {per}u) {{ atomicOr(&st[0], "
                    f"{WRONG_SUBGROUP}u); }}"] + warp_seg.staged_head(tk, sg, per, w, stage)
    L += [f"  if (sgs != {sg}u || nsg != {per}u) {{",
          f"    atomicOr(&st[0], {WRONG_SUBGROUP}u);",
          "    return;",
          "  }"]
    if seg:
        return L + warp_seg.head(tk, sg, per, w)
    return L + [f"  let b = (wid.x + wid.y * nw.x) * {per}u + sid;",
                f"  if (b >= {tk['nbat']}) {{ return; }}   // the whole subgroup"]


class _WarpNeeds:
    """needs() of the warp kernels: subgroups, and for float64 shader-f64 and shader-int64
    (the pivot search compares the bits of |a| as u64 halves)."""

    def needs(self):
        return ("subgroup", "f64", "int64") if self.t.need == "shader-f64" else ("subgroup",)


@dataclasses.dataclass(frozen=True)
class WarpSolveSpec(_WarpNeeds, KernelSpec):
    """x = A^-1 B for n x n matrices (n <= sg), k right-hand sides, a subgroup a matrix
    (elimination with partial pivoting, then back substitution); ``ident``: B is the
    identity (inv, k = n, never read), inverted in place by Gauss-Jordan."""

    t: WType
    n: int
    k: int
    ident: bool
    sg: int
    wg: int
    w: int = 0         # lanes a matrix (warp_seg.py) when below sg; 0: sg
    # segments only: A (and X where k = n) through a workgroup tile (warp_seg.stage_in)
    stage: bool = False

    def layout(self, caps):
        return stack_layout(self.t, caps)

    @property
    def _staged(self):
        return self.stage and self._seg

    @property
    def _seg(self):
        return 0 < self.w < self.sg

    def _start(self, tk, more=()):
        """The lines up to the loads: head, ``act`` (a row of a matrix in the stack),
        ``ab`` (``more``: further addresses) and ``pos``."""
        n, sg = self.n, self.sg
        return _head(tk, sg, self.wg, self.w, n if self._staged else 0) + [
            f"  let act = r < {n}u{' && live' if self._seg else ''};",
            f"  let ab = {tk['A_off']} + b * {tk['a_bs']} + r * {tk['a_rs']};", *more,
            f"  var pos = select({sg + 2}u, {sg + 1}u, act);"]

    def _pivot(self, j, cand):
        if self._seg:
            return warp_seg.pivot(self.t, j, cand, self.w, self.sg)
        return _pivot(self.t, j, cand)

    def _src(self, j):
        """The lane holding pivot row j."""
        return f"pl{j}" if self._seg else f"p{j}"

    def _store(self, tk, cols, vals, staged):
        """Lines writing row ``pos`` of X: ``vals`` at the columns ``cols`` (WGSL
        expressions), through the tile when ``staged`` (warp_seg.stage_out)."""
        n = self.n
        if staged:
            return warp_seg.stage_out(tk, self.sg, self.w, n, [
                f"    tile[tm + pos * {n + 1}u + {c}] = {v};" for c, v in zip(cols, vals)])
        return (["  if (act) {",
                 f"    let xo = {tk['X_off']} + b * {tk['x_bs']} + pos * {tk['x_rs']};"]
                + [f"    X[xo + {c} * {tk['x_cs']}] = {v};" for c, v in zip(cols, vals)]
                + ["  }"])

    def _report(self):
        live = " && live" if self._seg else ""
        return f"  if (r == 0u && bad{live}) {{ atomicOr(&st[0], 1u); }}"

    def render(self, caps):
        if self.ident:
            return self._render_gj(caps)
        tk = self.layout(caps).tokens()
        n, k, sg = self.n, self.k, self.sg
        none = sg + 1   # pos of a row not yet a pivot; idle lanes (r >= n): sg + 2
        L = [prelude(self.t), tk["layout"], _helpers(self.t), ""]
        L += self._start(tk, [f"  let bb = {tk['Bm_off']} + b * {tk['b_bs']} + r * {tk['b_rs']};"])
        L += [f"  var a{c} = zero();" for c in range(n)]
        L += [f"  var x{c} = zero();" for c in range(k)]
        if self._staged:
            L += warp_seg.stage_in(tk, sg, self.w, n)
            L += load_row(tk, 0, k, False)
        else:
            L += load_row(tk, n, k, False)
        L.append("  var bad = false;")
        for j in range(n):
            L += self._pivot(j, f"pos == {none}u")
            L.append(f"  if (r == p{j}) {{ pos = {j}u; }}")
            if j == n - 1:
                break   # no row left to eliminate
            # the pivot row's remaining values, broadcast (every lane shuffles)
            L += [f"  let q{j}_{c} = shf(a{c}, {self._src(j)});" for c in range(j, n)]
            L += [f"  let y{j}_{c} = shf(x{c}, {self._src(j)});" for c in range(k)]
            L.append("  {")
            L += _masked(f"pos == {none}u",
                         [(f"a{j}", "l")] + [(f"a{c}", f"a{c} - mul(l, q{j}_{c})")
                                              for c in range(j + 1, n)]
                         + [(f"x{c}", f"x{c} - mul(l, y{j}_{c})") for c in range(k)],
                         [f"let l = dv(a{j}, q{j}_{j});"], "    ")
            L.append("  }")
        for s in reversed(range(n)):
            L += _masked(f"pos == {s}u", [(f"x{c}", f"dv(x{c}, a{s})") for c in range(k)])
            if s:
                L += [f"  let z{s}_{c} = shf(x{c}, {self._src(s)});" for c in range(k)]
                L += _masked(f"pos < {s}u", [(f"x{c}", f"x{c} - mul(a{s}, z{s}_{c})")
                                             for c in range(k)])
        L += self._store(tk, [f"{c}u" for c in range(k)], [f"x{c}" for c in range(k)],
                         self._staged and k == n)
        L.append(self._report())
        L.append("}")
        return "\n".join(L)

    def _render_gj(self, caps):
        """inv by in-place Gauss-Jordan with partial pivoting, rows left in their lanes:
        step j eliminates column j from every other row against the pivot row (lane p_j),
        so the lanes end holding M = (PA)^-1 (lane p_j: row j) and A^-1 = M P, i.e.
        A^-1[j, p_c] = M[j, c]. n broadcasts a step (the whole pivot row) and n values a
        lane, against 2n - j + n (elimination on [A | I], then back substitution) and 2n
        for the LU form; the same pivots and zero-pivot test."""
        tk = self.layout(caps).tokens()
        n, sg = self.n, self.sg
        none = sg + 1
        L = [prelude(self.t), tk["layout"], _helpers(self.t), ""]
        L += self._start(tk)
        L += [f"  var a{c} = zero();" for c in range(n)]
        L += warp_seg.stage_in(tk, sg, self.w, n) if self._staged else \
            load_row(tk, n, 0, False)
        L.append("  var bad = false;")
        for j in range(n):
            L += self._pivot(j, f"pos == {none}u")
            L.append(f"  if (r == p{j}) {{ pos = {j}u; }}")
            L += [f"  let q{j}_{c} = shf(a{c}, {self._src(j)});" for c in range(n)]
            # the scaled pivot row s (the same in every lane): the pivot lane takes it,
            # the others subtract l s (idle lanes too: nothing reads them)
            L.append(f"  {{ let ip = dv(one(), q{j}_{j});")
            L += [f"    let s{c} = mul(q{j}_{c}, ip);" for c in range(n) if c != j]
            L.append(f"    let l = a{j};")
            L.append(f"    let pv = r == p{j};")
            L += [f"    a{c} = select(a{c} - mul(l, s{c}), s{c}, pv);"
                  for c in range(n) if c != j]
            L.append(f"    a{j} = select(-mul(l, ip), ip, pv);")
            L.append("  }")
        L += self._store(tk, [f"p{c}" for c in range(n)], [f"a{c}" for c in range(n)],
                         self._staged)
        L.append(self._report())
        L.append("}")
        return "\n".join(L)


@dataclasses.dataclass(frozen=True)
class WarpCholSpec(_WarpNeeds, KernelSpec):
    """Cholesky of n x n matrices (n <= sg), a subgroup a matrix; bindings and words as
    BatchCholSpec's (``m`` unused: n is compiled in)."""

    t: WType
    n: int
    sg: int
    wg: int
    # the matrix goes through workgroup memory on the way in and out: lane l moves
    # column l of every row (consecutive addresses across the subgroup) where lane r
    # reading its own row r touches n lines a load (H100, 2026-11-27:
    # see chol_stage)
    stage: bool = False

    def layout(self, caps):
        return Layout([Buf("A", self.t.arr), Buf("L", self.t.arr, "rw"),
                       Buf("st", "atomic<u32>", "rw", offset=False)],
                      ["m", "nbat", "upper", "a_rs", "a_cs", "a_bs", "l_rs", "l_bs"], caps)

    def render(self, caps):
        tk = self.layout(caps).tokens()
        n, sg = self.n, self.sg
        L = [prelude(self.t), tk["layout"], _helpers(self.t), ""]
        if self.stage:
            L += _staged_head(tk, sg, self.wg, n)
            L += [f"  let act = r < {n}u && live;", "  var bad = false;"]
            L += [f"  var a{c} = zero();" for c in range(n)]
            # in: lane l takes column l of row c (the lower triangle), then its own row
            L.append(f"  let ab = {tk['A_off']} + b * {tk['a_bs']};")
            for c in range(n):
                L.append(f"  if (act && r <= {c}u) {{ tile[tb + {c * (n + 1)}u + r] = "
                         f"A[ab + {c}u * {tk['a_rs']} + r * {tk['a_cs']}]; }}")
            L.append("  workgroupBarrier();")
            L += [f"  if (act && {c}u <= r) {{ a{c} = tile[tb + r * {n + 1}u + {c}u]; }}"
                  for c in range(n)]
        else:
            L += _head(tk, sg, self.wg)
            L += [f"  let act = r < {n}u;",
                  f"  let ab = {tk['A_off']} + b * {tk['a_bs']} + r * {tk['a_rs']};",
                  "  var bad = false;"]
            for c in range(n):
                L.append(f"  var a{c} = zero();")
                L.append(f"  if (act && {c}u <= r) {{ a{c} = A[ab + {c}u * {tk['a_cs']}]; }}")
        for j in range(n):
            L.append(f"  {{ let d = re(a{j}); bad = bad || (r == {j}u && !(d > R(0.0))); "
                     f"a{j} = select(a{j}, of_re(sqrt(d)), r == {j}u); }}")
            if j == n - 1:
                break   # no row below the last
            L.append(f"  let d{j} = shf(a{j}, {j}u);")
            L += _masked(f"r > {j}u && act", [(f"a{j}", f"a{j} / d{j}")])
            for c in range(j + 1, n):
                L.append(f"  let v{j}_{c} = shf(a{j}, {c}u);")
            for c in range(j + 1, n):
                L += _masked(f"r >= {c}u && act",
                             [(f"a{c}", f"a{c} - mul(a{j}, cj(v{j}_{c}))")])
        if self.stage:
            # out: row r into the tile, then lane l writes column l of every row (L) or
            # row l conjugated as column l (L^H)
            L.append("  workgroupBarrier();")
            L += [f"  if (act) {{ tile[tb + r * {n + 1}u + {c}u] = "
                  f"select(zero(), a{c}, {c}u <= r); }}" for c in range(n)]
            L.append("  workgroupBarrier();")
            L.append("  if (act) {")
            L.append(f"    let ob = {tk['L_off']} + b * {tk['l_bs']};")
            L.append(f"    if ({tk['upper']} != 0u) {{")
            L += [f"      L[ob + {c}u * {tk['l_rs']} + r] = cj(tile[tb + r * {n + 1}u + {c}u]);"
                  for c in range(n)]
            L.append("    } else {")
            L += [f"      L[ob + {c}u * {tk['l_rs']} + r] = tile[tb + {c * (n + 1)}u + r];"
                  for c in range(n)]
            L.append("    }")
            L.append("  }")
        else:
            L.append("  if (act) {")
            L.append(f"    let ob = {tk['L_off']} + b * {tk['l_bs']};")
            for c in range(n):
                L.append(f"    {{ let v = select(zero(), a{c}, {c}u <= r); "
                         f"if ({tk['upper']} != 0u) {{ L[ob + {c}u * {tk['l_rs']} + r] = cj(v); }} "
                         f"else {{ L[ob + r * {tk['l_rs']} + {c}u] = v; }} }}")
            L.append("  }")
        L.append("  if (act && bad) { atomicOr(&st[0], 1u); }")
        L.append("}")
        return "\n".join(L)


def _staged_head(tk, sg, wg, n):
    """The head of a kernel staging its matrices through workgroup memory: no early
    return (its barriers need every invocation), ``live`` instead; ``tb`` the subgroup's
    tile of n x (n + 1) (the pad puts a column's n rows on n banks)."""
    per = wg // sg
    return [f"var<workgroup> tile: array<T, {per * n * (n + 1)}>;",
            f"@compute @workgroup_size({wg})",
            "fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nw: "
            "vec3<u32>, @builtin(subgroup_size) sgs: u32, @builtin(subgroup_invocation_id) "
            "r: u32, @builtin(subgroup_id) sid: u32, @builtin(num_subgroups) nsg: u32) {",
            f"  let ok = sgs == {sg}u && nsg == {per}u;",
            f"  if (!ok) {{ atomicOr(&st[0], {WRONG_SUBGROUP}u); }}",
            f"  let b = (wid.x + wid.y * nw.x) * {per}u + sid;",
            f"  let live = ok && b < {tk['nbat']};",
            f"  let tb = min(sid, {per - 1}u) * {n * (n + 1)}u;"]


# ---- the subgroup size --------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class SubgroupProbeSpec(KernelSpec):
    """min / max of ``subgroup_size`` and of ``num_subgroups`` over a few workgroups of
    ``wg`` invocations (out[0..3]: ~min size, max size, ~min count, max count: the minima
    as the maxima of the complements, the buffer starting at zero)."""

    wg: int = 128

    def layout(self, caps):
        return Layout([Buf("o", "atomic<u32>", "rw", offset=False)], [], caps)

    def render(self, caps):
        tk = self.layout(caps).tokens()
        return f"""{tk['layout']}
@compute @workgroup_size({self.wg})
fn main(@builtin(subgroup_size) sgs: u32, @builtin(num_subgroups) nsg: u32) {{
  atomicMax(&o[0], ~sgs);
  atomicMax(&o[1], sgs);
  atomicMax(&o[2], ~nsg);
  atomicMax(&o[3], nsg);
}}"""

    def needs(self):
        return ("subgroup",)


def _adapter_sizes(client):
    """(min, max) subgroup size from wgpu-native's adapter info, (0, 0) where unknown
    (wgpu-py 0.32 does not pass them on: its GPUAdapterInfo reads misspelt fields, so
    they are read here through its ffi; wgpu-native 29 reports 0 on lavapipe)."""
    try:
        from wgpu.backends.wgpu_native._api import libf
        from wgpu.backends.wgpu_native._ffi import ffi, lib
        ci = ffi.new("WGPUAdapterInfo *")
        if libf.wgpuAdapterGetInfo(client.adapter._internal, ci) != lib.WGPUStatus_Success:
            return 0, 0
        out = int(ci.subgroupMinSize), int(ci.subgroupMaxSize)
        libf.wgpuAdapterInfoFreeMembers(ci[0])
        return out
    except Exception:  # noqa: BLE001 - another wgpu build: probe instead
        return 0, 0


def _probe(client):
    """The subgroup size a 128-invocation compute workgroup ran with, when every
    invocation saw the same one; else 0. One dispatch and one read, once per client."""
    from ...kernels.fill import full
    wg = Caps.of(client).wg_size(128)
    o = full((4,), 0, dt.uint32, client)
    client.kernel(SubgroupProbeSpec(wg)).launch((8, 1, 1), o=o)
    v = [int(x) for x in o.to_numpy()]
    v[0], v[2] = v[0] ^ 0xFFFFFFFF, v[2] ^ 0xFFFFFFFF
    if v[0] != v[1] or v[2] != v[3] or v[0] == 0 or v[0] * v[2] != wg:
        return 0
    return v[0]


def subgroup_size(client):
    """The fixed subgroup size S the warp kernels are compiled for, or 0 (path off):
    BWARP_S where set (a wrong S shows the rerun), else the adapter's, probed once."""
    force = tuned("BWARP_S", client)
    if force:
        return force
    s = getattr(client, "_bwarp_sg", None)
    if s is None:
        s = 0
        if Caps.of(client).subgroup:
            lo, hi = _adapter_sizes(client)
            if lo and lo == hi:
                s = lo
            elif not lo:
                try:
                    s = _probe(client)
                except Exception:  # noqa: BLE001 - a probe that fails leaves the path off
                    s = 0
        client._bwarp_sg = s
    return s


def disable(client):
    """The shader saw another subgroup size: no warp kernel on this client from now on."""
    client._bwarp_off = True


def reset(client):
    """Forget the fallback and the subgroup size (tests)."""
    for a in ("_bwarp_off", "_bwarp_sg"):
        if hasattr(client, a):
            delattr(client, a)


def _usable(client, dtype):
    if not tuned("BWARP", client) or getattr(client, "_bwarp_off", False):
        return 0
    if dtype not in (dt.float32, dt.float64):
        return 0
    caps = Caps.of(client)
    if not caps.subgroup or (dtype is dt.float64 and not (caps.f64 and caps.int64)):
        return 0
    s = subgroup_size(client)
    return s if s > 0 and s <= caps.invocations else 0


def solve_range(client, dtype):
    """(lo, hi, S): the n of (n, n) solve / inv systems the warp kernels take (lo > hi:
    none): BWARP_MIN (0: one past the one-invocation kernel's limit, BTINY_N(_F32)) to
    BWARP_MAX, within 1 .. min(S, 32). Systems with k >= n right-hand sides (inv) start
    at BWARP_INV_MIN while BWARP_MIN is 0 (``solve_sg``)."""
    s = _usable(client, dtype)
    if not s:
        return 1, 0, 0
    lo = tuned("BWARP_MIN", client) or tiny_n(client, dtype) + 1
    hi = min(s, NMAX, tuned("BWARP_MAX", client))
    return lo, hi, s


def chol_range(client, dtype):
    """(lo, hi, S) for cholesky: BWARP_CHOL_MIN .. BWARP_CHOL_MAX (2 .. 32), at most S.
    H100, 2026-11-26 (stacks of small systems, one matrix per subgroup; best of 5 calls
    with the status read): float32 10000 x 32x32 0.539 ms
    against 0.481 for BatchCholSpec (float32 stopped at 16 then), float64 0.501 against
    0.554; 2026-11-27, with the staged loads and stores
    (_stage): float32 0.389 ms against BatchCholSpec's 0.427, kernel 240 -> 114 us."""
    s = _usable(client, dtype)
    if not s:
        return 1, 0, 0
    lo = tuned("BWARP_CHOL_MIN", client)
    hi = min(s, NMAX, tuned("BWARP_CHOL_MAX", client))
    return lo, hi, s


def solve_sg(client, dtype, n, k):
    """S when the warp kernel takes (n, n) systems with k right-hand sides, else 0 (sizes
    no S could take are refused before the subgroup size is probed)."""
    if not (1 <= n <= NMAX and 1 <= k <= KMAX):
        return 0
    lo, hi, s = solve_range(client, dtype)
    if k >= n and not tuned("BWARP_MIN", client):
        # as many right-hand sides as rows (inv): the one-invocation kernel holds 2 n^2
        # values in one thread's registers; H100 (2026-11-27),
        # numr / CuPy with the status read: inv 100000 x 8x8 float32 2.86x -> 1.5-2.1x,
        # float64 1.47x -> 1.2x, 10000 x 16x16 float32 6.37x -> 1.63x (solve with one
        # right-hand side: no gain)
        lo = min(lo, tuned("BWARP_INV_MIN", client))
    if s and (lo <= n <= hi or warp_seg.seg_width(client, dtype, n, s)):
        return s
    return 0


def solve_width(client, dtype, n, s):
    """Lanes a matrix for (n, n) systems that solve_sg gave to subgroups of s: a segment
    (warp_seg.py) where that path takes n, else the whole subgroup."""
    return warp_seg.seg_width(client, dtype, n, s) or s


def chol_sg(client, dtype, n):
    if not 1 <= n <= NMAX:
        return 0
    lo, hi, s = chol_range(client, dtype)
    return s if lo <= n <= hi else 0


def _wg(client, s):
    """Invocations a workgroup: BWARP_WG, at least S."""
    want = tuned("BWARP_WG", client)
    return max(s, Caps.of(client).wg_size(max(want, s)))


def _grid(client, nwg):
    mg = client.max_groups
    gx = max(1, min(nwg, mg))
    return gx, max(1, -(-nwg // gx)), 1


def solve(t, a, b, x, status, s):
    """x (B, n, k) <- a^-1 b (b None: a^-1, by Gauss-Jordan) for the (B, n, n) view ``a``,
    one dispatch."""
    client = x.client
    B, n, k = x.shape
    wg = _wg(client, s)
    bv = a if b is None else b
    LAUNCHES["inv" if b is None else "solve"] += 1
    w = solve_width(client, x.dtype, n, s)
    LAUNCHES["seg"] += w < s
    spec = WarpSolveSpec(t, n, k, b is None, s, wg, w if w < s else 0)
    if w < s and _solve_stage(client, n, k):
        spec = _fitting(client, dataclasses.replace(spec, stage=True)) or spec
    wg = spec.wg
    LAUNCHES["seg_staged"] += spec.stage
    client.kernel(spec).launch(
        _grid(client, -(-B // (wg // w))), A=a, Bm=bv, X=x, st=status, nbat=B,
        a_rs=a.strides[1], a_cs=a.strides[2], a_bs=a.strides[0], b_rs=bv.strides[1],
        b_cs=bv.strides[2], b_bs=bv.strides[0], x_rs=x.strides[1], x_cs=x.strides[2],
        x_bs=x.strides[0])


def _stage(client, dtype, n):
    """Whether the warp Cholesky of n x n matrices stages them through workgroup memory:
    float32 from BWARP_STAGE_MIN rows (0: never; CPU adapters: never, their caches hold
    a matrix's rows). H100, 2026-11-27 (kernel times, 10000
    matrices): float32 32 x 32 240 -> 114 us, 16 x 16 0.189 -> 0.162 ms a call; float64
    32 x 32 took 439 us staged, no better than the direct loads' whole call (0.48-0.65 ms
    against 0.59-0.63): not staged."""
    m = tuned("BWARP_STAGE_MIN", client)
    return dtype is dt.float32 and bool(m) and n >= m


def _solve_stage(client, n, k):
    """Whether solve / inv on segments stage A (and X where k = n) through workgroup
    memory (warp_seg.stage_in): k = n from BWARP_SSTAGE_MIN rows (0: never; CPU adapters:
    never). H100, 2026-11-28 (kernel times direct -> staged):
    inv 100000 x 8x8 float32 39.0 -> 34.0 us, float64 74.1 -> 62.8, 10000 x 16x16 float32
    36.6 -> 20.5; inv 4 x 4 11.0 -> 11.9 and solve with one right-hand side no better
    (float32 24.7 -> 24.4, float64 53.1 -> 61.1): its X is no tile."""
    m = tuned("BWARP_SSTAGE_MIN", client)
    return k == n and bool(m) and n >= m


_FITS = {}


def _fitting(client, spec):
    """``spec`` with its workgroup halved (down to one subgroup) until its tiles fit the
    adapter's workgroup memory; None where not even one does."""
    caps = Caps.of(client)
    while True:
        key = (spec, caps)
        if key not in _FITS:
            _FITS[key] = spec_fits(spec, caps)
        if _FITS[key]:
            return spec
        if spec.wg <= spec.sg:
            return None
        spec = dataclasses.replace(spec, wg=spec.wg // 2)


def cholesky(t, a, out, status, upper, s):
    client = out.client
    B, n, _ = out.shape
    spec = WarpCholSpec(t, n, s, _wg(client, s))
    if _stage(client, out.dtype, n):
        spec = _fitting(client, dataclasses.replace(spec, stage=True)) or spec
    wg = spec.wg
    LAUNCHES["chol"] += 1
    LAUNCHES["chol_staged"] += spec.stage
    client.kernel(spec).launch(
        _grid(client, -(-B // (wg // s))), A=a, L=out, st=status, m=n, nbat=B,
        upper=int(upper), a_rs=a.strides[1], a_cs=a.strides[2], a_bs=a.strides[0],
        l_rs=out.strides[1], l_bs=out.strides[0])


def variants():
    out = [SubgroupProbeSpec(128)]
    for d in (dt.float32, dt.float64):
        t = WTYPES[d]
        for s, wg in ((8, 64), (16, 128), (32, 128)):
            for n in sorted({2, 3, s // 2 + 1, s}):
                out += [WarpSolveSpec(t, n, 1, False, s, wg),
                        WarpSolveSpec(t, n, n, True, s, wg),
                        WarpSolveSpec(t, n, 3, False, s, wg),
                        WarpCholSpec(t, n, s, wg),
                        WarpCholSpec(t, n, s, wg, True)]
            for n in (1, 2, 3, 4, 5, 8, 9):   # segments (warp_seg.py)
                w = warp_seg.width(n)
                if w < s:
                    out += [WarpSolveSpec(t, n, k, ident, s, wg, w, stage)
                            for k, ident in ((1, False), (3, False), (n, False), (n, True))
                            for stage in (False, True)]
    return out
