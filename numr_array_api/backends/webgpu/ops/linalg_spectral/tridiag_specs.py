"""Kernels of the tridiagonal eigh path (tridiag.py), real float32 / float64.

TrdStepSpec   one workgroup per matrix: finishes w of the previous panel column (LAPACK
              latrd), then updates column j with the panel's reflectors and forms its
              Householder reflector (d[j], e[j], tau[j], v).
TrdSymvSpec   p = A22 v over many workgroups (rows of the symmetric trailing matrix, read
              along rows: coalesced), plus 2 NB workgroups for the dot products V^T v and
              W^T v of the panel corrections.
BisectSpec    eigenvalues of the tridiagonal T by bisection with Sturm counts, one
              invocation per eigenvalue (ascending index), bounded iterations.
InvIterSpec   eigenvectors of T by inverse iteration (tridiagonal LU with partial
              pivoting), one invocation per eigenvalue; T is split where |e| is negligible,
              and a cluster of close eigenvalues of one block is computed by its first
              member's invocation, serially, with modified Gram-Schmidt against the
              cluster's earlier vectors.
GatherSpec    the eigenvector slots of InvIterSpec into eigenvalue order.
"""

from __future__ import annotations

import dataclasses

from ...codegen.layout import Buf, Layout
from ...codegen.spec import KernelSpec
from ...codegen.template import Template
from ...codegen.types import WType

NB = 32        # panel width of the blocked tridiagonalisation (columns per GEMM update)

_PRE = """alias R = ${R};
const EPS: R = R(${eps});
const SAFMIN: R = R(${safmin});
fn bad(x: R) -> bool { ${bad} }
"""

_CONST = {
    "f32": dict(eps="5.9604644775390625e-8", safmin="1.1754943508222875e-38",
                bad="return (bitcast<u32>(x) & 0x7f800000u) == 0x7f800000u;",
                nan="bitcast<f32>(0x7fc00000u)"),
    "f64": dict(eps="1.1102230246251565e-16", safmin="2.2250738585072014e-308",
                bad="return (bitcast<u64>(x) & 0x7ff0000000000000lu) == 0x7ff0000000000000lu;",
                nan="bitcast<f64>(0x7ff8000000000000lu)"),
}


def _pre(t):
    c = _CONST[t.val]
    return Template(_PRE, "trd_pre").render(R=t.val, eps=c["eps"], safmin=c["safmin"],
                                            bad=c["bad"])


def _needs(t):
    return ("f64", "int64") if t.val == "f64" else ()


# ---- tridiagonalisation ----------------------------------------------------------------

