"""Kernel specs of the factorisations (float32 / float64 / complex64 / complex128).

FactorSpec   one workgroup per matrix (or per panel): Cholesky, LU with partial pivoting,
             Householder QR, right-looking, in place. ``nmax > 0``: the whole matrix
             (at most nmax x nmax) lives in workgroup memory (the many-small-matrices
             path); ``nmax == 0``: it works on global memory (the panel of a blocked
             factorisation, any number of rows, at most ``PANEL`` (QR: ``QR_PANEL``)
             columns).
LarftSpec    the triangular factor T of a panel's block reflector I - V T V^H (compact
             WY), so the trailing update and the forming of Q are GEMMs.
TrsmSpec     triangular solves of many vectors against one small triangle, a thread each.
SwapSpec     the row interchanges of LU applied to columns outside the panel (and to B).
LUDiagSpec   det / sign of det from the LU diagonal and the pivots' parity, a thread per
             matrix.
BatchSolveSpec / BatchCholSpec  stacks of small solve / inv / cholesky, a row per
             invocation in registers, several matrices per workgroup.
CholPanelSpec  one blocked-Cholesky step (diagonal block + the rows below) per dispatch.
LUPanelSpec  LU of a panel of up to 64 columns in one workgroup (16-column blocks).
PermSpec     LU interchanges as one permutation (replayed in workgroup memory).
NegCopySpec  the GEMM update's operands -A and B as copies, one dispatch.
QrVSpec / QrTSpec  explicit V, V^H of a QR panel; T and the update operands.

Every kernel that can meet a singular / non-positive-definite matrix ors a bit into one
status word, read once per call by the caller.
"""

from __future__ import annotations

import dataclasses

from ....._core import dtypes as dt
from ...codegen.layout import Buf, Layout
from ...codegen.spec import KernelSpec
from ...codegen.template import Template
from ...codegen.types import WTYPES, WType
from .batch_rows import stack_layout
from .scalar import prelude

PANEL = 64     # widest panel of the global-memory Cholesky kernel (blocked algorithm)
QR_PANEL = 32  # widest QR panel: 8 row slices per column in a 256-thread workgroup

_FACTOR = Template("""${prelude}
${layout}
${shared}
var<private> base: u32;
${access}

@compute @workgroup_size(${wg})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>,
        @builtin(local_invocation_index) tid: u32) {
  let b = wid.x + wid.y * nw.x;
  if (b >= ${nbat}) { return; }
  base = ${A_off} + b * ${a_bs};
  let m = ${m};
  let nc = ${nc};
${load}
${body}
${save}
${tail}
}
""", "linalg_factor")

_BAR = "storageBarrier(); workgroupBarrier();"

# The Cholesky factor L (lower) overwrites the lower triangle; the upper one is left as is.
_CHOL = """
  for (var j = 0u; j < m; j++) {
    if (tid == 0u) {
      let d = re(ld(j, j));
      if (!(d > R(0.0))) { atomicOr(&st[0], 1u); }
      let s = sqrt(d);
      st_(j, j, of_re(s));
      shr = s;
    }
    BAR
    let s = shr;
    for (var i = j + 1u + tid; i < m; i += WGu) { st_(i, j, ld(i, j) / s); }
    BAR
    let r = m - j - 1u;
    for (var e = tid; e < r * r; e += WGu) {
      let p = j + 1u + e / r;
      let q = j + 1u + e % r;
      if (q <= p) { st_(p, q, ld(p, q) - mul(ld(p, j), cj(ld(q, j)))); }
    }
    BAR
  }
"""

# LU of an m x nc panel: pivot = first entry of largest |re| + |im| (LAPACK's choice);
# a zero pivot column is left unscaled and flags the matrix singular.
_PIVOT_TREE = """
    var best = R(-1.0);
    var bi = j;
    for (var i = j + tid; i < m; i += WGu) {
      let v = cabs1(ld(i, j));
      if (v > best) { best = v; bi = i; }
    }
    rv[tid] = best;
    ri[tid] = bi;
    workgroupBarrier();
    for (var s = WGu / 2u; s > 0u; s >>= 1u) {
      if (tid < s) {
        let ov = rv[tid + s];
        let oi = ri[tid + s];
        if (ov > rv[tid] || (ov == rv[tid] && oi < ri[tid])) { rv[tid] = ov; ri[tid] = oi; }
      }
      workgroupBarrier();
    }
"""

# in workgroup memory (at most 32 rows) one thread scans the column: one barrier, not a
# tree of them
_PIVOT_SCAN = """
    if (tid == 0u) {
      var best = R(-1.0);
      var bi = j;
      for (var i = j; i < m; i++) {
        let v = cabs1(ld(i, j));
        if (v > best) { best = v; bi = i; }
      }
      rv[0] = best;
      ri[0] = bi;
    }
    workgroupBarrier();
"""

_LU = """
  let kmax = min(m, nc);
  for (var j = 0u; j < kmax; j++) {
PIVOT_SEARCH    let pv = rv[0];
    let p = ri[0];
    if (tid == 0u) {
      ipiv[${ipiv_off} + b * ${p_bs} + j] = i32(${pbase} + p);
      if (pv == R(0.0)) { atomicOr(&st[0], 1u); }
      RECORD
    }
    if (p != j) {
      for (var c = tid; c < nc; c += WGu) {
        let t = ld(j, c);
        st_(j, c, ld(p, c));
        st_(p, c, t);
      }
    }
    BAR
    let d = ld(j, j);
    if (pv != R(0.0)) {
      for (var i = j + 1u + tid; i < m; i += WGu) { st_(i, j, dv(ld(i, j), d)); }
    }
    BAR
    let r = m - j - 1u;
    let c2 = nc - j - 1u;
    for (var e = tid; e < r * c2; e += WGu) {
      let p2 = j + 1u + e / c2;
      let q = j + 1u + e % c2;
      st_(p2, q, ld(p2, q) - mul(ld(p2, j), ld(j, q)));
    }
    BAR
  }
"""

# Householder QR of an m x nc panel (LAPACK's geqr2 conventions: beta real, v_0 = 1 not
# stored, tau with H = I - tau v v^H); the column norm is scaled by its largest component
# so squares neither overflow nor flush to zero.
_NORM_TREE = """
    var mx = R(0.0);
    for (var i = j + tid; i < m; i += WGu) { mx = max(mx, maxabs(ld(i, j))); }
    red[tid] = mx;
    workgroupBarrier();
    for (var s = WGu / 2u; s > 0u; s >>= 1u) {
      if (tid < s) { red[tid] = max(red[tid], red[tid + s]); }
      workgroupBarrier();
    }
    let scale = red[0];
    workgroupBarrier();
    var ss = R(0.0);
    if (scale > R(0.0)) {
      for (var i = j + 1u + tid; i < m; i += WGu) { ss += absq(ld(i, j) / scale); }
    }
    red[tid] = ss;
    workgroupBarrier();
    for (var s = WGu / 2u; s > 0u; s >>= 1u) {
      if (tid < s) { red[tid] = red[tid] + red[tid + s]; }
      workgroupBarrier();
    }
    let xn = red[0];
"""

_NORM_SCAN = """
    if (tid == 0u) {
      var mx = R(0.0);
      for (var i = j; i < m; i++) { mx = max(mx, maxabs(ld(i, j))); }
      var ss = R(0.0);
      if (mx > R(0.0)) {
        for (var i = j + 1u; i < m; i++) { ss += absq(ld(i, j) / mx); }
      }
      red[0] = mx;
      red[1] = ss;
    }
    workgroupBarrier();
    let scale = red[0];
    let xn = red[1];
"""

_QR = """
  let kmax = min(m, nc);
  for (var j = 0u; j < kmax; j++) {
COLUMN_NORM    let alpha = ld(j, j);
    var tau = zero();
    var beta = re(alpha);
    var piv = one();
    let house = !(xn == R(0.0) && im(alpha) == R(0.0));
    if (house) {
      let a = alpha / scale;
      let nrm = scale * sqrt(absq(a) + xn);
      beta = select(nrm, -nrm, re(alpha) >= R(0.0));
      tau = mk((beta - re(alpha)) / beta, -im(alpha) / beta);
      piv = alpha - of_re(beta);
    }
    workgroupBarrier();
    if (house) {
      for (var i = j + 1u + tid; i < m; i += WGu) { st_(i, j, dv(ld(i, j), piv)); }
    }
    if (tid == 0u) {
      st_(j, j, of_re(beta));
      tau_[${tau__off} + b * ${tau_bs} + j] = tau;
      RECORD
    }
    BAR
    // v^H a_c for every later column c: NS row slices per column, so no invocation loops
    // over all m rows (lavapipe ends a loop after 65535 iterations in all)
    let cl = tid % NCAPu;
    let sl = tid / NCAPu;
    let c = j + 1u + cl;
    var w = zero();
    if (c < nc) {
      for (var i = j + 1u + sl; i < m; i += NSu) { w += mul(cj(ld(i, j)), ld(i, c)); }
      if (sl == 0u) { w += ld(j, c); }
    }
    part[tid] = w;
    workgroupBarrier();
    if (tid < NCAPu && c < nc) {
      var t = zero();
      for (var q = 0u; q < NSu; q++) { t += part[q * NCAPu + tid]; }
      wv[c] = mul(cj(tau), t);
    }
    BAR
    let r = m - j;
    let c2 = nc - j - 1u;
    for (var e = tid; e < r * c2; e += WGu) {
      let i = j + e / c2;
      let c = j + 1u + e % c2;
      let v = select(ld(i, j), one(), i == j);
      st_(i, c, ld(i, c) - mul(v, wv[c]));
    }
    BAR
  }
"""


# Fused tails of the small path (the factor stays in workgroup memory): each thread owns
# one right-hand side / one column of Q in a private array.
_LUS_TAIL = """
  workgroupBarrier();
  for (var c = tid; c < ${kx}; c += WGu) {
    let xb = ${X_off} + b * ${x_bs} + c * ${x_cs};
    var xv: array<T, NMAX>;
    for (var i = 0u; i < m; i++) {
      if (${ident} != 0u) { xv[i] = select(zero(), one(), i == c); }
      else { xv[i] = X[xb + i * ${x_rs}]; }
    }
    for (var i = 0u; i < m; i++) {
      let p = pvs[i];
      if (p != i) { let t = xv[i]; xv[i] = xv[p]; xv[p] = t; }
    }
    for (var i = 1u; i < m; i++) {
      var s = xv[i];
      for (var k = 0u; k < i; k++) { s -= mul(ld(i, k), xv[k]); }
      xv[i] = s;
    }
    for (var q = 0u; q < m; q++) {
      let i = m - 1u - q;
      var s = xv[i];
      for (var k = i + 1u; k < m; k++) { s -= mul(ld(i, k), xv[k]); }
      xv[i] = dv(s, ld(i, i));
    }
    for (var i = 0u; i < m; i++) { X[xb + i * ${x_rs}] = xv[i]; }
  }
"""

