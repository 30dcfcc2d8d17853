"""Kernels of the tridiagonal eigh path (tridiag.py), real float32 / float64.

TrdUpdSpec,   the default tridiagonalisation (NUMR_WEBGPU_EIGH_TRD=wide), per column two
TrdSymv2Spec  dispatches over many workgroups: see their section below.
TrdStepSpec   (NUMR_WEBGPU_EIGH_TRD=step) one workgroup per matrix: finishes w of the previous panel column (LAPACK
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
import math

from ...codegen.layout import Buf, Layout
from ...codegen.spec import KernelSpec
from ...codegen.template import Template
from ....._core import dtypes as dt
from ...codegen.types import WTYPES, WType
from . import trd_chain

NB = 32        # panel width of the blocked tridiagonalisation (columns per GEMM update)

_PRE = """alias R = ${R};
var<private> ED: u32;   // E's element offset minus D's (the kernels index E from D's base)
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

def _trees(names, wg, unrolled):
    """WGSL workgroup tree reductions over ``red`` (one value an invocation, every
    invocation gets the result): a sum and a max named ``names``; ``unrolled`` spells the
    halvings out (lavapipe counts loop iterations per invocation across all calls)."""
    out = []
    for name, comb in zip(names, ("{a} + {b}", "max({a}, {b})")):
        lines = [f"fn {name}(tid: u32, x: R) -> R {{", "  red[tid] = x;", "  workgroupBarrier();"]
        if unrolled:
            lines.append("  // unrolled: lavapipe counts loop iterations per invocation "
                         "across all calls")
            s = wg // 2
            while s:
                c = comb.format(a="red[tid]", b=f"red[tid + {s}u]")
                lines += [f"  if (tid < {s}u) {{ red[tid] = {c}; }}", "  workgroupBarrier();"]
                s //= 2
        else:
            c = comb.format(a="red[tid]", b="red[tid + s]")
            lines += [f"  for (var s = {wg}u / 2u; s > 0u; s >>= 1u) {{",
                      f"    if (tid < s) {{ red[tid] = {c}; }}", "    workgroupBarrier();", "  }"]
        lines += ["  let r = red[0];", "  workgroupBarrier();", "  return r;", "}"]
        out.append("\n".join(lines))
    return "\n\n".join(out)