_STEP = Template("""${pre}
${layout}
var<workgroup> red: array<R, ${wg}>;
var<workgroup> shv: array<R, 4>;

fn rsum(tid: u32, x: R) -> R {
  red[tid] = x;
  workgroupBarrier();
  for (var s = ${wg}u / 2u; s > 0u; s >>= 1u) {
    if (tid < s) { red[tid] = red[tid] + red[tid + s]; }
    workgroupBarrier();
  }
  let r = red[0];
  workgroupBarrier();
  return r;
}

fn rmax(tid: u32, x: R) -> R {
  red[tid] = x;
  workgroupBarrier();
  for (var s = ${wg}u / 2u; s > 0u; s >>= 1u) {
    if (tid < s) { red[tid] = max(red[tid], red[tid + s]); }
    workgroupBarrier();
  }
  let r = red[0];
  workgroupBarrier();
  return r;
}

@compute @workgroup_size(${wg})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) tid: u32) {
  let b = wid.y;
  if (b >= ${nbat}) { return; }
  let n = ${n};
  let j = ${j};
  let jj = ${jj};
  let NBu = ${nb}u;
  let ab = ${A_off} + b * n * n;
  let xb = ${NX_off} + b * n * 2u * NBu;     // NX: (n, 2 NB): [-V | -W]
  let yb = ${YT_off} + b * 2u * NBu * n;     // YT: (2 NB, n): [W^T ; V^T]
  // ---- w of column j - 1 (panel column jj - 1) from p = A22 v and the dot products
  if (jj > 0u) {
    let q = jj - 1u;
    let jp = j - 1u;
    let tau = TAU[${TAU_off} + b * n + jp];
    var part = R(0.0);
    for (var i = tid; i < n; i += ${wg}u) {
      var w = R(0.0);
      if (i > jp) {
        var acc = PV[${PV_off} + b * n + i];
        for (var c = 0u; c < q; c++) {
          acc += NX[xb + i * 2u * NBu + c] * DOT[${DOT_off} + b * 2u * NBu + c]
               + NX[xb + i * 2u * NBu + NBu + c] * DOT[${DOT_off} + b * 2u * NBu + NBu + c];
        }
        w = tau * acc;
        part += w * YT[yb + (NBu + q) * n + i];
      }
      YT[yb + q * n + i] = w;
    }
    let alpha = R(-0.5) * tau * rsum(tid, part);
    for (var i = tid; i < n; i += ${wg}u) {
      var w = R(0.0);
      if (i > jp) { w = YT[yb + q * n + i] + alpha * YT[yb + (NBu + q) * n + i]; }
      YT[yb + q * n + i] = w;
      NX[xb + i * 2u * NBu + NBu + q] = -w;
    }
    storageBarrier();
    workgroupBarrier();
  }
  if (${fin} != 0u) { return; }
  // ---- column j updated with the panel's reflectors: a = A[j:, j] - V W[j]^T - W V[j]^T
  var mx = R(0.0);
  for (var i = tid; i < n; i += ${wg}u) {
    var a = R(0.0);
    if (i >= j) {
      a = A[ab + j * n + i];
      for (var c = 0u; c < jj; c++) {
        a += NX[xb + i * 2u * NBu + c] * YT[yb + c * n + j]
           + NX[xb + i * 2u * NBu + NBu + c] * YT[yb + (NBu + c) * n + j];
      }
      if (i == j) { D[${D_off} + b * n + j] = a; }
      if (i == j + 1u) { shv[0] = a; }
      if (i > j + 1u) { mx = max(mx, abs(a)); }
    }
    YT[yb + (NBu + jj) * n + i] = a;      // a, then v, in the V^T row of this column
  }
  if (j + 1u >= n) { return; }
  let scale = rmax(tid, mx);
  var ss = R(0.0);
  if (scale > R(0.0)) {
    for (var i = tid; i < n; i += ${wg}u) {
      if (i > j + 1u) { let a = YT[yb + (NBu + jj) * n + i] / scale; ss += a * a; }
    }
  }
  let xs = rsum(tid, ss);      // workgroupBarrier inside: shv[0] visible
  let alpha = shv[0];
  let xnorm = scale * sqrt(xs);
  var beta = alpha;
  var tau = R(0.0);
  var scal = R(0.0);
  if (xnorm > R(0.0) || bad(xnorm) || bad(alpha)) {
    let m = max(abs(alpha), xnorm);
    let h = m * sqrt((alpha / m) * (alpha / m) + (xnorm / m) * (xnorm / m));
    beta = select(h, -h, alpha >= R(0.0));
    tau = (beta - alpha) / beta;
    scal = R(1.0) / (alpha - beta);
  }
  for (var i = tid; i < n; i += ${wg}u) {
    var v = R(0.0);
    if (i == j + 1u) { v = R(1.0); }
    if (i > j + 1u) { v = YT[yb + (NBu + jj) * n + i] * scal; }
    YT[yb + (NBu + jj) * n + i] = v;
    NX[xb + i * 2u * NBu + jj] = -v;
    REF[${REF_off} + b * n * n + i * n + j] = v;
  }
  if (tid == 0u) {
    E[${E_off} + b * n + j] = beta;
    TAU[${TAU_off} + b * n + j] = tau;
  }
}
""", "trd_step")