_QRQ_TAIL = """
  workgroupBarrier();
  for (var c = tid; c < ${qc}; c += WGu) {
    var qv: array<T, NMAX>;
    for (var i = 0u; i < m; i++) { qv[i] = select(zero(), one(), i == c); }
    for (var q = 0u; q < kmax; q++) {
      let j = kmax - 1u - q;
      var w = qv[j];
      for (var i = j + 1u; i < m; i++) { w += mul(cj(ld(i, j)), qv[i]); }
      w = mul(tw[j], w);
      qv[j] -= w;
      for (var i = j + 1u; i < m; i++) { qv[i] -= mul(ld(i, j), w); }
    }
    let qb = ${Q_off} + b * ${q_bs} + c;
    for (var i = 0u; i < m; i++) { Q[qb + i * ${q_rs}] = qv[i]; }
  }
"""


@dataclasses.dataclass(frozen=True)
class FactorSpec(KernelSpec):
    t: WType
    kind: str     # "chol" | "lu" | "qr"; small path only: "lus" (LU, then solve the
                  # right-hand sides X in place), "qrq" (QR, then Q into its own buffer)
    nmax: int     # > 0: the matrix in workgroup memory (rows and columns <= nmax); 0: global
    wg: int

    def layout(self, caps):
        bufs = [Buf("A", self.t.arr, "rw")]
        words = ["m", "nc", "nbat", "a_rs", "a_cs", "a_bs"]
        if self.kind in ("lu", "lus"):
            bufs.append(Buf("ipiv", "i32", "rw"))
            words += ["p_bs", "pbase"]
        if self.kind == "lus":
            bufs.append(Buf("X", self.t.arr, "rw"))
            words += ["kx", "x_rs", "x_cs", "x_bs", "ident"]
        if self.kind in ("qr", "qrq"):
            bufs.append(Buf("tau_", self.t.arr, "rw"))
            words += ["tau_bs"]
        else:
            bufs.append(Buf("st", "atomic<u32>", "rw", offset=False))
        if self.kind == "qrq":
            bufs.append(Buf("Q", self.t.arr, "rw"))
            words += ["qc", "q_rs", "q_bs"]
        return Layout(bufs, words, caps)

    def render(self, caps):
        lay = self.layout(caps)
        tk = lay.tokens()
        T = "T"
        wg = self.wg
        local = self.nmax > 0
        shared = []
        if local:
            shared.append(f"var<workgroup> S: array<{T}, {self.nmax * self.nmax}>;")
            access = (f"fn ld(i: u32, j: u32) -> T {{ return S[i * {self.nmax}u + j]; }}\n"
                      f"fn st_(i: u32, j: u32, v: T) {{ S[i * {self.nmax}u + j] = v; }}")
            idx = f"base + i * {tk['a_rs']} + j * {tk['a_cs']}"
            load = (f"  for (var e = tid; e < m * nc; e += {wg}u) {{\n"
                    f"    let i = e / nc; let j = e % nc;\n"
                    f"    S[i * {self.nmax}u + j] = A[{idx}];\n  }}\n  workgroupBarrier();")
            save = (f"  workgroupBarrier();\n"
                    f"  for (var e = tid; e < m * nc; e += {wg}u) {{\n"
                    f"    let i = e / nc; let j = e % nc;\n"
                    f"    A[{idx}] = S[i * {self.nmax}u + j];\n  }}")
            bar = "workgroupBarrier();"
        else:
            access = (f"fn ld(i: u32, j: u32) -> T {{ return A[base + i * {tk['a_rs']} + "
                      f"j * {tk['a_cs']}]; }}\n"
                      f"fn st_(i: u32, j: u32, v: T) {{ A[base + i * {tk['a_rs']} + "
                      f"j * {tk['a_cs']}] = v; }}")
            load = save = ""
            bar = _BAR
        tail = ""
        if self.kind == "chol":
            shared.append("var<workgroup> shr: R;")
            body = _CHOL
        elif self.kind in ("lu", "lus"):
            shared += [f"var<workgroup> rv: array<R, {wg}>;",
                       f"var<workgroup> ri: array<u32, {wg}>;"]
            body = _LU.replace("PIVOT_SEARCH", _PIVOT_SCAN if local else _PIVOT_TREE)
            body = body.replace("${ipiv_off}", tk["ipiv_off"]).replace(
                "${p_bs}", tk["p_bs"]).replace("${pbase}", tk["pbase"])
            if self.kind == "lus":
                shared.append(f"var<workgroup> pvs: array<u32, {self.nmax}>;")
                body = body.replace("RECORD", "pvs[j] = p;")
                tail = _fill(_LUS_TAIL, tk, ("kx", "X_off", "x_bs", "x_cs", "x_rs", "ident"))
                save = ""  # only X leaves the workgroup
        else:
            ncap = self.nmax if local else QR_PANEL
            shared += [f"var<workgroup> red: array<R, {wg}>;",
                       f"var<workgroup> wv: array<T, {ncap}>;",
                       f"var<workgroup> part: array<T, {wg}>;"]
            body = _QR.replace("COLUMN_NORM", _NORM_SCAN if local else _NORM_TREE)
            body = body.replace("${tau__off}", tk["tau__off"]).replace(
                "${tau_bs}", tk["tau_bs"]).replace("NCAPu", f"{ncap}u").replace(
                "NSu", f"{wg // ncap}u")
            if self.kind == "qrq":
                shared.append(f"var<workgroup> tw: array<T, {self.nmax}>;")
                body = body.replace("RECORD", "tw[j] = tau;")
                tail = _fill(_QRQ_TAIL, tk, ("qc", "Q_off", "q_bs", "q_rs"))
        body = body.replace("RECORD", "")
        body = body.replace("BAR", bar).replace("WGu", f"{wg}u")
        tail = tail.replace("WGu", f"{wg}u").replace("NMAX", str(self.nmax))
        return _FACTOR.render(tk, prelude=prelude(self.t), shared="\n".join(shared),
                              access=access, wg=wg, load=load, body=body, save=save,
                              tail=tail)

    def needs(self):
        return ("f64",) if self.t.need == "shader-f64" else ()


_LEAF = Template("""${prelude}
${layout}
var<workgroup> rv: array<R, ${wg}>;
var<workgroup> ri: array<u32, ${wg}>;
var<workgroup> prow: array<T, ${leaf}>;
var<workgroup> jrow: array<T, ${leaf}>;

@compute @workgroup_size(${wg})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>,
        @builtin(local_invocation_index) tid: u32${sgargs}) {
  let b = wid.x + wid.y * nw.x;
  if (b >= ${nbat}) { return; }
  let base = ${A_off} + b * ${a_bs};
  let m = ${m};
  let nc = ${nc};
  var reg: array<T, ${regs}>;
  for (var q = 0u; q < ${rpt}u; q++) {
    let r = tid + q * ${wg}u;
    for (var c = 0u; c < ${leaf}u; c++) {
      var v = zero();
      if (r < m && c < nc) { v = A[base + r * ${a_rs} + c * ${a_cs}]; }
      reg[q * ${leaf}u + c] = v;
    }
  }
  let kmax = min(m, nc);
  for (var j = 0u; j < kmax; j++) {
    var best = R(-1.0);
    var bi = j;
    for (var q = 0u; q < ${rpt}u; q++) {
      let r = tid + q * ${wg}u;
      if (r >= j && r < m) {
        let v = cabs1(reg[q * ${leaf}u + j]);
        if (v > best) { best = v; bi = r; }
      }
    }
${pivot}
    for (var q = 0u; q < ${rpt}u; q++) {
      let r = tid + q * ${wg}u;
      if (r == p) { for (var c = 0u; c < ${leaf}u; c++) { prow[c] = reg[q * ${leaf}u + c]; } }
      if (r == j) { for (var c = 0u; c < ${leaf}u; c++) { jrow[c] = reg[q * ${leaf}u + c]; } }
    }
    if (tid == 0u) {
      ipiv[${ipiv_off} + b * ${p_bs} + j] = i32(${pbase} + p);
      if (pv == R(0.0)) { atomicOr(&st[0], 1u); }
    }
    workgroupBarrier();
    let d = prow[j];
    for (var q = 0u; q < ${rpt}u; q++) {
      let r = tid + q * ${wg}u;
      if (r == p) { for (var c = 0u; c < ${leaf}u; c++) { reg[q * ${leaf}u + c] = jrow[c]; } }
      if (r == j) { for (var c = 0u; c < ${leaf}u; c++) { reg[q * ${leaf}u + c] = prow[c]; } }
      if (r > j && r < m) {
        var l = reg[q * ${leaf}u + j];
        if (pv != R(0.0)) { l = dv(l, d); reg[q * ${leaf}u + j] = l; }
        for (var c = j + 1u; c < ${leaf}u; c++) {
          reg[q * ${leaf}u + c] = reg[q * ${leaf}u + c] - mul(l, prow[c]);
        }
      }
    }
    workgroupBarrier();
  }
  for (var q = 0u; q < ${rpt}u; q++) {
    let r = tid + q * ${wg}u;
    if (r < m) {
      for (var c = 0u; c < nc; c++) { A[base + r * ${a_rs} + c * ${a_cs}] = reg[q * ${leaf}u + c]; }
    }
  }
}
""", "linalg_lu_leaf")


@dataclasses.dataclass(frozen=True)
class LULeafSpec(KernelSpec):
    """LU with partial pivoting of an m x nc panel (nc <= leaf, m <= rpt * wg) held in
    registers: each invocation owns rows tid, tid + wg, ..., so the rank-1 updates touch
    no shared or global memory; the pivot row travels through workgroup memory. The
    latency-bound panel of the recursive LU, without a global access per update."""

    t: WType
    wg: int
    rpt: int
    leaf: int = 16
    sg: bool = False  # pivot search by subgroup shuffles (one barrier, not log2(wg))

    def layout(self, caps):
        return Layout([Buf("A", self.t.arr, "rw"), Buf("ipiv", "i32", "rw"),
                       Buf("st", "atomic<u32>", "rw", offset=False)],
                      ["m", "nc", "nbat", "a_rs", "a_cs", "a_bs", "p_bs", "pbase"], caps)

    def render(self, caps):
        sg = self.sg and caps.subgroup
        pivot = (_PIVOT_WG_SUBGROUP if sg else _PIVOT_WG_TREE).replace("${wg}", str(self.wg))
        sgargs = (", @builtin(subgroup_size) sgs: u32, @builtin(subgroup_invocation_id) "
                  "sgi: u32, @builtin(subgroup_id) sid: u32, @builtin(num_subgroups) nsg: u32"
                  ) if sg else ""
        pre = prelude(self.t) + ("\n" + shuffles(self.t) if sg else "")
        return _LEAF.render(self.layout(caps).tokens(), prelude=pre, wg=self.wg,
                            rpt=self.rpt, leaf=self.leaf, regs=self.rpt * self.leaf,
                            pivot=pivot, sgargs=sgargs)

    def needs(self):
        return ("f64",) if self.t.need == "shader-f64" else ()


LARFT_KB_MAX = 256   # widest block reflector LarftSpec builds (T: kb^2 entries of global memory)