_STEP = Template("""${pre}
${layout}
var<workgroup> red: array<R, ${wg}>;
var<workgroup> shv: array<R, 4>;
var<workgroup> cf: array<R, ${nb2}>;     // the panel coefficients every row needs

${trees}

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
    if (tid < 2u * NBu) { cf[tid] = DOT[${DOT_off} + b * 2u * NBu + tid]; }
    workgroupBarrier();
    var part = R(0.0);
    for (var i = tid; i < n; i += ${wg}u) {
      var w = R(0.0);
      if (i > jp) {
        var acc = PV[${PV_off} + b * n + i];
        for (var c = 0u; c < q; c++) {
          acc += NX[xb + i * 2u * NBu + c] * cf[c] + NX[xb + i * 2u * NBu + NBu + c] * cf[NBu + c];
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
  if (tid < jj) {
    cf[tid] = YT[yb + tid * n + j];
    cf[NBu + tid] = YT[yb + (NBu + tid) * n + j];
  }
  workgroupBarrier();
  var mx = R(0.0);
  for (var i = tid; i < n; i += ${wg}u) {
    var a = R(0.0);
    if (i >= j) {
      a = A[ab + j * n + i];
      for (var c = 0u; c < jj; c++) {
        a += NX[xb + i * 2u * NBu + c] * cf[c] + NX[xb + i * 2u * NBu + NBu + c] * cf[NBu + c];
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
                            trees=_trees(("rsum", "rmax"), self.wg, False),
                            nb=NB, nb2=2 * NB)

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


# ---- tridiagonalisation over many workgroups (NUMR_WEBGPU_EIGH_TRD=wide, the default) ---
#
# Per column j two dispatches, both over many workgroups (no one-workgroup step); their
# WGSL is in trd_chain.py:
#   TrdUpdSpec   rows i >= j, UPD_RPW rows a workgroup (a slice of 32 invocations per row:
#                lane c the panel column c, NX rows read coalesced): w of column j - 1 (the
#                scalar v^T w from the symv's partials of v^T p and the panel's dot
#                products: v^T (p - V W^T v - W V^T v) = v^T p - 2 (V^T v).(W^T v), so no
#                reduction over w), then column j updated by the panel (a[i], into WK) and
#                per-workgroup partials (max |a|, sum (a/max)^2) of the reflector's norm.
#                Row j's w (every row's coefficient) is computed again by every workgroup
#                (the same code on the same inputs).
#   TrdSymv2Spec every workgroup combines the norm partials (the same order everywhere:
#                identical tau, beta, scale), and computes p = A22 v (row workgroups, which
#                also store v and a partial of v^T p) or the panel's dot products V^T v,
#                W^T v (2 jj workgroups).
# WK (B, 3 n): a [0, n); TrdUpdSpec's norm partials (max, ss) at n + 2 k (k < ceil((n - j) /
# UPD_RPW) <= n / 2: within [n, 2 n)); TrdSymv2Spec's v^T p partials at 2 n + k (k <
# ceil((n - j - 1) / rpw) <= n). Each dispatch reads only what the previous ones wrote.

UPD_RPW = 7    # rows of one TrdUpdSpec workgroup (8 slices of 32: slice 0 is row j)

_COMB = """
struct MS { m: R, s: R }

// (max, sum of (x / max)^2) of two parts
fn comb(x: MS, y: MS) -> MS {
  let m = max(x.m, y.m);
  if (m > R(0.0)) {
    let p = x.m / m;
    let q = y.m / m;
    return MS(m, x.s * p * p + y.s * q * q);
  }
  return MS(m, x.s + y.s);
}
"""


# Every buffer of the per-column chain, in one order, all read_write: TrdUpdSpec and
# TrdSymv2Spec built with ``shared`` have one bind group layout, so a column's two
# dispatches bind one bind group and a replay sets it once per panel instead of once per
# dispatch (the chain is bound by the host's ~9 us of native calls and wgpu bookkeeping
# a dispatch on an H100, not by the GPU's ~4 us)
CHAIN_BUFS = ("A", "YT", "NX", "REF", "PV", "DOT", "WK", "E", "TAU", "D")


def chain_layout(elem, words, caps):
    return Layout([Buf(nm, elem, "rw") for nm in CHAIN_BUFS], words, caps)


@dataclasses.dataclass(frozen=True)
class TrdUpdSpec(KernelSpec):
    t: WType
    # trusted (compiled without wgpu's runtime checks, KernelSpec.runtime_checks):
    # workgroup indices are structural (tid < 256, lane < NB, slot < 8, q < NB); every
    # loop is counted by constants or uniforms (nrbp, q); global indices come from the
    # uniforms n, j, jj within the bound buffers (robust buffer access beyond that)
    trusted: bool = False
    shared: bool = False    # CHAIN_BUFS (one bind group with TrdSymv2Spec)

    def layout(self, caps):
        a = self.t.arr
        words = ["n", "nbat", "j", "jj", "fin", "nrbp"]
        if self.shared:
            return chain_layout(a, words, caps)
        return Layout([Buf("A", a), Buf("PV", a), Buf("DOT", a), Buf("TAU", a),
                       Buf("NX", a, "rw"), Buf("YT", a, "rw"), Buf("D", a, "rw"),
                       Buf("WK", a, "rw")], words, caps)

    def render(self, caps):
        return trd_chain.UPD.render(self.layout(caps).tokens(), pre=_pre(self.t), nb=NB,
                                    rpw=UPD_RPW, comb=_COMB, nan=_CONST[self.t.val]["nan"])

    def needs(self):
        return _needs(self.t)




@dataclasses.dataclass(frozen=True)
class TrdSymv2Spec(KernelSpec):
    t: WType
    # trusted (compiled without wgpu's runtime checks, KernelSpec.runtime_checks):
    # workgroup indices: tid < 256, tid + h < 256 with h < 256 / 2 ... 1, r * seg < 256;
    # loops counted by constants or uniforms (nwu, n, rows per workgroup)
    trusted: bool = False
    shared: bool = False    # CHAIN_BUFS (one bind group with TrdUpdSpec)
    rpw: int = SYMV_RPW     # rows a row workgroup (1, 2 or 4)

    def layout(self, caps):
        a = self.t.arr
        words = ["n", "nbat", "j", "jj", "nrb", "nwu"]
        if self.shared:
            return chain_layout(a, words, caps)
        return Layout([Buf("A", a), Buf("YT", a, "rw"), Buf("NX", a, "rw"),
                       Buf("REF", a, "rw"), Buf("PV", a, "rw"), Buf("DOT", a, "rw"),
                       Buf("WK", a, "rw"), Buf("E", a, "rw"), Buf("TAU", a, "rw")],
                      words, caps)

    def render(self, caps):
        if self.rpw not in (1, 2, 4):
            raise ValueError(f"TrdSymv2Spec: rpw {self.rpw} is not 1, 2 or 4")
        return trd_chain.SYMV.render(self.layout(caps).tokens(), pre=_pre(self.t), nb=NB,
                                     rpw=self.rpw, comb=_COMB)

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
    var e = E[ED + db + i - 1u] * sc;
    if (abs(e) <= split) { e = R(0.0); }
    v = D[db + i] * sc - x - e * e / v;
    if (abs(v) < pivmin) { v = -pivmin; }
    if (v < R(0.0)) { cnt += 1u; }
  }
  return cnt;
}
"""

# the same with the next row's d and e loaded a step ahead, so their loads overlap the
# division chain instead of preceding it (NUMR_WEBGPU_EIGH_STURM_PF)
_STURM_PF = """
fn sturm(db: u32, p: u32, q: u32, x: R, sc: R, pivmin: R, split: R) -> u32 {
  var cnt = 0u;
  var v = D[db + p] * sc - x;
  if (abs(v) < pivmin) { v = -pivmin; }
  if (v < R(0.0)) { cnt += 1u; }
  var dn = R(0.0);
  var en = R(0.0);
  if (p < q) { dn = D[db + p + 1u]; en = E[ED + db + p]; }
  for (var i = p + 1u; i <= q; i++) {
    let dc = dn * sc - x;
    var e = en * sc;
    if (i < q) { dn = D[db + i + 1u]; en = E[ED + db + i]; }
    if (abs(e) <= split) { e = R(0.0); }
    v = dc - e * e / v;
    if (abs(v) < pivmin) { v = -pivmin; }
    if (v < R(0.0)) { cnt += 1u; }
  }
  return cnt;
}
"""


def _sturm(pf):
    return _STURM_PF if pf else _STURM


# W-point multisection (W = the workgroup, 64 by default): a workgroup per eigenvalue, each
# invocation one Sturm count per round (log2(W + 1) bits a round instead of bisection's 1)
_MSECT = """
var<workgroup> first: atomic<u32>;
var<workgroup> wflag: u32;

// the local eigenvalue li (ascending) of rows [p, q] of the scaled T
fn msect(tid: u32, db: u32, p: u32, q: u32, li: u32, sc: R, pivmin: R, split: R, tn: R) -> R {
  var lo = R(0.0);
  var hi = R(0.0);
  for (var i = p; i <= q; i++) {
    var r = R(0.0);
    if (i > p) { r += abs(E[ED + db + i - 1u] * sc); }
    if (i < q) { r += abs(E[ED + db + i] * sc); }
    let d = D[db + i] * sc;
    if (i == p) { lo = d - r; hi = d + r; } else { lo = min(lo, d - r); hi = max(hi, d + r); }
  }
  lo = lo - R(4.0) * EPS * tn - pivmin;
  hi = hi + R(4.0) * EPS * tn + pivmin;
  let abstol = EPS * tn * R(0.125);
  for (var r = 0u; r < ${rounds}u; r++) {
    let conv = hi - lo <= max(abstol, R(4.0) * EPS * max(abs(lo), abs(hi)));
    if (tid == 0u) { atomicStore(&first, ${mw}u); }
    workgroupBarrier();
    let w = hi - lo;
    if (!conv) {
      let x = lo + w * (R(tid + 1u) / R(${mw1}.0));
      if (sturm(db, p, q, x, sc, pivmin, split) > li) { atomicMin(&first, tid); }
    }
    workgroupBarrier();
    let f = atomicLoad(&first);
    workgroupBarrier();
    if (!conv) {
      var nlo = lo;
      var nhi = hi;
      if (f > 0u) { nlo = lo + w * (R(f) / R(${mw1}.0)); }
      if (f < ${mw}u) { nhi = lo + w * (R(f + 1u) / R(${mw1}.0)); }
      lo = nlo;
      hi = nhi;
    }
  }
  return R(0.5) * (lo + hi);
}
"""

MSECT_ROUNDS = {"f32": 8, "f64": 14}   # rounds of 64 points (6 bits each)


def msect_rounds(val, mw):
    """Rounds of ``mw`` points giving the bits of MSECT_ROUNDS[val] rounds of 64."""
    return math.ceil(MSECT_ROUNDS[val] * math.log2(65) / math.log2(mw + 1) - 1e-9)


def _msect(t, mw):
    return _MSECT.replace("${rounds}", str(msect_rounds(t.val, mw))).replace(
        "${mw1}", str(mw + 1)).replace("${mw}", str(mw))

_BISECT = Template("""${pre}
${layout}
${sturm}
${msect}

@compute @workgroup_size(${mw})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) tid: u32) {
  let b = wid.y;
  let k = wid.x;
  let n = ${n};
  if (b >= ${nbat} || k >= n) { return; }
  let db = ${D_off} + b * n;
  ED = ${E_off} - ${D_off};   // E's base from D's (views of one buffer differ)
  ${norms}
  if (tid == 0u) { wflag = select(0u, 1u, nonfinite || s == R(0.0)); }
  if (workgroupUniformLoad(&wflag) != 0u) {
    if (tid == 0u) { W[${W_off} + b * n + k] = select(R(0.0), ${nan}, nonfinite); }
    return;
  }
  let mu = msect(tid, db, 0u, n - 1u, k, sc, pivmin, R(-1.0), tn);
  if (tid == 0u) { W[${W_off} + b * n + k] = mu * s; }
}
""", "trd_bisect")


@dataclasses.dataclass(frozen=True)
class BisectSpec(KernelSpec):
    """Eigenvalues of T by W-point multisection (``mw``: the workgroup; ``pf``: the Sturm
    count's loads a step ahead)."""

    t: WType
    mw: int = 64
    pf: bool = False

    def layout(self, caps):
        a = self.t.arr
        return Layout([Buf("D", a), Buf("E", a), Buf("W", a, "rw")], ["n", "nbat"], caps)

    def render(self, caps):
        return _BISECT.render(self.layout(caps).tokens(), pre=_pre(self.t),
                              sturm=_sturm(self.pf), mw=self.mw,
                              nan=_CONST[self.t.val]["nan"], msect=_msect(self.t, self.mw),
                              norms=_NORMS.replace("${split_c}", repr(SPLIT_C)))

    def needs(self):
        return _needs(self.t)


# ---- tridiagonal eigenvectors: inverse iteration ----------------------------------------

SPLIT_C = 8.0      # |e| <= SPLIT_C eps ||T|| splits T (a perturbation of that size)
ORTOL = 1e-3       # eigenvalues of one block closer than min(ORTOL, ORTOL_N / n) ||T||: a
ORTOL_N = 0.5      # cluster. LAPACK stein's 1e-3 alone would make the bulk of a random
                   # n > 1000 spectrum one cluster (mean gap ~ pi / (2 n) ||T||), computed
                   # serially; inverse iteration loses ~ eps ||T|| / gap of orthogonality
INV_ITERS = 3      # inverse iteration solves per vector
TIGHT = 256.0      # chains within TIGHT unit roundoffs of ||T|| stay serial in clusters.py's
                   # parallel mode


def loose_tol() -> str:
    """The WGSL expression of the loose chaining distance (InvIterSpec and clusters.py's
    ClusterSpec must round it identically: the read's sizes bound the kernel's clusters)."""
    return f"min(R({ORTOL!r}), R({ORTOL_N!r}) / R(n)) * tn"


def tight_tol() -> str:
    return f"R({TIGHT!r}) * EPS * tn"

_INVHEAD = """${pre}
${layout}
${sturm}
"""

# scale 1 / max(|d|, |e|), Gershgorin norm tn of the scaled T, pivmin; nonfinite input
_NORMS = """
  var s = R(0.0);
  var nonfinite = false;
  for (var i = 0u; i < n; i++) {
    let d = D[db + i];
    var e = R(0.0);
    if (i + 1u < n) { e = E[ED + db + i]; }
    if (bad(d) || bad(e)) { nonfinite = true; }
    s = max(s, max(abs(d), abs(e)));
  }
  var sc = R(1.0);
  if (s > R(0.0) && !nonfinite) { sc = R(1.0) / s; }
  var tn = R(0.0);
  var emax = R(0.0);
  for (var i = 0u; i < n; i++) {
    var r = abs(D[db + i] * sc);
    if (i > 0u) { r += abs(E[ED + db + i - 1u] * sc); }
    if (i + 1u < n) { let e = abs(E[ED + db + i] * sc); r += e; emax = max(emax, e); }
    tn = max(tn, r);
  }
  let pivmin = SAFMIN * max(R(1.0), emax * emax) * R(4.0);
  let split = R(${split_c}) * EPS * tn;
"""

# BlockBisectSpec: one invocation per slot s: the block [bp, bq] of the split T holding
# row s and the block's eigenvalue s - bp (scaled), MU[s]; BLK[s] = (bp, bq)
_BLOCKBIS = Template("""${head}
${msect}

@compute @workgroup_size(${mw})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) tid: u32) {
  let b = wid.y;
  let k = wid.x;
  let n = ${n};
  if (b >= ${nbat} || k >= n) { return; }
  let db = ${D_off} + b * n;
  ED = ${E_off} - ${D_off};   // E's base from D's (views of one buffer differ)
  let ob = ${BLK_off} + b * 2u * n;
  ${norms}
  if (k == 0u && tid == 0u) { SC[${SC_off} + b * 2u] = sc; SC[${SC_off} + b * 2u + 1u] = tn; }
  if (tid == 0u) { wflag = select(0u, 1u, nonfinite); }
  if (workgroupUniformLoad(&wflag) != 0u) {
    if (tid == 0u) { MU[${MU_off} + b * n + k] = ${nan}; }
    return;
  }
  var bp = 0u;
  var bq = n - 1u;
  for (var i = 0u; i + 1u < n; i++) {
    if (abs(E[ED + db + i] * sc) <= split) {
      if (i < k) { bp = i + 1u; } else { bq = min(bq, i); }
    }
  }
  var mu = msect(tid, db, bp, bq, k - bp, sc, pivmin, split, tn);
  if (bq == bp) { mu = D[db + k] * sc; }
  if (tid == 0u) {
    MU[${MU_off} + b * n + k] = mu;
    BLK[ob + 2u * k] = bp;
    BLK[ob + 2u * k + 1u] = bq;
  }
}
""", "trd_blockbis")


@dataclasses.dataclass(frozen=True)
class BlockBisectSpec(KernelSpec):
    """Eigenvalues of the split T's blocks (as BisectSpec: ``mw`` points a round, ``pf``)."""

    t: WType
    mw: int = 64
    pf: bool = False

    def layout(self, caps):
        a = self.t.arr
        return Layout([Buf("D", a), Buf("E", a), Buf("MU", a, "rw"), Buf("SC", a, "rw"),
                       Buf("BLK", "u32", "rw")], ["n", "nbat"], caps)

    def render(self, caps):
        head = _INVHEAD.replace("${pre}", _pre(self.t)).replace(
            "${layout}", self.layout(caps).decl()).replace("${sturm}", _sturm(self.pf))
        norms = _NORMS.replace("${split_c}", repr(SPLIT_C))
        tok = self.layout(caps).tokens()
        tok.pop("layout")
        return _BLOCKBIS.render(tok, head=head, norms=norms, msect=_msect(self.t, self.mw),
                                mw=self.mw,
                                nan=_CONST[self.t.val]["nan"])

    def needs(self):
        return _needs(self.t)


# RankSpec: one invocation per slot: its rank among all slots' eigenvalues (ties by slot)
# is its column: W[rank] (unscaled), SLOT[rank] = slot
_RANK = Template("""${pre}
${layout}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let b = gid.y;
  let s = gid.x;
  let n = ${n};
  if (b >= ${nbat} || s >= n) { return; }
  let mb = ${MU_off} + b * n;
  let sc = SC[${SC_off} + b * 2u];
  let mu = MU[mb + s];
  var r = 0u;
  var nonfinite = false;
  for (var i = 0u; i < n; i++) {
    let m = MU[mb + i];
    if (bad(m)) { nonfinite = true; }
    if (m < mu || (m == mu && i < s)) { r += 1u; }
  }
  if (nonfinite) {
    W[${W_off} + b * n + s] = ${nan};
    SLOT[${SLOT_off} + b * n + s] = s;
    return;
  }
  W[${W_off} + b * n + r] = mu / sc;
  SLOT[${SLOT_off} + b * n + r] = s;
}
""", "trd_rank")


@dataclasses.dataclass(frozen=True)
class RankSpec(KernelSpec):
    t: WType

    def layout(self, caps):
        a = self.t.arr
        return Layout([Buf("MU", a), Buf("SC", a), Buf("W", a, "rw"),
                       Buf("SLOT", "u32", "rw")], ["n", "nbat"], caps)

    def render(self, caps):
        return _RANK.render(self.layout(caps).tokens(), pre=_pre(self.t),
                            nan=_CONST[self.t.val]["nan"])

    def needs(self):
        return _needs(self.t)


# InvIterSpec: a workgroup per slot; the first slot of each cluster (consecutive slots of
# one block whose eigenvalues are within ORTOL ||T||) computes the cluster's vectors in
# order: thread 0 factors T - mu I and solves, the workgroup normalises and
# re-orthogonalises (modified Gram-Schmidt) against the cluster's earlier vectors
_INVIT = Template("""${pre}
${layout}
var<workgroup> red: array<R, 64>;
var<workgroup> flag: u32;
var<private> sb: u32;
var<private> zb: u32;
var<private> kk: u32;
var<private> nn: u32;

// scratch and vectors contiguous along rows: thread 0 walks them in order, the workgroup
// reads them coalesced
fn sx(f: u32, i: u32) -> u32 { return sb + (kk * 5u + f) * nn + i; }
fn zx(i: u32, slot: u32) -> u32 { return zb + slot * nn + i; }

fn hashr(x: u32) -> R {
  var h = x * 747796405u + 2891336453u;
  h = ((h >> ((h >> 28u) + 4u)) ^ h) * 277803737u;
  h = (h >> 22u) ^ h;
  return R(f32(h >> 8u) / 8388608.0 - 1.0);
}

${trees}

fn pv(x: R, pert: R) -> R {
  if (abs(x) < pert) { return select(pert, -pert, x < R(0.0)); }
  return x;
}

// T - mu I on [p, q] = P L U: U's diagonals (f0 the reciprocal of the perturbed pivot,
// f1, f2), multipliers (f3), pivots (f4); the running row in registers (no load waits on
// the previous iteration's store). The reciprocal keeps the divisions out of the solves'
// serial chains (a float64 division is a long dependent sequence on NVIDIA: the inverse
// iteration took 9.6 ms of eigh 512 float64, 2.1 ms in float32; H100)
fn factor(db: u32, p: u32, q: u32, mu: R, sc: R, pert: R) {
  var dcur = D[db + p] * sc - mu;
  var ducur = E[ED + db + p] * sc;
  for (var i = p; i < q; i++) {
    let sub = E[ED + db + i] * sc;
    let dn = D[db + i + 1u] * sc - mu;
    var dun = R(0.0);
    if (i + 1u < q) { dun = E[ED + db + i + 1u] * sc; }
    if (abs(dcur) >= abs(sub)) {
      var l = R(0.0);
      if (dcur != R(0.0)) { l = sub / dcur; }
      S[sx(0u, i)] = R(1.0) / pv(dcur, pert);
      S[sx(1u, i)] = ducur;
      S[sx(2u, i)] = R(0.0);
      S[sx(3u, i)] = l;
      S[sx(4u, i)] = R(0.0);
      dcur = dn - l * ducur;
      ducur = dun;
    } else {
      let l = dcur / sub;
      S[sx(0u, i)] = R(1.0) / pv(sub, pert);
      S[sx(1u, i)] = dn;
      S[sx(2u, i)] = dun;
      S[sx(3u, i)] = l;
      S[sx(4u, i)] = R(1.0);
      dcur = ducur - l * dn;
      ducur = -l * dun;
    }
  }
  S[sx(0u, q)] = R(1.0) / pv(dcur, pert);
  S[sx(1u, q)] = R(0.0);
  S[sx(2u, q)] = R(0.0);
}

fn solve(p: u32, q: u32, slot: u32) {
  var yc = ZS[zx(p, slot)];
  for (var i = p; i < q; i++) {
    let l = S[sx(3u, i)];
    let y1 = ZS[zx(i + 1u, slot)];
    if (S[sx(4u, i)] == R(0.0)) {
      ZS[zx(i, slot)] = yc;
      yc = y1 - l * yc;
    } else {
      ZS[zx(i, slot)] = y1;
      yc = yc - l * y1;
    }
  }
  ZS[zx(q, slot)] = yc;
  let m = q - p + 1u;
  var x1 = R(0.0);
  var x2 = R(0.0);
  for (var ii = 0u; ii < m; ii++) {
    let i = q - ii;
    let s = ZS[zx(i, slot)] - S[sx(1u, i)] * x1 - S[sx(2u, i)] * x2;
    let x = s * S[sx(0u, i)];
    ZS[zx(i, slot)] = x;
    x2 = x1;
    x1 = x;
  }
}

fn normalize(tid: u32, p: u32, q: u32, slot: u32) {
  var mx = R(0.0);
  for (var i = p + tid; i <= q; i += 64u) { mx = max(mx, abs(ZS[zx(i, slot)])); }
  let m = wmax(tid, mx);
  var inv = R(1.0);
  if (m > R(0.0)) { inv = R(1.0) / m; }
  var ss = R(0.0);
  for (var i = p + tid; i <= q; i += 64u) { let y = ZS[zx(i, slot)] * inv; ss += y * y; }
  let t = wsum(tid, ss);
  var f = R(1.0);
  if (m > R(0.0) && t > R(0.0)) { f = inv / sqrt(t); }
  for (var i = p + tid; i <= q; i += 64u) { ZS[zx(i, slot)] = ZS[zx(i, slot)] * f; }
}

fn mgs(tid: u32, p: u32, q: u32, c0: u32, c1: u32, slot: u32) {
  for (var c = c0; c < c1; c++) {
    var dot = R(0.0);
    for (var i = p + tid; i <= q; i += 64u) { dot += ZS[zx(i, c)] * ZS[zx(i, slot)]; }
    let d = wsum(tid, dot);
    for (var i = p + tid; i <= q; i += 64u) {
      ZS[zx(i, slot)] = ZS[zx(i, slot)] - d * ZS[zx(i, c)];
    }
  }
}

fn sync() {
  storageBarrier();
  workgroupBarrier();
}

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) tid: u32) {
  let b = wid.y;
  // leaders l0 .. l0 + nl - 1 in this dispatch, each with its own 5 n scratch rows: the
  // scratch of all n leaders (5 n^2 per matrix) outgrows one binding from n ~ 5800 (f64)
  let s0 = ${l0} + wid.x;
  let n = ${n};
  if (b >= ${nbat} || s0 >= n || wid.x >= ${nl}) { return; }
  nn = n;
  kk = wid.x;
  sb = ${S_off} + b * 5u * ${nl} * n;
  zb = ${ZS_off} + b * n * n;
  let db = ${D_off} + b * n;
  ED = ${E_off} - ${D_off};   // E's base from D's (views of one buffer differ)
  let ob = ${BLK_off} + b * 2u * n;
  let mb = ${MU_off} + b * n;
  let sc = SC[${SC_off} + b * 2u];
  let tn = SC[${SC_off} + b * 2u + 1u];
  // parallel mode (clusters.py): only the tight chains are walked serially
  let ortol = select(${loose}, ${tightd}, ${tight} != 0u);
  let pert = EPS * tn;
  if (tid == 0u) {
    let bp0 = BLK[ob + 2u * s0];
    var lead = bp0 < n;
    if (lead && s0 > bp0) {
      lead = !(MU[mb + s0] - MU[mb + s0 - 1u] <= ortol) || BLK[ob + 2u * s0 - 2u] != bp0;
    }
    flag = select(0u, 1u, lead);
  }
  if (workgroupUniformLoad(&flag) == 0u) { return; }
  if (tid == 0u) { flag = BLK[ob + 2u * s0]; }
  let bp = workgroupUniformLoad(&flag);
  if (tid == 0u) { flag = BLK[ob + 2u * s0 + 1u]; }
  let bq = workgroupUniformLoad(&flag);
  if (bp == bq) {
    if (tid == 0u && ${r0} == 0u) { ZS[zx(bp, s0)] = R(1.0); }
    return;
  }
  // members r0 <= rel < r1 of the cluster (CPU adapters split a cluster over dispatches:
  // lavapipe stops an invocation's loops beyond 65535 iterations)
  let r0 = ${r0};
  let r1 = ${r1};
  var mprev = R(0.0);
  var slot = s0;
  var rel = 0u;
  loop {
    if (rel >= r1) { break; }
    var mu = MU[mb + slot];
    if (slot > s0 && mu - mprev < R(10.0) * pert) { mu = mprev + R(10.0) * pert; }
    mprev = mu;
    if (rel >= r0) {
      for (var i = bp + tid; i <= bq; i += 64u) {
        ZS[zx(i, slot)] = hashr(i * 7919u + (slot - s0) * 104729u + 17u);
      }
      if (tid == 0u) { factor(db, bp, bq, mu, sc, pert); }
      sync();
      normalize(tid, bp, bq, slot);
      for (var it = 0u; it < ${iters}u; it++) {
        sync();
        if (tid == 0u) { solve(bp, bq, slot); }
        sync();
        normalize(tid, bp, bq, slot);
        mgs(tid, bp, bq, s0, slot, slot);
        normalize(tid, bp, bq, slot);
      }
      mgs(tid, bp, bq, s0, slot, slot);
      normalize(tid, bp, bq, slot);
    }
    slot += 1u;
    rel += 1u;
    if (slot > bq) { break; }
    if (tid == 0u) {
      flag = select(0u, 1u, MU[mb + slot] - MU[mb + slot - 1u] <= ortol
                             && BLK[ob + 2u * slot] == bp);
    }
    if (workgroupUniformLoad(&flag) == 0u) { break; }
  }
}
""", "trd_invit")






@dataclasses.dataclass(frozen=True)
class InvIterSpec(KernelSpec):
    t: WType

    def layout(self, caps):
        a = self.t.arr
        return Layout([Buf("D", a), Buf("E", a), Buf("MU", a), Buf("SC", a),
                       Buf("BLK", "u32"), Buf("ZS", a, "rw"), Buf("S", a, "rw")],
                      ["n", "nbat", "r0", "r1", "l0", "nl", "tight"], caps)

    def render(self, caps):
        return _INVIT.render(self.layout(caps).tokens(), pre=_pre(self.t),
                             trees=_trees(("wsum", "wmax"), 64, True),
                             loose=loose_tol(), tightd=tight_tol(), iters=INV_ITERS)

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
    Z[${Z_off} + b * n * n + i * n + k] = ZS[${ZS_off} + b * n * n + slot * n + i];
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


def variants():
    """Every kernel of the tridiagonal path in each switchable form (test_render_compile)."""
    out = []
    for d in (dt.float32, dt.float64):
        t = WTYPES[d]
        out += [TrdStepSpec(t, 256), TrdSymvSpec(t), RankSpec(t), InvIterSpec(t),
                GatherSpec(t)]
        for tr in (False, True):
            for sh in (False, True):
                out += [TrdUpdSpec(t, tr, sh)] + [TrdSymv2Spec(t, tr, sh, rpw) for rpw in (1, 2, 4)]
        for mw in (64, 128, 256):
            for pf in (False, True):
                out += [BisectSpec(t, mw, pf), BlockBisectSpec(t, mw, pf)]
    return out