@dataclasses.dataclass(frozen=True)
class TrdStepSpec(KernelSpec):
    t: WType
    wg: int

    def layout(self, caps):
        a = self.t.arr
        return Layout([Buf("A", a), Buf("PV", a), Buf("DOT", a), Buf("NX", a, "rw"),
                       Buf("YT", a, "rw"), Buf("REF", a, "rw"), Buf("D", a, "rw"),
                       Buf("E", a, "rw"), Buf("TAU", a, "rw")],
                      ["n", "nbat", "j", "jj", "fin"], caps)

    def render(self, caps):
        return _STEP.render(self.layout(caps).tokens(), pre=_pre(self.t), wg=self.wg,
                            nb=NB)

    def needs(self):
        return _needs(self.t)


_SYMV = Template("""${pre}
${layout}
var<workgroup> red: array<R, 256>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) tid: u32) {
  let b = wid.y;
  if (b >= ${nbat}) { return; }
  let n = ${n};
  let j = ${j};
  let jj = ${jj};
  let NBu = ${nb}u;
  let nrb = ${nrb};
  let yb = ${YT_off} + b * 2u * NBu * n;
  let vrow = yb + (NBu + jj) * n;
  var s = R(0.0);
  var seg = 256u;
  if (wid.x < nrb) {
    // ${rpw} rows per workgroup, 256 / ${rpw} threads per row
    seg = 256u / ${rpw}u;
    let r = tid / seg;
    let l = tid % seg;
    let i = j + 1u + wid.x * ${rpw}u + r;
    if (i < n) {
      let ar = ${A_off} + b * n * n + i * n;
      for (var c = j + 1u + l; c < n; c += seg) { s += A[ar + c] * YT[vrow + c]; }
    }
  } else {
    // the dot products W[:, c] . v (c < NB) and V[:, c - NB] . v
    let c = wid.x - nrb;
    if ((c < jj) || (c >= NBu && c < NBu + jj)) {
      for (var i = j + 1u + tid; i < n; i += 256u) { s += YT[yb + c * n + i] * YT[vrow + i]; }
    }
  }
  red[tid] = s;
  workgroupBarrier();
  for (var h = 128u; h > 0u; h >>= 1u) {
    if (tid % seg < h && h < seg) { red[tid] = red[tid] + red[tid + h]; }
    workgroupBarrier();
  }
  if (tid % seg == 0u) {
    if (wid.x < nrb) {
      let i = j + 1u + wid.x * ${rpw}u + tid / seg;
      if (i < n) { PV[${PV_off} + b * n + i] = red[tid]; }
    } else {
      DOT[${DOT_off} + b * 2u * NBu + wid.x - nrb] = red[tid];
    }
  }
}
""", "trd_symv")

SYMV_RPW = 4


@dataclasses.dataclass(frozen=True)
class TrdSymvSpec(KernelSpec):
    t: WType

    def layout(self, caps):
        a = self.t.arr
        return Layout([Buf("A", a), Buf("YT", a), Buf("PV", a, "rw"), Buf("DOT", a, "rw")],
                      ["n", "nbat", "j", "jj", "nrb"], caps)

    def render(self, caps):
        return _SYMV.render(self.layout(caps).tokens(), pre=_pre(self.t), nb=NB,
                            rpw=SYMV_RPW)

    def needs(self):
        return _needs(self.t)


# ---- tridiagonal eigenvalues: bisection -------------------------------------------------

# shared by bisection and inverse iteration: norms and the Sturm count of T - x I on rows
# [p, q] (scaled by sc), e^2 below pivmin treated as a split by the pivmin guard
_STURM = """
fn sturm(db: u32, p: u32, q: u32, x: R, sc: R, pivmin: R, split: R) -> u32 {
  var cnt = 0u;
  var v = D[db + p] * sc - x;
  if (abs(v) < pivmin) { v = -pivmin; }
  if (v < R(0.0)) { cnt += 1u; }
  for (var i = p + 1u; i <= q; i++) {
    var e = E[db + i - 1u] * sc;
    if (abs(e) <= split) { e = R(0.0); }
    v = D[db + i] * sc - x - e * e / v;
    if (abs(v) < pivmin) { v = -pivmin; }
    if (v < R(0.0)) { cnt += 1u; }
  }
  return cnt;
}
"""