_LARFT = Template("""${prelude}
${layout}

// T = N^-1 diag(tau), N = I + diag(tau) striu(G) (unit upper triangular): larft's column
// recurrence T[:i, i] = -tau_i T[:i, :i] G[:i, i] is that inverse column by column, a
// chain of kb steps (~290 us for kb = 128 on an H100, the eigh back-transformation's
// blocks). Here N is inverted by doubling in Tm itself: at level h every pair of
// inverted h-row diagonal blocks A, C has its off-diagonal block B replaced by
// -A^-1 (B C^-1), B C^-1 parked in the strictly lower triangle (unused until the end);
// rows and columns beyond kb count as the identity's

// entry e of level h's off-diagonal blocks: (the pair's first row of C, row, column)
fn pair_entry(e: u32, h: u32) -> vec3<u32> {
  let mid = (e / (h * h)) * 2u * h + h;
  return vec3<u32>(mid, mid - h + (e % (h * h)) / h, mid + e % h);
}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>,
        @builtin(local_invocation_index) tid: u32) {
  let b = wid.x + wid.y * nw.x;
  if (b >= ${nbat}) { return; }
  let kb = ${kb};
  let gb = ${G_off} + b * kb * kb;
  let tb = ${Tm_off} + b * kb * kb;
  let ub = ${tau_off} + b * ${tau_bs};
  for (var e = tid; e < kb * kb; e += 256u) {
    let r = e / kb;
    let c = e % kb;
    var x = zero();
    if (r == c) { x = one(); } else if (r < c) { x = mul(tau[ub + r], G[gb + e]); }
    Tm[tb + e] = x;
  }
  storageBarrier();
  workgroupBarrier();
  for (var h = 1u; h < kb; h *= 2u) {
    let cnt = ((kb + 2u * h - 1u) / (2u * h)) * h * h;
    for (var e = tid; e < cnt; e += 256u) {    // B C^-1 (C^-1 upper triangular)
      let p = pair_entry(e, h);
      let row = p.y;
      let col = p.z;
      if (col < kb) {
        var w = zero();
        for (var k = p.x; k <= col; k++) { w += mul(Tm[tb + row * kb + k], Tm[tb + k * kb + col]); }
        Tm[tb + col * kb + row] = w;
      }
    }
    storageBarrier();
    workgroupBarrier();
    for (var e = tid; e < cnt; e += 256u) {    // -A^-1 (B C^-1) (A^-1 upper triangular)
      let p = pair_entry(e, h);
      let row = p.y;
      let col = p.z;
      if (col < kb) {
        var x = zero();
        for (var k = row; k < p.x; k++) { x += mul(Tm[tb + row * kb + k], Tm[tb + col * kb + k]); }
        Tm[tb + row * kb + col] = -x;
      }
    }
    storageBarrier();
    workgroupBarrier();
  }
  for (var e = tid; e < kb * kb; e += 256u) {
    let r = e / kb;
    let c = e % kb;
    if (r > c) { Tm[tb + e] = zero(); } else { Tm[tb + e] = mul(Tm[tb + e], tau[ub + c]); }
  }
}
""", "linalg_larft")


@dataclasses.dataclass(frozen=True)
class LarftSpec(KernelSpec):
    """The upper triangular T of a block reflector I - V T V^H (LAPACK's larft, forward,
    columnwise) from G = V^H V and tau; G and T contiguous (B, kb, kb), kb <=
    LARFT_KB_MAX."""

    t: WType

    def layout(self, caps):
        return Layout([Buf("G", self.t.arr), Buf("tau", self.t.arr), Buf("Tm", self.t.arr, "rw")],
                      ["kb", "nbat", "tau_bs"], caps)

    def render(self, caps):
        return _LARFT.render(self.layout(caps).tokens(), prelude=prelude(self.t))

    def needs(self):
        return ("f64",) if self.t.need == "shader-f64" else ()


_TRSM = Template("""${prelude}
${layout}

fn tt(tb: u32, i: u32, k: u32) -> T { return ${tconj}(Tm[tb + i * ${t_rs} + k * ${t_cs}]); }

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let g = gid.x + gid.y * nw.x * 64u;
  let nv = ${nv};
  if (g >= nv * ${nbat}) { return; }
  let b = g / nv;
  let v = g % nv;
  let tb = ${Tm_off} + b * ${t_bs};
  let xb = ${X_off} + b * ${x_bs} + v * ${x_vs};
  let n = ${n};
  let es = ${x_es};
  for (var q = 0u; q < n; q++) {
    let i = ${row};
    var s = X[xb + i * es];
    for (var k = ${k0}; k < ${k1}; k++) { s -= mul(tt(tb, i, k), X[xb + k * es]); }
    ${divide}
    X[xb + i * es] = s;
  }
}
""", "linalg_trsm")

# the same with the vector in a private array (n <= nmax): one load and one store per
# element instead of a global access per product
_TRSM_LOCAL = Template("""${prelude}
${layout}

fn tt(tb: u32, i: u32, k: u32) -> T { return ${tconj}(Tm[tb + i * ${t_rs} + k * ${t_cs}]); }

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let g = gid.x + gid.y * nw.x * 64u;
  let nv = ${nv};
  if (g >= nv * ${nbat}) { return; }
  let b = g / nv;
  let v = g % nv;
  let tb = ${Tm_off} + b * ${t_bs};
  let xb = ${X_off} + b * ${x_bs} + v * ${x_vs};
  let n = ${n};
  let es = ${x_es};
  var xv: array<T, ${nmax}>;
  for (var i = 0u; i < n; i++) { xv[i] = X[xb + i * es]; }
  for (var q = 0u; q < n; q++) {
    let i = ${row};
    var s = xv[i];
    for (var k = ${k0}; k < ${k1}; k++) { s -= mul(tt(tb, i, k), xv[k]); }
    ${divide}
    xv[i] = s;
  }
  for (var i = 0u; i < n; i++) { X[xb + i * es] = xv[i]; }
}
""", "linalg_trsm_local")


def _triangle_vectors_layout(t, same, caps):
    """Bindings of the triangular solves on vectors: the triangle Tm (or, ``same``, inside
    X's buffer at element offset t_off) and the vectors X, solved in place."""
    words = ["n", "nv", "nbat", "t_rs", "t_cs", "t_bs", "x_es", "x_vs", "x_bs"]
    if same:
        return Layout([Buf("X", t.arr, "rw")], words + ["t_off"], caps)
    return Layout([Buf("Tm", t.arr), Buf("X", t.arr, "rw")], words, caps)


@dataclasses.dataclass(frozen=True)
class TrsmSpec(KernelSpec):
    """op(T) x = b for many vectors x (in place); op(T) = T or conj(T); T given by strides
    (a transposed view is a transposed triangle)."""

    t: WType
    lower: bool
    unit: bool
    conj: bool
    nmax: int = 0  # > 0: n <= nmax, the vector in a private array
    same: bool = False  # the triangle lives in X's buffer (element offset t_off): no copy

    def layout(self, caps):
        return _triangle_vectors_layout(self.t, self.same, caps)

    def render(self, caps):
        lay = self.layout(caps)
        row, k0, k1 = ("q", "0u", "i") if self.lower else ("n - 1u - q", "i + 1u", "n")
        divide = "" if self.unit else "s = dv(s, tt(tb, i, i));"
        extra = {"nmax": self.nmax} if self.nmax else {}
        tk = lay.tokens()
        if self.same:
            tk["Tm_off"] = tk["t_off"]
        text = (_TRSM_LOCAL if self.nmax else _TRSM).render(
            tk, prelude=prelude(self.t), tconj="cj" if self.conj else "", row=row,
            k0=k0, k1=k1, divide=divide, **extra)
        return text.replace("Tm[", "X[") if self.same else text

    def needs(self):
        return ("f64",) if self.t.need == "shader-f64" else ()


_SWAP = Template("""${layout}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let g = gid.x + gid.y * nw.x * 64u;
  let nc = ${nc};
  if (g >= nc * ${nbat}) { return; }
  let b = g / nc;
  let c = g % nc;
  let ab = ${A_off} + b * ${a_bs} + c * ${a_cs};
  let pb = ${ipiv_off} + b * ${p_bs};
  for (var i = 0u; i < ${kb}; i++) {
    let p = u32(ipiv[pb + i]) - ${pbase};
    if (p != i) {
      let t = A[ab + i * ${a_rs}];
      A[ab + i * ${a_rs}] = A[ab + p * ${a_rs}];
      A[ab + p * ${a_rs}] = t;
    }
  }
}
""", "linalg_swap")


@dataclasses.dataclass(frozen=True)
class SwapSpec(KernelSpec):
    """Rows i <-> ipiv[i] - pbase, for i in order, in every column (moves raw bits)."""

    t: WType

    def layout(self, caps):
        return Layout([Buf("A", self.t.arr, "rw"), Buf("ipiv", "i32")],
                      ["nc", "nbat", "kb", "a_rs", "a_cs", "a_bs", "p_bs", "pbase"], caps)

    def render(self, caps):
        return _SWAP.render(self.layout(caps).tokens())

    def needs(self):
        return ("f64",) if self.t.need == "shader-f64" else ()


_DIAG = Template("""${prelude}
${layout}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let g = gid.x + gid.y * nw.x * 64u;
  if (g >= ${nbat}) { return; }
  let ab = ${A_off} + g * ${a_bs};
  let pb = ${ipiv_off} + g * ${p_bs};
  // the running product is kept in [2^-60, 2^60] times 2^(60 ex) by exact power-of-two
  // scalings, so det is finite wherever NumPy's sign * exp(log|det|) is, whatever the
  // order of large and small pivots
  let big = R(1152921504606846976.0);
  let small = R(1.0) / big;
  var acc = one();
  var ex = 0i;
  var odd = false;
  var zero_seen = false;
  var nan_seen = false;
  for (var i = 0u; i < ${n}; i++) {
    if (u32(ipiv[pb + i]) != i) { odd = !odd; }
    var d = ${elem}(A[ab + i * ${a_ds}]);
    let m = cabs1(d);
    zero_seen = zero_seen || m == R(0.0);
    nan_seen = nan_seen || !(m >= R(0.0));
    let dm = maxabs(d);
    if (dm > big) { d = d * small; ex += 1i; }
    if (dm > R(0.0) && dm < small) { d = d * big; ex -= 1i; }
    acc = mul(acc, d);
    let am = maxabs(acc);
    if (am > big) { acc = acc * small; ex += 1i; }
    if (am > R(0.0) && am < small) { acc = acc * big; ex -= 1i; }
  }
  for (var k = 0i; k < ex; k++) { acc = acc * big; }
  for (var k = 0i; k > ex; k--) { acc = acc * small; }
  // a zero pivot makes det 0 even where the running product overflowed; NaN stays NaN
  if (zero_seen && !nan_seen) { acc = zero(); }
  if (odd) { acc = -acc; }
  D[${D_off} + g] = acc;
}
""", "linalg_lu_diag")


@dataclasses.dataclass(frozen=True)
class LUDiagSpec(KernelSpec):
    """det (``sign`` False) or the sign of det (product of the diagonal's phases) from LU."""

    t: WType
    sign: bool

    def layout(self, caps):
        return Layout([Buf("A", self.t.arr), Buf("ipiv", "i32"), Buf("D", self.t.arr, "rw")],
                      ["n", "nbat", "a_ds", "a_bs", "p_bs"], caps)

    def render(self, caps):
        return _DIAG.render(self.layout(caps).tokens(), prelude=prelude(self.t),
                            elem="phase" if self.sign else "")

    def needs(self):
        return ("f64",) if self.t.need == "shader-f64" else ()