_BISECT = Template("""${pre}
${layout}
${sturm}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let b = gid.y;
  let k = gid.x;
  let n = ${n};
  if (b >= ${nbat} || k >= n) { return; }
  let db = ${D_off} + b * n;
  // scale (max |d|, |e|), finiteness
  var s = R(0.0);
  var nonfinite = false;
  for (var i = 0u; i < n; i++) {
    let d = D[db + i];
    var e = R(0.0);
    if (i + 1u < n) { e = E[db + i]; }
    if (bad(d) || bad(e)) { nonfinite = true; }
    s = max(s, max(abs(d), abs(e)));
  }
  if (nonfinite) { W[${W_off} + b * n + k] = ${nan}; return; }
  if (s == R(0.0)) { W[${W_off} + b * n + k] = R(0.0); return; }
  let sc = R(1.0) / s;
  // Gershgorin interval of the scaled T
  var lo = R(0.0);
  var hi = R(0.0);
  var emax = R(0.0);
  for (var i = 0u; i < n; i++) {
    var r = R(0.0);
    if (i > 0u) { r += abs(E[db + i - 1u] * sc); }
    if (i + 1u < n) { let e = abs(E[db + i] * sc); r += e; emax = max(emax, e); }
    let d = D[db + i] * sc;
    if (i == 0u) { lo = d - r; hi = d + r; } else { lo = min(lo, d - r); hi = max(hi, d + r); }
  }
  let tn = max(abs(lo), abs(hi));
  let pivmin = SAFMIN * max(R(1.0), emax * emax) * R(4.0);
  lo = lo - R(4.0) * EPS * tn - pivmin;
  hi = hi + R(4.0) * EPS * tn + pivmin;
  let abstol = EPS * tn * R(0.125);
  for (var it = 0u; it < ${maxit}u; it++) {
    if (hi - lo <= max(abstol, R(4.0) * EPS * max(abs(lo), abs(hi)))) { break; }
    let mid = R(0.5) * (lo + hi);
    if (sturm(db, 0u, n - 1u, mid, sc, pivmin, R(-1.0)) > k) { hi = mid; } else { lo = mid; }
  }
  W[${W_off} + b * n + k] = R(0.5) * (lo + hi) * s;
}
""", "trd_bisect")

BISECT_MAXIT = {"f32": 48, "f64": 80}


@dataclasses.dataclass(frozen=True)
class BisectSpec(KernelSpec):
    t: WType

    def layout(self, caps):
        a = self.t.arr
        return Layout([Buf("D", a), Buf("E", a), Buf("W", a, "rw")], ["n", "nbat"], caps)

    def render(self, caps):
        return _BISECT.render(self.layout(caps).tokens(), pre=_pre(self.t), sturm=_STURM,
                              nan=_CONST[self.t.val]["nan"], maxit=BISECT_MAXIT[self.t.val])

    def needs(self):
        return _needs(self.t)


# ---- tridiagonal eigenvectors: inverse iteration ----------------------------------------

SPLIT_C = 8.0      # |e| <= SPLIT_C eps ||T|| splits T (a perturbation of that size)
ORTOL = 1e-3       # eigenvalues of one block closer than ORTOL ||T||: a cluster (LAPACK stein)
INV_ITERS = 3      # inverse iteration solves per vector