LEAF_ROWS = (1, 2, 4, 8)  # rows per invocation of LULeafSpec
FLOATS = (dt.float32, dt.float64, dt.complex64, dt.complex128)
SMALL = (4, 8, 16, 32)


def _fill(text, tokens, names):
    for n in names:
        text = text.replace("${" + n + "}", tokens[n])
    return text


def small_wg(nmax):
    return 64 if nmax <= 16 else 128


def variants():
    out = []
    for d in FLOATS:
        t = WTYPES[d]
        for kind in ("chol", "lu", "qr"):
            out += [FactorSpec(t, kind, 0, wg) for wg in (256, 1024)]
            out += [FactorSpec(t, kind, n, small_wg(n)) for n in SMALL]
        for kind in ("lus", "qrq"):
            out += [FactorSpec(t, kind, n, small_wg(n)) for n in SMALL]
        out.append(LarftSpec(t))
        out += [LULeafSpec(t, wg, r, 16, sg) for wg in (256, 1024) for r in LEAF_ROWS
                for sg in (False, True)]
        out += [TrsmSpec(t, lo, u, c, nm, sm) for lo in (False, True) for u in (False, True)
                for c in (False, True) for nm in (0, 64) for sm in (False, True)]
        out += [SwapSpec(t), PermSpec(t), LeafSwapSpec(t), LeafSwapSpec(t, True), LUDiagSpec(t, False), LUDiagSpec(t, True)]
        out += [CholPanelSpec(t, nb, 64) for nb in ((32,) if d is dt.complex128 else (32, 64))]
        out += [CholPanelSpec(t, 32, 256, 16)]
        out += [BatchSolveSpec(t, n, k, max(64, n)) for n in SMALL for k in (1, n)]
        out += [BatchCholSpec(t, n, max(64, n), u) for n in SMALL for u in (False, True)]
        out += [BatchTinySpec(t, n, k, k == n) for n, k in ((8, 1), (8, 8), (3, 3))]
        out += [NegCopySpec(t), QrVSpec(t), QrTSpec(t)]
        out += [TrsvSpec(t, lo, lo, nn) for lo in (False, True) for nn in (256, 1024)]
        if t.name != "complex128":
            out += [TrsmTileSpec(t, lo, lo, c, sm) for lo in (False, True) for c in (False, True)
                    for sm in (False, True)]
            out += [TrsmTileSpec(t, lo, lo, False, False, False, i) for lo in (False, True)
                    for i in (1, -1)]
        out += [LUPanelSpec(t, wg, r) for wg in (256, 1024) for r in LEAF_ROWS]
        out += [LUPanelSpec(t, wg, r, 64, True) for wg in (256, 1024) for r in LEAF_ROWS]
    return out


# the start of a Cholesky step (CholPanelSpec, chol_regs.CholRegsSpec): this workgroup's
# matrix b and row block blk, the previous diagonal block's size o, the step's base in A
CHOL_HEAD = """  let g = wid.x + wid.y * nw.x;
  let nblk = ${nblk};
  if (g >= nblk * ${nbat}) { return; }
  let b = g / nblk;
  let blk = g % nblk;
  let o = ${o};
  let pbase = ${A_off} + b * ${a_bs};
  let base = pbase + o * (${a_rs} + ${a_cs});
  let kb = ${kb};
  let m2 = ${m2};
  let db = ${D_off} + b * ${d_bs};
"""

_CHOL_PANEL = Template("""${prelude}
${layout}
// the lower triangle of the diagonal block, packed by rows: (i, j) at i (i + 1) / 2 + j
var<workgroup> L: array<T, ${packed}>;
var<workgroup> shr: R;
${tilevar}

fn li(i: u32, j: u32) -> u32 { return i * (i + 1u) / 2u + j; }

@compute @workgroup_size(${wg})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>,
        @builtin(local_invocation_index) tid: u32) {
""" + CHOL_HEAD + """  let nb = ${nb}u;
  for (var e = tid; e < kb * kb; e += ${wg}u) {
    let i = e / kb;
    let j = e % kb;
    if (j <= i) { L[li(i, j)] = A[base + i * ${a_rs} + j * ${a_cs}]; }
  }
  // the previous step's factor (o x o, in D[1 - par]) goes to its place in A now: no
  // workgroup of that step could write A11 while others still read it
  if (blk == 0u && o > 0u) {
    let src = db + (1u - ${par}) * nb * nb;
    for (var e = tid; e < o * o; e += ${wg}u) {
      let i = e / o;
      let j = e % o;
      if (j <= i) { A[pbase + i * ${a_rs} + j * ${a_cs}] = D[src + e]; }
    }
  }
  workgroupBarrier();
  // every workgroup factorises the diagonal block (kb^3 / 3 flops in workgroup memory,
  // identical in each), so the rows below need no second dispatch
  for (var j = 0u; j < kb; j++) {
    if (tid == 0u) {
      let d = re(L[li(j, j)]);
      if (!(d > R(0.0)) && blk == 0u) { atomicOr(&st[0], 1u); }
      let s = sqrt(d);
      L[li(j, j)] = of_re(s);
      shr = s;
    }
    workgroupBarrier();
    let s = shr;
    for (var i = j + 1u + tid; i < kb; i += ${wg}u) { L[li(i, j)] = L[li(i, j)] / s; }
    workgroupBarrier();
    let r = kb - j - 1u;
    for (var e = tid; e < r * r; e += ${wg}u) {
      let p = j + 1u + e / r;
      let q = j + 1u + e % r;
      if (q <= p) { L[li(p, q)] = L[li(p, q)] - mul(L[li(p, j)], cj(L[li(q, j)])); }
    }
    workgroupBarrier();
  }
  if (blk == 0u) {
    let dst = db + ${par} * nb * nb;
    for (var e = tid; e < kb * kb; e += ${wg}u) {
      let i = e / kb;
      let j = e % kb;
      if (j <= i) {
        if (nblk == 1u) { A[base + i * ${a_rs} + j * ${a_cs}] = L[li(i, j)]; }
        else { D[dst + e] = L[li(i, j)]; }
      }
    }
  }
${rows}
}
""", "linalg_chol_panel")


_CHOL_ROWS_THREAD = """  // one row of A21 per invocation: x L11^H = a, x into A21, -x into Nn (m2, kb) and
  // conj(x) into Pt (kb, m2), the operands of the trailing update C += Nn @ Pt
  let i = blk * ${wg}u + tid;
  if (i < m2) {
    let row = base + (kb + i) * ${a_rs};
    var x: array<T, ${nb}>;
    for (var j = 0u; j < kb; j++) {
      var s = A[row + j * ${a_cs}];
      let lb = li(j, 0u);
      for (var k = 0u; k < j; k++) { s -= mul(x[k], cj(L[lb + k])); }
      x[j] = s / re(L[lb + j]);
    }
    let nrow = ${Nn_off} + b * ${n_bs} + i * kb;
    let pcol = ${Pt_off} + b * ${p_bs} + i;
    for (var j = 0u; j < kb; j++) {
      A[row + j * ${a_cs}] = x[j];
      Nn[nrow + j] = -x[j];
      Pt[pcol + j * m2] = cj(x[j]);
    }
  }"""

# ${tr} rows of A21 per workgroup in workgroup memory: x L11^H = a a column of L11 at a
# time over all (row, column) pairs (column j's divide lands one step late, so every
# invocation of step j reads it raw); then A21, Nn = -x and Pt = x^H
_CHOL_ROWS_TILE = """  let r0 = blk * ${tr}u;
  let nr = min(${tr}u, m2 - min(m2, r0));
  for (var e = tid; e < ${tr}u * kb; e += ${wg}u) {
    let i = e / kb;
    let j = e % kb;
    var v = zero();
    if (i < nr) { v = A[base + (kb + r0 + i) * ${a_rs} + j * ${a_cs}]; }
    xt[i * nb + j] = v;
  }
  workgroupBarrier();
  for (var j = 0u; j < kb; j++) {
    if (j > 0u && tid < ${tr}u) {
      xt[tid * nb + j - 1u] = xt[tid * nb + j - 1u] / re(L[li(j - 1u, j - 1u)]);
    }
    let d = re(L[li(j, j)]);
    let w = kb - j - 1u;
    for (var e = tid; e < ${tr}u * w; e += ${wg}u) {
      let i = e / w;
      let c = j + 1u + e % w;
      xt[i * nb + c] = xt[i * nb + c] - mul(xt[i * nb + j] / d, cj(L[li(c, j)]));
    }
    workgroupBarrier();
  }
  if (tid < ${tr}u) { xt[tid * nb + kb - 1u] = xt[tid * nb + kb - 1u] / re(L[li(kb - 1u, kb - 1u)]); }
  workgroupBarrier();
  for (var e = tid; e < nr * kb; e += ${wg}u) {
    let i = e / kb;
    let j = e % kb;
    let x = xt[i * nb + j];
    A[base + (kb + r0 + i) * ${a_rs} + j * ${a_cs}] = x;
    Nn[${Nn_off} + b * ${n_bs} + (r0 + i) * kb + j] = -x;
  }
  for (var e = tid; e < nr * kb; e += ${wg}u) {
    let j = e / nr;
    let i = e % nr;
    Pt[${Pt_off} + b * ${p_bs} + j * m2 + r0 + i] = cj(xt[i * nb + j]);
  }"""


@dataclasses.dataclass(frozen=True)
class CholPanelSpec(KernelSpec):
    """One step of the blocked Cholesky in one dispatch: the kb x kb diagonal block
    (kb <= nb) factorised in workgroup memory by every workgroup, and the m2 rows below
    it solved against it, one per invocation; the trailing update's operands -L21 and
    L21^H leave in their own buffers (GEMM reads them, never ``A``). With several
    workgroups the factor of the diagonal block goes to D[par] (the others may still be
    reading A11) and reaches A in the next step's dispatch (``o``: its size; ``A`` is
    bound from that previous block on)."""

    t: WType
    nb: int
    wg: int = 64
    tr: int = 0  # > 0: tr rows of A21 per workgroup in workgroup memory (else a row each)
    # trusted (compiled without wgpu's runtime checks, KernelSpec.runtime_checks):
    # every index is structural: the packed triangle's li(i, j) with j <= i < kb <= nb
    # (the caller's panel width), the row tiles' i < tr, j < kb, private x[j] with
    # j < kb; every loop is counted by kb, m2, tr or the workgroup size
    trusted: bool = False

    def layout(self, caps):
        return Layout([Buf("A", self.t.arr, "rw"), Buf("st", "atomic<u32>", "rw", offset=False),
                       Buf("Nn", self.t.arr, "rw"), Buf("Pt", self.t.arr, "rw"),
                       Buf("D", self.t.arr, "rw")],
                      ["kb", "m2", "nbat", "nblk", "a_rs", "a_cs", "a_bs", "n_bs", "p_bs",
                       "o", "par", "d_bs"],
                      caps)

    def render(self, caps):
        tk = self.layout(caps).tokens()
        rows = _CHOL_ROWS_TILE if self.tr else _CHOL_ROWS_THREAD
        for name in ("a_rs", "a_cs", "Nn_off", "Pt_off", "n_bs", "p_bs"):
            rows = rows.replace("${" + name + "}", tk[name])
        rows = rows.replace("${wg}", str(self.wg)).replace("${nb}", str(self.nb)).replace(
            "${tr}", str(self.tr))
        tilevar = f"var<workgroup> xt: array<T, {self.tr * self.nb}>;" if self.tr else ""
        return _CHOL_PANEL.render(tk, prelude=prelude(self.t), wg=self.wg, nb=self.nb,
                                  packed=self.nb * (self.nb + 1) // 2, rows=rows,
                                  tilevar=tilevar)

    def shared_bytes(self):
        return (self.nb * (self.nb + 1) // 2 + self.tr * self.nb) * self.t.itemsize + 64

    def needs(self):
        return ("f64",) if self.t.need == "shader-f64" else ()


_PERM = Template("""${prelude}
${layout}
var<workgroup> mp: array<u32, ${mapn}>;
var<workgroup> pv: array<u32, ${mapn}>;

@compute @workgroup_size(${wg})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>,
        @builtin(local_invocation_index) tid: u32) {
  let g = wid.x + wid.y * nw.x;
  let ncb = ${ncb};
  if (g >= ncb * ${nbat}) { return; }
  let b = g / ncb;
  let c0 = (g % ncb) * ${cw};
  let m = ${m};
  let kb = ${kb};
  let pb = ${ipiv_off} + b * ${p_bs};
  for (var r = tid; r < m; r += ${wg}u) { mp[r] = r; }
  for (var i = tid; i < kb; i += ${wg}u) { pv[i] = u32(ipiv[pb + i]) - ${pbase}; }
  workgroupBarrier();
  // the interchanges in order, on row indices in workgroup memory: mp[r] = the old row
  // that ends at row r
  if (tid == 0u) {
    for (var i = 0u; i < kb; i++) {
      let p = pv[i];
      let t = mp[i];
      mp[i] = mp[p];
      mp[p] = t;
    }
  }
  workgroupBarrier();
  // rows that can change: 0 .. kb - 1 and the targets (or every row when 2 kb > m);
  // gather them all (this workgroup's columns), then write: in place without a race
  let full = 2u * kb > m;
  let slots = select(2u * kb, m, full);
  let ab = ${A_off} + b * ${a_bs};
  var v: array<T, ${rpt}>;
  for (var q = 0u; q < ${rpt}u; q++) {
    let e = tid + q * ${wg}u;
    let a = e / ${cw};
    let c = c0 + e % ${cw};
    if (a < slots && c < ${nc}) {
      var r = a;
      if (!full && a >= kb) { r = pv[a - kb]; }
      v[q] = A[ab + mp[r] * ${a_rs} + c * ${a_cs}];
    }
  }
  storageBarrier();
  workgroupBarrier();
  for (var q = 0u; q < ${rpt}u; q++) {
    let e = tid + q * ${wg}u;
    let a = e / ${cw};
    let c = c0 + e % ${cw};
    if (a < slots && c < ${nc}) {
      var r = a;
      if (!full && a >= kb) { r = pv[a - kb]; }
      if (full || a < kb || r >= kb) { A[ab + r * ${a_rs} + c * ${a_cs}] = v[q]; }
    }
  }
}
""", "linalg_perm")

PERM_MAPN = 4096  # rows the permutation kernel's map holds (2 x 16 KiB of u32 in all)
PERM_WG = 256
PERM_RPT = 16     # values each invocation gathers: wg * rpt (row, column) pairs a workgroup


@dataclasses.dataclass(frozen=True)
class PermSpec(KernelSpec):
    """SwapSpec's interchanges as one permutation: every workgroup replays the pivots on
    row indices in workgroup memory (a serial loop of shared-memory swaps, not of global
    loads), then gathers the rows that move for its ``cw`` columns and writes them back."""

    t: WType

    def layout(self, caps):
        return Layout([Buf("A", self.t.arr, "rw"), Buf("ipiv", "i32")],
                      ["m", "nc", "nbat", "kb", "ncb", "cw", "a_rs", "a_cs", "a_bs", "p_bs",
                       "pbase"], caps)

    def render(self, caps):
        return _PERM.render(self.layout(caps).tokens(), prelude=prelude(self.t),
                            mapn=PERM_MAPN, wg=PERM_WG, rpt=PERM_RPT)

    def needs(self):
        return ("f64",) if self.t.need == "shader-f64" else ()


_LSWAP = Template("""${prelude}
${layout}
var<workgroup> pv: array<u32, ${kmax}>;
var<workgroup> srow: array<u32, ${smax}>;
var<workgroup> drow: array<u32, ${smax}>;

@compute @workgroup_size(${wg})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>,
        @builtin(local_invocation_index) tid: u32) {
  let g = wid.x + wid.y * nw.x;
  let ncb = ${ncb};
  if (g >= ncb * ${nbat}) { return; }
  let b = g / ncb;
  let c0 = (g % ncb) * ${cw};
  let kb = ${kb};
  let pb = ${ipiv_off} + b * ${p_bs};
  for (var i = tid; i < kb; i += ${wg}u) { pv[i] = u32(ipiv[pb + i]) - ${pbase}; }
  workgroupBarrier();
  // slot a: row a (a < kb) or the target pv[a - kb]; its final content comes from the
  // row found by walking the interchanges backwards (row x before interchange i: the
  // row the last earlier interchange j with pv[j] == x brought there, else x itself).
  // Every invocation owns one slot: no serial replay of the interchanges.
  let nsl = 2u * kb;
  for (var a = tid; a < nsl; a += ${wg}u) {
    var r = a;
    var ok = true;
    if (a >= kb) {
      r = pv[a - kb];
      if (r < kb) { ok = false; }  // a slot of its own
      for (var j = 0u; j < a - kb; j++) { if (pv[j] == r) { ok = false; } }  // written once
    }
    var x = r;
    var i = kb;
    if (r < kb) { x = pv[r]; i = r; }
    loop {
      var f = i;
      for (var j = i; j > 0u; j--) { if (pv[j - 1u] == x) { f = j - 1u; break; } }
      if (f == i) { break; }
      x = f;
      i = f;
    }
    srow[a] = x;
    drow[a] = select(0xffffffffu, r, ok);
  }
  workgroupBarrier();
  let ab = ${A_off} + b * ${a_bs};
  var v: array<T, ${rpt}>;
  for (var q = 0u; q < ${rpt}u; q++) {
    let e = tid + q * ${wg}u;
    let a = e / ${cw};
    let c = c0 + e % ${cw};
    if (a < nsl && c < ${nc} + ${kx}) {
      if (drow[a] != 0xffffffffu) {
        ${load}
      }
    }
  }
  workgroupBarrier();
  for (var q = 0u; q < ${rpt}u; q++) {
    let e = tid + q * ${wg}u;
    let a = e / ${cw};
    let c = c0 + e % ${cw};
    if (a < nsl && c < ${nc} + ${kx}) {
      if (drow[a] != 0xffffffffu) {
        ${store}
      }
    }
  }
}
""", "linalg_leaf_swap")

LSWAP_KMAX = 128  # interchanges LeafSwapSpec applies in one dispatch
LSWAP_WG = 256
LSWAP_RPT = 8


@dataclasses.dataclass(frozen=True)
class LeafSwapSpec(KernelSpec):
    """The kb (<= LSWAP_KMAX) interchanges of one LU leaf applied at once to whole rows of
    the matrix outside the leaf's own columns (columns [s0, s0 + sw) skipped): at most 2 kb
    rows change; each is gathered from the row a backward walk of the interchanges names
    (an invocation per row, no serial replay), then written, ``cw`` columns a workgroup.
    Applying a leaf's interchanges to every column at once (as LAPACK's getrf does after
    each panel) replaces the recursion's interchanges of whole half-blocks (PermSpec)."""

    t: WType
    rhs: bool = False  # also the rows of X (B, rows, kx): columns nc .. nc + kx - 1

    def layout(self, caps):
        bufs = [Buf("A", self.t.arr, "rw"), Buf("ipiv", "i32")]
        words = ["nc", "nbat", "kb", "ncb", "cw", "s0", "sw", "a_rs", "a_cs", "a_bs",
                 "p_bs", "pbase"]
        if self.rhs:
            bufs.append(Buf("X", self.t.arr, "rw"))
            words += ["kx", "x_rs", "x_cs", "x_bs"]
        return Layout(bufs, words, caps)

    def render(self, caps):
        tk = self.layout(caps).tokens()
        a_ld = ("let cc = c + select(0u, ${sw}, c >= ${s0});\n"
                "        v[q] = A[ab + srow[a] * ${a_rs} + cc * ${a_cs}];")
        a_st = ("let cc = c + select(0u, ${sw}, c >= ${s0});\n"
                "        A[ab + drow[a] * ${a_rs} + cc * ${a_cs}] = v[q];")
        if self.rhs:
            xb = "${X_off} + b * ${x_bs}"
            x_ld = f"v[q] = X[{xb} + srow[a] * ${{x_rs}} + (c - ${{nc}}) * ${{x_cs}}];"
            x_st = f"X[{xb} + drow[a] * ${{x_rs}} + (c - ${{nc}}) * ${{x_cs}}] = v[q];"
            load = f"if (c < ${{nc}}) {{\n        {a_ld}\n        }} else {{ {x_ld} }}"
            store = f"if (c < ${{nc}}) {{\n        {a_st}\n        }} else {{ {x_st} }}"
        else:
            load, store = a_ld, a_st
            tk = dict(tk, kx="0u")
        for k, v in tk.items():
            load = load.replace("${" + k + "}", v)
            store = store.replace("${" + k + "}", v)
        return _LSWAP.render(tk, prelude=prelude(self.t), load=load, store=store,
                             kmax=LSWAP_KMAX, smax=2 * LSWAP_KMAX, wg=LSWAP_WG,
                             rpt=LSWAP_RPT)

    def needs(self):
        return ("f64",) if self.t.need == "shader-f64" else ()


_BSOLVE = Template("""${prelude}
${layout}
var<workgroup> sv: array<R, ${wg}>;
var<workgroup> prow: array<T, ${shw}>;
var<workgroup> jrow: array<T, ${shw}>;

@compute @workgroup_size(${wg})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>,
        @builtin(local_invocation_index) tid: u32) {
  let gi = wid.x + wid.y * nw.x;
  let mat = tid / ${nmax}u;
  let i = tid % ${nmax}u;
  let b = gi * ${per}u + mat;
  let live = b < ${nbat};
  let m = ${m};
  let kx = ${kx};
  let so = mat * ${nmax}u;
  let ro = mat * ${w}u;
  // row i of [A | B] (B: the identity's columns for inv) in registers
  var row: array<T, ${w}>;
  let ab = ${A_off} + b * ${a_bs} + i * ${a_rs};
  let bb = ${Bm_off} + b * ${b_bs} + i * ${b_rs};
  for (var c = 0u; c < ${nmax}u; c++) {
    var v = zero();
    if (live && i < m && c < m) { v = A[ab + c * ${a_cs}]; }
    row[c] = v;
  }
  for (var c = 0u; c < ${kcap}u; c++) {
    var v = zero();
    if (${ident} != 0u) { v = select(zero(), one(), i == c); }
    else if (live && i < m && c < kx) { v = Bm[bb + c * ${b_cs}]; }
    row[${nmax}u + c] = v;
  }
  var bad = false;
  // elimination with partial pivoting (LAPACK's pivot: the first largest |re| + |im|) on
  // the augmented rows: L, U and L^-1 P B at once
  for (var j = 0u; j < ${nmax}u; j++) {
    if (j < m) {
      sv[tid] = select(R(-1.0), cabs1(row[j]), i >= j && i < m);
      workgroupBarrier();
      var best = R(-1.0);
      var p = j;
      for (var q = j; q < m; q++) {
        let v = sv[so + q];
        if (v > best) { best = v; p = q; }
      }
      if (i == p) { for (var c = 0u; c < ${w}u; c++) { prow[ro + c] = row[c]; } }
      if (i == j) { for (var c = 0u; c < ${w}u; c++) { jrow[ro + c] = row[c]; } }
      workgroupBarrier();
      if (i == j) {
        for (var c = 0u; c < ${w}u; c++) { row[c] = prow[ro + c]; }
        if (best == R(0.0)) { bad = true; }
      } else if (i == p) {
        for (var c = 0u; c < ${w}u; c++) { row[c] = jrow[ro + c]; }
      }
      if (i > j && i < m && best != R(0.0)) {
        let l = dv(row[j], prow[ro + j]);
        row[j] = l;
        for (var c = 0u; c < ${w}u; c++) {
          if (c > j) { row[c] = row[c] - mul(l, prow[ro + c]); }
        }
      }
      workgroupBarrier();
    }
  }
  // back substitution, a column of U at a time; x_j travels through workgroup memory
  for (var q = 0u; q < ${nmax}u; q++) {
    let j = ${nmax}u - 1u - q;
    if (j < m) {
      if (i == j) {
        let d = row[j];
        for (var c = 0u; c < ${kcap}u; c++) {
          let x = dv(row[${nmax}u + c], d);
          row[${nmax}u + c] = x;
          jrow[ro + c] = x;
        }
      }
      workgroupBarrier();
      if (i < j) {
        let u = row[j];
        for (var c = 0u; c < ${kcap}u; c++) {
          row[${nmax}u + c] = row[${nmax}u + c] - mul(u, jrow[ro + c]);
        }
      }
      workgroupBarrier();
    }
  }
  if (live && i < m) {
    let xb = ${X_off} + b * ${x_bs} + i * ${x_rs};
    for (var c = 0u; c < ${kcap}u; c++) {
      if (c < kx) { X[xb + c * ${x_cs}] = row[${nmax}u + c]; }
    }
  }
  if (live && bad) { atomicOr(&st[0], 1u); }
}
""", "linalg_batch_solve")


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
        return _BSOLVE.render(self.layout(caps).tokens(), prelude=prelude(self.t), wg=self.wg,
                              nmax=self.nmax, kcap=self.kcap, w=w, per=per, shw=per * w)

    def needs(self):
        return ("f64",) if self.t.need == "shader-f64" else ()


_BCHOL = Template("""${prelude}
${layout}
var<workgroup> col: array<T, ${wg}>;
var<workgroup> dg: array<R, ${per}>;

@compute @workgroup_size(${wg})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>,
        @builtin(local_invocation_index) tid: u32) {
  let gi = wid.x + wid.y * nw.x;
  let mat = tid / ${nmax}u;
  let i = tid % ${nmax}u;
  let b = gi * ${per}u + mat;
  let live = b < ${nbat};
  let m = ${m};
  let so = mat * ${nmax}u;
  // row i of the lower triangle in registers
  var row: array<T, ${nmax}>;
  let ab = ${A_off} + b * ${a_bs} + i * ${a_rs};
  for (var c = 0u; c < ${nmax}u; c++) {
    var v = zero();
    if (live && i < m && c <= i) { v = A[ab + c * ${a_cs}]; }
    row[c] = v;
  }
  var bad = false;
  for (var j = 0u; j < ${nmax}u; j++) {
    if (j < m) {
      if (i == j) {
        let d = re(row[j]);
        if (!(d > R(0.0))) { bad = true; }
        let s = sqrt(d);
        row[j] = of_re(s);
        dg[mat] = s;
      }
      workgroupBarrier();
      if (i > j && i < m) {
        let l = row[j] / dg[mat];
        row[j] = l;
        col[tid] = l;
      }
      workgroupBarrier();
      if (i > j && i < m) {
        let l = row[j];
        for (var c = 0u; c < ${nmax}u; c++) {
          if (c > j && c <= i) { row[c] = row[c] - mul(l, cj(col[so + c])); }
        }
      }
    }
  }
  if (live && i < m) {
    let ob = ${L_off} + b * ${l_bs};
    for (var c = 0u; c < ${nmax}u; c++) {
      if (c < m) {
        let v = select(zero(), row[c], c <= i);
        if (${upper} != 0u) { L[ob + c * ${l_rs} + i] = cj(v); }
        else { L[ob + i * ${l_rs} + c] = v; }
      }
    }
  }
  if (live && bad) { atomicOr(&st[0], 1u); }
}
""", "linalg_batch_chol")


@dataclasses.dataclass(frozen=True)
class BatchCholSpec(KernelSpec):
    """Cholesky of many m x m matrices (m <= nmax): one invocation per row in registers,
    wg / nmax matrices per workgroup; reads the input in place and writes the factor with
    its zeros (L, or U = L^H when ``upper``) into a contiguous output."""

    t: WType
    nmax: int
    wg: int = 64
    unroll: bool = False

    def layout(self, caps):
        return Layout([Buf("A", self.t.arr), Buf("L", self.t.arr, "rw"),
                       Buf("st", "atomic<u32>", "rw", offset=False)],
                      ["m", "nbat", "upper", "a_rs", "a_cs", "a_bs", "l_rs", "l_bs"], caps)

    def render(self, caps):
        if self.unroll:
            return self._render_unrolled(caps)
        return _BCHOL.render(self.layout(caps).tokens(), prelude=prelude(self.t), wg=self.wg,
                             nmax=self.nmax, per=self.wg // self.nmax)

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


_NEGCOPY = Template("""${prelude}
${layout}

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let g = gid.x + gid.y * nw.x * 256u;
  let ar = ${ar};
  let ac = ${ac};
  if (g < ${nbat} * ar * ac) {
    let bi = g / (ar * ac);
    let e = g % (ar * ac);
    N[${N_off} + g] = -Sa[${Sa_off} + bi * ${a_bs} + (e / ac) * ${a_rs} + (e % ac) * ${a_cs}];
  }
  let br = ${br};
  let bc = ${bc};
  if (g < ${nbat} * br * bc) {
    let bi = g / (br * bc);
    let e = g % (br * bc);
    Pc[${Pc_off} + g] = Sb[${Sb_off} + bi * ${b_bs} + (e / bc) * ${b_rs} + (e % bc) * ${b_cs}];
  }
}
""", "linalg_neg_copy")


@dataclasses.dataclass(frozen=True)
class NegCopySpec(KernelSpec):
    """The GEMM update's operands in one dispatch: N = -A and Pc = B as contiguous copies
    (A and B may be views of the buffer the update writes, which a GEMM cannot bind)."""

    t: WType

    def layout(self, caps):
        return Layout([Buf("Sa", self.t.arr), Buf("Sb", self.t.arr), Buf("N", self.t.arr, "rw"),
                       Buf("Pc", self.t.arr, "rw")],
                      ["nbat", "ar", "ac", "a_rs", "a_cs", "a_bs", "br", "bc", "b_rs", "b_cs",
                       "b_bs"], caps)

    def render(self, caps):
        return _NEGCOPY.render(self.layout(caps).tokens(), prelude=prelude(self.t))

    def needs(self):
        return ("f64",) if self.t.need == "shader-f64" else ()


_QRV = Template("""${prelude}
${layout}

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let g = gid.x + gid.y * nw.x * 256u;
  let m = ${m};
  let kb = ${kb};
  if (g >= ${nbat} * m * kb) { return; }
  let b = g / (m * kb);
  let e = g % (m * kb);
  let i = e / kb;
  let j = e % kb;
  var v = zero();
  if (i == j) { v = one(); }
  if (i > j) { v = Pn[${Pn_off} + b * ${p_bs} + i * ${p_rs} + j * ${p_cs}]; }
  V[${V_off} + g] = v;
  VH[${VH_off} + b * m * kb + j * m + i] = cj(v);
}
""", "linalg_qr_v")


@dataclasses.dataclass(frozen=True)
class QrVSpec(KernelSpec):
    """A QR panel's reflectors as explicit V (m x kb: unit diagonal, zeros above) and
    V^H (kb x m), contiguous, for the GEMMs of the block reflector."""

    t: WType

    def layout(self, caps):
        return Layout([Buf("Pn", self.t.arr), Buf("V", self.t.arr, "rw"),
                       Buf("VH", self.t.arr, "rw")],
                      ["m", "kb", "nbat", "p_rs", "p_cs", "p_bs"], caps)

    def render(self, caps):
        return _QRV.render(self.layout(caps).tokens(), prelude=prelude(self.t))

    def needs(self):
        return ("f64",) if self.t.need == "shader-f64" else ()


_QRT = Template("""${prelude}
${layout}
var<workgroup> ts: array<T, ${kk}>;     // N = I + diag(tau) striu(G), then T (stride KB)
var<workgroup> tw: array<T, ${kq}>;     // B C^-1 of every block pair of a level

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>,
        @builtin(local_invocation_index) tid: u32) {
  let gi = wid.x + wid.y * nw.x;
  let nblk = ${nblk};
  if (gi >= nblk * ${nbat}) { return; }
  let b = gi / nblk;
  let blk = gi % nblk;
  let m = ${m};
  let kb = ${kb};
  let KB = ${kbm}u;
  let ub = ${tau_off} + b * ${tau_bs};
  // T of the block reflector I - V T V^H (LAPACK's larft, forward, columnwise) is
  // N^-1 diag(tau) with N = I + diag(tau) striu(V^H V) (unit upper triangular; identity
  // beyond kb): larft's recurrence T[:i, i] = -tau_i T[:i, :i] G[:i, i] is the column
  // form of that inverse. N is inverted by doubling (diagonal blocks of h rows already
  // inverted, every off-diagonal block B of a pair becomes -A^-1 B C^-1): a chain of
  // ~2 KB products and 2 log2(KB) barriers where larft's recurrence is ~KB^2 / 2 and KB
  // barriers (H100: 48 us of a QrTSpec dispatch, float64)
  for (var e = tid; e < KB * KB; e += 256u) {
    let r = e / KB;
    let c = e % KB;
    var x = zero();
    if (r == c) {
      x = one();
    } else if (r < c && c < kb) {
      x = mul(tau[ub + r], G[${G_off} + b * kb * kb + r * kb + c]);
    }
    ts[e] = x;
  }
  workgroupBarrier();
  for (var h = 1u; h < KB; h *= 2u) {
    let act = tid < (KB / (2u * h)) * h * h;
    let p = tid / (h * h);
    let rr = (tid % (h * h)) / h;
    let cc = tid % h;
    let r0 = p * 2u * h;
    var w = zero();
    if (act) {   // (B C^-1)[rr, cc]: C^-1 upper triangular
      for (var k = 0u; k <= cc; k++) {
        w += mul(ts[(r0 + rr) * KB + r0 + h + k], ts[(r0 + h + k) * KB + r0 + h + cc]);
      }
      tw[tid] = w;
    }
    workgroupBarrier();
    if (act) {   // -(A^-1 (B C^-1))[rr, cc]: A^-1 upper triangular; B read above
      var x = zero();
      for (var k = rr; k < h; k++) { x += mul(ts[(r0 + rr) * KB + r0 + k], tw[p * h * h + k * h + cc]); }
      ts[(r0 + rr) * KB + r0 + h + cc] = -x;
    }
    workgroupBarrier();
  }
  for (var e = tid; e < KB * KB; e += 256u) {
    let c = e % KB;
    if (c < kb) { ts[e] = mul(ts[e], tau[ub + c]); }
  }
  workgroupBarrier();
  // one output column j and row r per invocation, ${rw} consecutive rows a workgroup (a
  // subgroup stores runs of rows): Y1 = -(V T)^H and Y2 = -(V T^H)^H, kb x m each. (One
  // invocation per row kept its row of V in an indexed array, which NVIDIA's compiler put in
  // local memory: 110 us per 32-column panel whatever its height, on 16 workgroups at most)
  let j = tid / ${rw}u;
  let r = blk * ${rw}u + tid % ${rw}u;
  if (r < m && j < kb) {
    let vb = ${V_off} + b * m * kb + r * kb;
    var y1 = zero();
    var y2 = zero();
    for (var c = 0u; c < kb; c++) {
      let v = V[vb + c];
      y1 += mul(v, ts[c * KB + j]);
      y2 += mul(v, cj(ts[j * KB + c]));   // (a subgroup spans 32 / rw rows of T)
    }
    Y1[${Y1_off} + b * m * kb + j * m + r] = -cj(y1);
    Y2[${Y2_off} + b * m * kb + j * m + r] = -cj(y2);
  }
}
""", "linalg_qr_t")


@dataclasses.dataclass(frozen=True)
class QrTSpec(KernelSpec):
    """T of a panel's block reflector from G = V^H V and tau (in workgroup memory, every
    workgroup), then -(V T)^H and -(V T^H)^H row by row: the left operands of the trailing
    update C += V (-(V T)^H C) and of forming Q, q += V (-(T V^H) q)."""

    t: WType
    kbmax: int = 32

    def layout(self, caps):
        return Layout([Buf("G", self.t.arr), Buf("tau", self.t.arr), Buf("V", self.t.arr),
                       Buf("Y1", self.t.arr, "rw"), Buf("Y2", self.t.arr, "rw")],
                      ["m", "kb", "nbat", "nblk", "tau_bs"], caps)

    def render(self, caps):
        return _QRT.render(self.layout(caps).tokens(), prelude=prelude(self.t),
                           kk=self.kbmax * self.kbmax, kq=self.kbmax * self.kbmax // 4,
                           kbm=self.kbmax, rw=self.rows)

    @property
    def rows(self) -> int:
        """Rows of V a workgroup covers (256 invocations, one per (row, column))."""
        return 256 // self.kbmax

    def needs(self):
        return ("f64",) if self.t.need == "shader-f64" else ()


_LU_PANEL = Template("""${prelude}
${layout}
var<workgroup> rv: array<R, ${wg}>;
var<workgroup> ri: array<u32, ${wg}>;
var<workgroup> prow: array<T, 16>;
var<workgroup> jrow: array<T, 16>;
var<workgroup> us: array<T, ${nb16}>;
var<workgroup> ls: array<T, ${lsn}>;
var<private> base: u32;

fn ld(i: u32, j: u32) -> T { return A[base + i * ${a_rs} + j * ${a_cs}]; }
fn st_(i: u32, j: u32, v: T) { A[base + i * ${a_rs} + j * ${a_cs}] = v; }

@compute @workgroup_size(${wg})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>,
        @builtin(local_invocation_index) tid: u32${sgargs}) {
  let b = wid.x + wid.y * nw.x;
  if (b >= ${nbat}) { return; }
  base = ${A_off} + b * ${a_bs};
  let m = ${m};
  let nc = ${nc};
  let kmax = min(m, nc);
  var reg: array<T, ${regs}>;
  for (var c0 = 0u; c0 < kmax; c0 += 16u) {
    let w16 = min(16u, nc - c0);
    // 1. rows 0 .. c0 - 1 of this block of 16 columns: U12 = L11^-1 A12 (unit L11)
    if (c0 > 0u) {
      for (var e = tid; e < c0 * 16u; e += ${wg}u) {
        let cc = e % 16u;
        us[e] = select(zero(), ld(e / 16u, c0 + cc), cc < w16);
      }
      // L11's strict lower triangle into workgroup memory (packed by rows), then the
      // substitution a column of L11 at a time over all (row, column) pairs
      for (var e = tid; e < c0 * c0; e += ${wg}u) {
        let i = e / c0;
        let q = e % c0;
        if (q < i) { ls[i * (i - 1u) / 2u + q] = ld(i, q); }
      }
      workgroupBarrier();
      for (var q = 0u; q + 1u < c0; q++) {
        let cnt = (c0 - q - 1u) * 16u;
        for (var e = tid; e < cnt; e += ${wg}u) {
          let i = q + 1u + e / 16u;
          let cc = e % 16u;
          us[i * 16u + cc] = us[i * 16u + cc] - mul(ls[i * (i - 1u) / 2u + q], us[q * 16u + cc]);
        }
        workgroupBarrier();
      }
      for (var e = tid; e < c0 * 16u; e += ${wg}u) {
        let cc = e % 16u;
        if (cc < w16) { st_(e / 16u, c0 + cc, us[e]); }
      }
    }
    // 2. rows c0 .. m - 1 into registers, less L21 U12 (the left-looking update)
    for (var q = 0u; q < ${rpt}u; q++) {
      let r = tid + q * ${wg}u;
      let live = r >= c0 && r < m;
      for (var cc = 0u; cc < 16u; cc++) {
        var v = zero();
        if (live && cc < w16) { v = ld(r, c0 + cc); }
        reg[q * 16u + cc] = v;
      }
      if (live) {
        for (var k = 0u; k < c0; k++) {
          let l = ld(r, k);
          for (var cc = 0u; cc < 16u; cc++) {
            reg[q * 16u + cc] = reg[q * 16u + cc] - mul(l, us[k * 16u + cc]);
          }
        }
      }
    }
    // 3. the 16 columns in registers, right-looking, partial pivoting; each interchange
    //    also moves the panel's other columns (global memory, one thread per column)
    for (var jj = 0u; jj < 16u; jj++) {
      let j = c0 + jj;
      if (jj < w16 && j < kmax) {
        var best = R(-1.0);
        var bi = j;
        for (var q = 0u; q < ${rpt}u; q++) {
          let r = tid + q * ${wg}u;
          if (r >= j && r < m) {
            let v = cabs1(reg[q * 16u + jj]);
            if (v > best) { best = v; bi = r; }
          }
        }
${pivot}
        for (var q = 0u; q < ${rpt}u; q++) {
          let r = tid + q * ${wg}u;
          if (r == p) { for (var c = 0u; c < 16u; c++) { prow[c] = reg[q * 16u + c]; } }
          if (r == j) { for (var c = 0u; c < 16u; c++) { jrow[c] = reg[q * 16u + c]; } }
        }
        if (tid == 0u) {
          ipiv[${ipiv_off} + b * ${p_bs} + j] = i32(${pbase} + p);
          if (pv == R(0.0)) { atomicOr(&st[0], 1u); }
        }
        if (p != j && tid < nc && (tid < c0 || tid >= c0 + 16u)) {
          let t = ld(j, tid);
          st_(j, tid, ld(p, tid));
          st_(p, tid, t);
        }
        workgroupBarrier();
        let d = prow[jj];
        for (var q = 0u; q < ${rpt}u; q++) {
          let r = tid + q * ${wg}u;
          if (r == p) { for (var c = 0u; c < 16u; c++) { reg[q * 16u + c] = jrow[c]; } }
          if (r == j) { for (var c = 0u; c < 16u; c++) { reg[q * 16u + c] = prow[c]; } }
          if (r > j && r < m) {
            var l = reg[q * 16u + jj];
            if (pv != R(0.0)) { l = dv(l, d); reg[q * 16u + jj] = l; }
            for (var c = 0u; c < 16u; c++) {
              if (c > jj) { reg[q * 16u + c] = reg[q * 16u + c] - mul(l, prow[c]); }
            }
          }
        }
        workgroupBarrier();
      }
    }
    // 4. back to global memory
    for (var q = 0u; q < ${rpt}u; q++) {
      let r = tid + q * ${wg}u;
      if (r >= c0 && r < m) {
        for (var cc = 0u; cc < 16u; cc++) {
          if (cc < w16) { st_(r, c0 + cc, reg[q * 16u + cc]); }
        }
      }
    }
    storageBarrier();
    workgroupBarrier();
  }
}
""", "linalg_lu_panel")


def shuffles(t):
    """WGSL ``shr`` / ``sht``: subgroupShuffleXor of the real / element type (64-bit
    values travel as two u32)."""
    if "64" in t.name and t.name != "complex64":  # float64, complex128
        out = ("fn shr(v: R, k: u32) -> R { return bitcast<R>(subgroupShuffleXor("
               "bitcast<vec2<u32>>(v), k)); }\n")
        if t.name == "complex128":
            return out + "fn sht(v: T, k: u32) -> T { return T(shr(v.x, k), shr(v.y, k)); }"
        return out + "fn sht(v: T, k: u32) -> T { return shr(v, k); }"
    return ("fn shr(v: R, k: u32) -> R { return subgroupShuffleXor(v, k); }\n"
            "fn sht(v: T, k: u32) -> T { return subgroupShuffleXor(v, k); }")


_PIVOT_WG_TREE = """        rv[tid] = best;
        ri[tid] = bi;
        workgroupBarrier();
        for (var s = ${wg}u / 2u; s > 0u; s >>= 1u) {
          if (tid < s) {
            let ov = rv[tid + s];
            let oi = ri[tid + s];
            if (ov > rv[tid] || (ov == rv[tid] && oi < ri[tid])) { rv[tid] = ov; ri[tid] = oi; }
          }
          workgroupBarrier();
        }
        let pv = rv[0];
        let p = ri[0];"""

# subgroup shuffles inside each subgroup, one barrier, then every invocation scans the
# subgroups' candidates (same choice as the tree: the largest, the first row on ties)
_PIVOT_WG_SUBGROUP = """        var bv = best;
        var bx = bi;
        for (var msk = 1u; msk < min(sgs, ${wg}u); msk <<= 1u) {
          let ov = shr(bv, msk);
          let oi = subgroupShuffleXor(bx, msk);
          if (ov > bv || (ov == bv && oi < bx)) { bv = ov; bx = oi; }
        }
        if (sgi == 0u) { rv[sid] = bv; ri[sid] = bx; }
        workgroupBarrier();
        var pv = rv[0];
        var p = ri[0];
        for (var q = 1u; q < nsg; q++) {
          let ov = rv[q];
          let oi = ri[q];
          if (ov > pv || (ov == pv && oi < p)) { pv = ov; p = oi; }
        }"""


@dataclasses.dataclass(frozen=True)
class LUPanelSpec(KernelSpec):
    """LU with partial pivoting of an m x nc panel (nc <= nb, m <= rpt * wg) in one
    dispatch: blocks of 16 columns left-looking (U12 by a forward substitution in
    workgroup memory, then L21 U12 subtracted as the rows are loaded into registers), each
    block factorised in registers as LULeafSpec does; interchanges move whole panel rows."""

    t: WType
    wg: int
    rpt: int
    nb: int = 64
    sg: bool = False  # pivot search by subgroup shuffles (64-bit values as two u32)

    def layout(self, caps):
        return Layout([Buf("A", self.t.arr, "rw"), Buf("ipiv", "i32", "rw"),
                       Buf("st", "atomic<u32>", "rw", offset=False)],
                      ["m", "nc", "nbat", "a_rs", "a_cs", "a_bs", "p_bs", "pbase"], caps)

    def render(self, caps):
        sg = self.sg and caps.subgroup
        pivot = (_PIVOT_WG_SUBGROUP if sg else _PIVOT_WG_TREE).replace("${wg}", str(self.wg))
        sgargs = (", @builtin(subgroup_size) sgs: u32, @builtin(subgroup_invocation_id) "
                  "sgi: u32, @builtin(subgroup_id) sid: u32, @builtin(num_subgroups) nsg: u32"
                  ) if sg else ""
        pre = prelude(self.t) + ("\n" + shuffles(self.t) if sg else "")
        return _LU_PANEL.render(self.layout(caps).tokens(), prelude=pre,
                                wg=self.wg, rpt=self.rpt, regs=self.rpt * 16,
                                nb16=self.nb * 16, pivot=pivot, sgargs=sgargs,
                                lsn=max(1, (self.nb - 16) * (self.nb - 17) // 2))

    def shared_bytes(self):
        r = 8 if "64" in self.t.name and self.t.name != "complex64" else 4
        return (self.wg * (r + 4) + (32 + self.nb * 16 + max(1, (self.nb - 16) *
                (self.nb - 17) // 2)) * self.t.itemsize)

    def needs(self):
        return ("f64",) if self.t.need == "shader-f64" else ()


_TRSV = Template("""${prelude}
${layout}
var<workgroup> xs: array<T, ${nmaxn}>;

// the triangle in the order the solve walks it: forward rows for a lower triangle,
// backward (i -> n - 1 - i) for an upper one, so both are a lower-triangular walk
fn tri(tb: u32, i: u32, j: u32) -> T {
  return Tm[tb + ${ri} * ${t_rs} + ${rj} * ${t_cs}];
}

@compute @workgroup_size(${wg})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>,
        @builtin(local_invocation_index) tid: u32) {
  let gi = wid.x + wid.y * nw.x;
  let kx = ${kx};
  if (gi >= kx * ${nbat}) { return; }
  let b = gi / kx;
  let v = gi % kx;
  let n = ${n};
  let tb = ${Tm_off} + b * ${t_bs};
  let xb = ${X_off} + b * ${x_bs} + v * ${x_cs};
  for (var i = tid; i < n; i += ${wg}u) { xs[i] = X[xb + ${rx} * ${x_rs}]; }
  workgroupBarrier();
  for (var j0 = 0u; j0 < n; j0 += ${bs}u) {
    let je = min(j0 + ${bs}u, n);
    // the diagonal block, a row at a time; x_r (final) is written back one step late, so
    // every invocation of step r reads the same unscaled x_r
    for (var r = j0; r < je; r++) {
      workgroupBarrier();
      if (tid == 0u && r > j0) { xs[r - 1u] = ${fin_prev}; }
      let xr = ${fin_r};
      for (var i = r + 1u + tid; i < je; i += ${wg}u) { xs[i] = xs[i] - mul(tri(tb, i, r), xr); }
    }
    workgroupBarrier();
    if (tid == 0u) { xs[je - 1u] = ${fin_last}; }
    workgroupBarrier();
    // the rows below the block, a row per invocation (its stretch of the triangle's row is
    // contiguous in memory)
    for (var i = je + tid; i < n; i += ${wg}u) {
      var s = zero();
      for (var r = j0; r < je; r++) { s += mul(tri(tb, i, r), xs[r]); }
      xs[i] = xs[i] - s;
    }
  }
  workgroupBarrier();
  for (var i = tid; i < n; i += ${wg}u) { X[xb + ${rx} * ${x_rs}] = xs[i]; }
}
""", "linalg_trsv")


@dataclasses.dataclass(frozen=True)
class TrsvSpec(KernelSpec):
    """op(T) x = b for a whole n x n triangle and few right-hand sides in one dispatch:
    one workgroup per (matrix, right-hand side) with the vector in workgroup memory
    (n <= nmaxn), blocks of ``bs`` rows: the diagonal block row by row, the rows below by
    one product each."""

    t: WType
    lower: bool
    unit: bool
    nmaxn: int
    wg: int = 256
    bs: int = 32

    def layout(self, caps):
        return Layout([Buf("Tm", self.t.arr), Buf("X", self.t.arr, "rw")],
                      ["n", "kx", "nbat", "t_rs", "t_cs", "t_bs", "x_rs", "x_cs", "x_bs"],
                      caps)

    def render(self, caps):
        lay = self.layout(caps)
        if self.lower:
            ri, rj, rx = "i", "j", "i"
        else:
            ri, rj, rx = "(${n} - 1u - i)", "(${n} - 1u - j)", "(n - 1u - i)"
        if self.unit:
            fin_prev, fin_r, fin_last = "xs[r - 1u]", "xs[r]", "xs[je - 1u]"
        else:
            fin_prev = "dv(xs[r - 1u], tri(tb, r - 1u, r - 1u))"
            fin_r = "dv(xs[r], tri(tb, r, r))"
            fin_last = "dv(xs[je - 1u], tri(tb, je - 1u, je - 1u))"
        tk = lay.tokens()
        ri, rj = ri.replace("${n}", tk["n"]), rj.replace("${n}", tk["n"])
        return _TRSV.render(tk, prelude=prelude(self.t), nmaxn=self.nmaxn,
                            wg=self.wg, bs=self.bs, ri=ri, rj=rj, rx=rx, fin_prev=fin_prev,
                            fin_r=fin_r, fin_last=fin_last)

    def needs(self):
        return ("f64",) if self.t.need == "shader-f64" else ()


_TRSM_TILE = Template("""${prelude}
${layout}
var<workgroup> tl: array<T, 2080>;
var<workgroup> xt: array<T, 1024>;

// walk order: rows ascending for a lower triangle, descending for an upper one
fn act(i: u32) -> u32 { return ${act}; }
fn li(i: u32, k: u32) -> u32 { return i * (i + 1u) / 2u + k; }

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>,
        @builtin(local_invocation_index) tid: u32) {
  let gi = wid.x + wid.y * nw.x;
  let nv = ${nv};
  let ntile = (nv + 15u) / 16u;
  if (gi >= ntile * ${nbat}) { return; }
  let b = gi / ntile;
  let v0 = (gi % ntile) * 16u;
  let n = min(${n}, 64u);  // (the caller's n <= 64: tl / xt indices in range by construction)
  let es = ${x_es};
  let tb = ${TOFF} + b * ${t_bs};
  let xb = ${X_off} + b * ${x_bs};
  for (var e = tid; e < n * n; e += 256u) {
    let i = e / n;
    let k = e % n;
    if (k <= i) { tl[li(i, k)] = ${tconj}(${TBUF}[tb + act(i) * ${t_rs} + act(k) * ${t_cs}]); }
  }
  for (var e = tid; e < n * 16u; e += 256u) {
    let i = e / 16u;
    let v = e % 16u;
    var x = zero();
    ${xload}
    xt[e] = x;
  }
  workgroupBarrier();
  for (var q = 0u; q < n; q++) {
    // row q - 1 (used raw by every invocation of the previous step) takes its divide now
    if (q > 0u && tid < 16u) { xt[(q - 1u) * 16u + tid] = ${fin_prev}; }
    let cnt = (n - q - 1u) * 16u;
    for (var e = tid; e < cnt; e += 256u) {
      let i = q + 1u + e / 16u;
      let v = e % 16u;
      xt[i * 16u + v] = xt[i * 16u + v] - mul(tl[li(i, q)], ${xq});
    }
    workgroupBarrier();
  }
  if (tid < 16u) { xt[(n - 1u) * 16u + tid] = ${fin_last}; }
  workgroupBarrier();
  for (var e = tid; e < n * 16u; e += 256u) {
    let i = e / 16u;
    let v = e % 16u;
    if (v0 + v < nv) { X[xb + (v0 + v) * ${x_vs} + act(i) * es] = xt[e]; }
  }
}
""", "linalg_trsm_tile")


@dataclasses.dataclass(frozen=True)
class TrsmTileSpec(KernelSpec):
    """TrsmSpec's solves (n <= 64) with 16 vectors per workgroup in workgroup memory and
    the triangle packed there too: a column of the triangle at a time over all (row,
    vector) pairs, one barrier per column, instead of one invocation walking n^2 / 2
    products per vector."""

    t: WType
    lower: bool
    unit: bool
    conj: bool
    same: bool = False
    # trusted (compiled without wgpu's runtime checks, KernelSpec.runtime_checks):
    # every index is structural: n is clamped to 64 in the kernel, so tl[li(i, k)]
    # (k <= i < n) < 2080 and xt[i * 16 + v] < 1024; the triangle / vectors through
    # the caller's words with i, k < n and v0 + v < nv; no index comes from data;
    # every loop is counted by n * n, n * 16, n or (n - q - 1) * 16
    trusted: bool = False
    # 1 / -1: the vectors are not read, they start as the identity's columns (times -1):
    # T^-1 (-T^-1) into X without an identity built and copied first
    ident: int = 0

    def layout(self, caps):
        return _triangle_vectors_layout(self.t, self.same, caps)

    def render(self, caps):
        tk = self.layout(caps).tokens()
        act = "i" if self.lower else f"({tk['n']} - 1u - i)"
        if self.unit:
            fin_prev = "xt[(q - 1u) * 16u + tid]"
            fin_last = "xt[(n - 1u) * 16u + tid]"
            xq = "xt[q * 16u + v]"
        else:
            fin_prev = "dv(xt[(q - 1u) * 16u + tid], tl[li(q - 1u, q - 1u)])"
            fin_last = "dv(xt[(n - 1u) * 16u + tid], tl[li(n - 1u, n - 1u)])"
            xq = "dv(xt[q * 16u + v], tl[li(q, q)])"
        if self.ident:
            one = "one()" if self.ident > 0 else "(zero() - one())"
            xload = f"if (act(i) == v0 + v) {{ x = {one}; }}"
        else:
            xload = f"if (v0 + v < nv) {{ x = X[xb + (v0 + v) * {tk['x_vs']} + act(i) * es]; }}"
        return _TRSM_TILE.render(
            tk, prelude=prelude(self.t), act=act, xload=xload, tconj="cj" if self.conj else "",
            TOFF=tk["t_off"] if self.same else tk["Tm_off"], TBUF="X" if self.same else "Tm",
            fin_prev=fin_prev, fin_last=fin_last, xq=xq)

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