_INVIT = Template("""${pre}
${layout}
${sturm}

var<private> sb: u32;
var<private> zb: u32;
var<private> kk: u32;
var<private> nn: u32;

fn sx(f: u32, i: u32) -> u32 { return sb + (f * nn + i) * nn + kk; }
fn zx(i: u32, slot: u32) -> u32 { return zb + i * nn + slot; }

fn hashr(x: u32) -> R {
  var h = x * 747796405u + 2891336453u;
  h = ((h >> ((h >> 28u) + 4u)) ^ h) * 277803737u;
  h = (h >> 22u) ^ h;
  return R(f32(h >> 8u) / 8388608.0 - 1.0);
}

// the local eigenvalue li (ascending) of block [p, q] of the scaled T, by bisection
fn bis(db: u32, p: u32, q: u32, li: u32, sc: R, pivmin: R, split: R, tn: R) -> R {
  var lo = R(0.0);
  var hi = R(0.0);
  for (var i = p; i <= q; i++) {
    var r = R(0.0);
    if (i > p) { r += abs(E[db + i - 1u] * sc); }
    if (i < q) { r += abs(E[db + i] * sc); }
    let d = D[db + i] * sc;
    if (i == p) { lo = d - r; hi = d + r; } else { lo = min(lo, d - r); hi = max(hi, d + r); }
  }
  lo = lo - R(4.0) * EPS * tn - pivmin;
  hi = hi + R(4.0) * EPS * tn + pivmin;
  let abstol = EPS * tn * R(0.125);
  for (var it = 0u; it < ${maxit}u; it++) {
    if (hi - lo <= max(abstol, R(4.0) * EPS * max(abs(lo), abs(hi)))) { break; }
    let mid = R(0.5) * (lo + hi);
    if (sturm(db, p, q, mid, sc, pivmin, split) > li) { hi = mid; } else { lo = mid; }
  }
  return R(0.5) * (lo + hi);
}

fn pv(x: R, pert: R) -> R {
  if (abs(x) < pert) { return select(pert, -pert, x < R(0.0)); }
  return x;
}

// T - mu I on [p, q] = P L U: U's diagonals (f0, f1, f2), multipliers (f3), pivots (f4)
fn factor(db: u32, p: u32, q: u32, mu: R, sc: R) {
  for (var i = p; i <= q; i++) {
    S[sx(0u, i)] = D[db + i] * sc - mu;
    var e = R(0.0);
    if (i < q) { e = E[db + i] * sc; }
    S[sx(1u, i)] = e;
    S[sx(2u, i)] = R(0.0);
  }
  for (var i = p; i < q; i++) {
    let sub = E[db + i] * sc;
    let di = S[sx(0u, i)];
    if (abs(di) >= abs(sub)) {
      var l = R(0.0);
      if (di != R(0.0)) { l = sub / di; }
      S[sx(3u, i)] = l;
      S[sx(4u, i)] = R(0.0);
      S[sx(0u, i + 1u)] = S[sx(0u, i + 1u)] - l * S[sx(1u, i)];
    } else {
      let l = di / sub;
      let d1 = S[sx(0u, i + 1u)];
      let tmp = S[sx(1u, i)];
      S[sx(0u, i)] = sub;
      S[sx(3u, i)] = l;
      S[sx(4u, i)] = R(1.0);
      S[sx(1u, i)] = d1;
      S[sx(0u, i + 1u)] = tmp - l * d1;
      if (i + 1u < q) {
        let u1 = S[sx(1u, i + 1u)];
        S[sx(2u, i)] = u1;
        S[sx(1u, i + 1u)] = -l * u1;
      }
    }
  }
}

fn solve(p: u32, q: u32, slot: u32, pert: R) {
  for (var i = p; i < q; i++) {
    let l = S[sx(3u, i)];
    if (S[sx(4u, i)] == R(0.0)) {
      ZS[zx(i + 1u, slot)] = ZS[zx(i + 1u, slot)] - l * ZS[zx(i, slot)];
    } else {
      let t = ZS[zx(i, slot)];
      let y1 = ZS[zx(i + 1u, slot)];
      ZS[zx(i, slot)] = y1;
      ZS[zx(i + 1u, slot)] = t - l * y1;
    }
  }
  let m = q - p + 1u;
  for (var ii = 0u; ii < m; ii++) {
    let i = q - ii;
    var s = ZS[zx(i, slot)];
    if (i + 1u <= q) { s -= S[sx(1u, i)] * ZS[zx(i + 1u, slot)]; }
    if (i + 2u <= q) { s -= S[sx(2u, i)] * ZS[zx(i + 2u, slot)]; }
    ZS[zx(i, slot)] = s / pv(S[sx(0u, i)], pert);
  }
}

fn normalize(p: u32, q: u32, slot: u32) {
  var mx = R(0.0);
  for (var i = p; i <= q; i++) { mx = max(mx, abs(ZS[zx(i, slot)])); }
  if (!(mx > R(0.0))) { return; }
  var ss = R(0.0);
  for (var i = p; i <= q; i++) { let y = ZS[zx(i, slot)] / mx; ss += y * y; }
  let f = R(1.0) / (mx * sqrt(ss));
  for (var i = p; i <= q; i++) { ZS[zx(i, slot)] = ZS[zx(i, slot)] * f; }
}

fn mgs(p: u32, q: u32, c0: u32, c1: u32, slot: u32) {
  for (var c = c0; c < c1; c++) {
    var dot = R(0.0);
    for (var i = p; i <= q; i++) { dot += ZS[zx(i, c)] * ZS[zx(i, slot)]; }
    for (var i = p; i <= q; i++) { ZS[zx(i, slot)] = ZS[zx(i, slot)] - dot * ZS[zx(i, c)]; }
  }
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let b = gid.y;
  let k = gid.x;
  let n = ${n};
  if (b >= ${nbat} || k >= n) { return; }
  nn = n;
  kk = k;
  sb = ${S_off} + b * 5u * n * n;
  zb = ${ZS_off} + b * n * n;
  let db = ${D_off} + b * n;
  let so = ${SLOT_off} + b * n + k;
  var s = R(0.0);
  var nonfinite = false;
  for (var i = 0u; i < n; i++) {
    let d = D[db + i];
    var e = R(0.0);
    if (i + 1u < n) { e = E[db + i]; }
    if (bad(d) || bad(e) || bad(W[${W_off} + b * n + i])) { nonfinite = true; }
    s = max(s, max(abs(d), abs(e)));
  }
  SLOT[so] = k;
  if (nonfinite) {
    for (var i = 0u; i < n; i++) { ZS[zx(i, k)] = ${nan}; }
    return;
  }
  if (s == R(0.0)) { ZS[zx(k, k)] = R(1.0); return; }
  let sc = R(1.0) / s;
  var tn = R(0.0);
  var emax = R(0.0);
  for (var i = 0u; i < n; i++) {
    var r = abs(D[db + i] * sc);
    if (i > 0u) { r += abs(E[db + i - 1u] * sc); }
    if (i + 1u < n) { let e = abs(E[db + i] * sc); r += e; emax = max(emax, e); }
    tn = max(tn, r);
  }
  let pivmin = SAFMIN * max(R(1.0), emax * emax) * R(4.0);
  let split = R(${split_c}) * EPS * tn;
  let ttol = (R(${split_c}) + R(4.0)) * EPS * tn * R(2.0);
  let lam = W[${W_off} + b * n + k] * sc;
  // the block (and local index) of eigenvalue k: eigenvalues within ttol of lam form a tie
  // group, handed out to the blocks in block order
  var below = 0u;
  var p = 0u;
  for (var i = 0u; i < n; i++) {
    if (i + 1u == n || abs(E[db + i] * sc) <= split) {
      below += sturm(db, p, i, lam - ttol, sc, pivmin, split);
      p = i + 1u;
    }
  }
  if (k < below) { return; }
  var t = k - below;
  var bp = n;
  var bq = n;
  var li = 0u;
  p = 0u;
  for (var i = 0u; i < n; i++) {
    if (i + 1u == n || abs(E[db + i] * sc) <= split) {
      if (bp == n) {
        let lo = sturm(db, p, i, lam - ttol, sc, pivmin, split);
        let hi = sturm(db, p, i, lam + ttol, sc, pivmin, split);
        if (t < hi - lo) { bp = p; bq = i; li = lo + t; } else { t -= hi - lo; }
      }
      p = i + 1u;
    }
  }
  if (bp == n) { return; }        // inconsistent counts: a zero column, caught by the check
  let slot0 = bp;                 // local eigenvalue j of block [bp, bq] lives in slot bp + j
  SLOT[so] = bp + li;
  if (bp == bq) { ZS[zx(bp, bp)] = R(1.0); return; }
  let ortol = R(${ortol}) * tn;
  let pert = EPS * tn;
  let m = bq - bp + 1u;
  var mu = bis(db, bp, bq, li, sc, pivmin, split, tn);
  if (li > 0u) {
    let prev = bis(db, bp, bq, li - 1u, sc, pivmin, split, tn);
    if (mu - prev <= ortol) { return; }      // computed by its cluster's first invocation
  }
  var mprev = mu;
  for (var jl = li; jl < m; jl++) {
    if (jl > li && mu - mprev < R(10.0) * pert) { mu = mprev + R(10.0) * pert; }
    let slot = slot0 + jl;
    factor(db, bp, bq, mu, sc);
    for (var i = bp; i <= bq; i++) { ZS[zx(i, slot)] = hashr(i * 7919u + jl * 104729u + 17u); }
    normalize(bp, bq, slot);
    for (var it = 0u; it < ${iters}u; it++) {
      solve(bp, bq, slot, pert);
      normalize(bp, bq, slot);
      mgs(bp, bq, slot0 + li, slot, slot);
      normalize(bp, bq, slot);
    }
    mgs(bp, bq, slot0 + li, slot, slot);
    normalize(bp, bq, slot);
    if (jl + 1u >= m) { break; }
    let nxt = bis(db, bp, bq, jl + 1u, sc, pivmin, split, tn);
    if (nxt - mu > ortol) { break; }
    mprev = mu;
    mu = nxt;
  }
}
""", "trd_invit")


@dataclasses.dataclass(frozen=True)
class InvIterSpec(KernelSpec):
    t: WType

    def layout(self, caps):
        a = self.t.arr
        return Layout([Buf("D", a), Buf("E", a), Buf("W", a), Buf("ZS", a, "rw"),
                       Buf("S", a, "rw"), Buf("SLOT", "u32", "rw")], ["n", "nbat"], caps)

    def render(self, caps):
        return _INVIT.render(self.layout(caps).tokens(), pre=_pre(self.t), sturm=_STURM,
                             nan=_CONST[self.t.val]["nan"], maxit=BISECT_MAXIT[self.t.val],
                             split_c=repr(SPLIT_C), ortol=repr(ORTOL), iters=INV_ITERS)

    def needs(self):
        return _needs(self.t)


_GATHER = Template("""${pre}
${layout}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) tid: u32) {
  let b = wid.y;
  let n = ${n};
  let i = wid.x;
  if (b >= ${nbat} || i >= n) { return; }
  for (var k = tid; k < n; k += 256u) {
    let slot = SLOT[${SLOT_off} + b * n + k];
    Z[${Z_off} + b * n * n + i * n + k] = ZS[${ZS_off} + b * n * n + i * n + slot];
  }
}
""", "trd_gather")


@dataclasses.dataclass(frozen=True)
class GatherSpec(KernelSpec):
    t: WType

    def layout(self, caps):
        a = self.t.arr
        return Layout([Buf("ZS", a), Buf("SLOT", "u32"), Buf("Z", a, "rw")], ["n", "nbat"],
                      caps)

    def render(self, caps):
        return _GATHER.render(self.layout(caps).tokens(), pre=_pre(self.t))

    def needs(self):
        return _needs(self.t)
