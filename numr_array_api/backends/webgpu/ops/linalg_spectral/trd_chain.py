"""WGSL of the wide tridiagonalisation's per-column kernels, TrdUpdSpec (UPD) and
TrdSymv2Spec (SYMV); their specs, buffers and the WK layout are in tridiag_specs.py (read
that section's comment first).

The chain runs two small dependent dispatches a column, so a kernel's time is its
critical path, not its arithmetic (these kernels replaced ones whose global loads came
after the barriers of reductions they did not depend on, one element a step; H100 eigh
512 float64 14.2 / 12.6 ms against 15.1 / 13.3: benchmarks/gpu/runs/2026-11-28-08.sh, 2026-11-28).
So:
  - every load a workgroup needs is issued at the top, before any barrier, so their
    latencies overlap;
  - the reductions that do not depend on one another share one tree (one barrier a
    level): in UPD the scalar v^T w of column j - 1 (the symv's partials minus 2
    (V^T v).(W^T v)) with the 32-lane panel sums of each row; in SYMV the reflector's
    norm with the row dot products;
  - SYMV forms A22 v as A[i, j+1] + scal (A[i, j+2:] . a[j+2:]) (v = (1, a scal)), so the
    dot product needs no norm and runs while the norm is combined, four loads in flight
    per invocation;
  - SYMV takes ``rpw`` rows a workgroup (NUMR_WEBGPU_EIGH_SYMV_RPW: 1, 2 or 4).
"""

from __future__ import annotations

from ...codegen.template import Template

UPD = Template("""${pre}
${layout}
${comb}
var<workgroup> rv: array<R, 256>;      // v^T w of column j - 1
var<workgroup> red: array<R, 256>;     // panel sums for w of column j - 1, a row a slice
var<workgroup> red2: array<R, 256>;    // panel sums of column j's update
var<workgroup> pm: array<R, 8>;
var<workgroup> ps: array<R, 8>;
var<workgroup> wj: R;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) tid: u32) {
  let b = wid.y;
  if (b >= ${nbat}) { return; }
  let n = ${n};
  let j = ${j};
  let jj = ${jj};
  let fin = ${fin};
  let NBu = ${nb}u;
  let lane = tid % NBu;
  let slot = tid / NBu;
  let xb = ${NX_off} + b * n * 2u * NBu;     // NX: (n, 2 NB): [-V | -W]
  let yb = ${YT_off} + b * 2u * NBu * n;     // YT: (2 NB, n): [W^T ; V^T]
  let wb = ${WK_off} + b * 3u * n;
  var q = 0u;                                // panel column of j - 1 (jj > 0)
  if (jj > 0u) { q = jj - 1u; }
  var i = j;                                 // slot 0: row j (its w, every row's coefficient)
  if (slot > 0u) { i = j + wid.x * ${rpw}u + slot - 1u; }
  let valid = i < n;
  let head = valid && lane == 0u;
  // ---- every global load first
  var tq = R(0.0);
  var sp = R(0.0);
  if (jj > 0u) {
    tq = TAU[${TAU_off} + b * n + j - 1u];
    for (var k = tid; k < ${nrbp}; k += 256u) { sp += WK[wb + 2u * n + k]; }
  }
  var nv = R(0.0);
  var nwv = R(0.0);
  var dw = R(0.0);
  var dv = R(0.0);
  var cw = R(0.0);
  var cv = R(0.0);
  if (valid && lane < q) {
    nv = NX[xb + i * 2u * NBu + lane];
    nwv = NX[xb + i * 2u * NBu + NBu + lane];
    dw = DOT[${DOT_off} + b * 2u * NBu + lane];
    dv = DOT[${DOT_off} + b * 2u * NBu + NBu + lane];
    if (fin == 0u) {
      cw = YT[yb + lane * n + j];
      cv = YT[yb + (NBu + lane) * n + j];
    }
  }
  var pv = R(0.0);
  var yq = R(0.0);
  var nq = R(0.0);
  var vq = R(0.0);
  var av = R(0.0);
  if (head) {
    if (jj > 0u) {
      pv = PV[${PV_off} + b * n + i];
      yq = YT[yb + (NBu + q) * n + i];
    }
    if (fin == 0u && slot > 0u) {
      av = A[${A_off} + b * n * n + j * n + i];
      if (jj > 0u) {
        nq = NX[xb + i * 2u * NBu + q];
        vq = YT[yb + (NBu + q) * n + j];
      }
    }
  }
  // ---- one tree: v^T p - 2 (W^T v).(V^T v) over the workgroup, the panel sums per slot
  var s = sp;
  if (tid < q) { s -= R(2.0) * dw * dv; }
  rv[tid] = s;
  red[tid] = nv * dw + nwv * dv;
  red2[tid] = nv * cw + nwv * cv;
  workgroupBarrier();
  for (var h = 128u; h > 0u; h >>= 1u) {
    if (tid < h) { rv[tid] = rv[tid] + rv[tid + h]; }
    if (h < NBu && lane < h) {
      red[tid] = red[tid] + red[tid + h];
      red2[tid] = red2[tid] + red2[tid + h];
    }
    workgroupBarrier();
  }
  var w = R(0.0);
  if (jj > 0u && head) {
    // ---- w of column j - 1 for rows i >= j
    let alpha = R(-0.5) * tq * (tq * rv[0]);
    w = tq * (pv + red[tid]) + alpha * yq;
    if (slot > 0u) {
      YT[yb + q * n + i] = w;
      NX[xb + i * 2u * NBu + NBu + q] = -w;
    }
  }
  if (tid == 0u) { wj = w; }
  if (fin != 0u) { return; }
  workgroupBarrier();
  var a = R(0.0);
  var nf = false;
  if (head && slot > 0u) {
    // ---- column j updated with the panel: a = A[j:, j] - V W[j]^T - W V[j]^T
    a = av + red2[tid];
    if (jj > 0u) { a += nq * wj - w * vq; }
    WK[wb + i] = a;
    if (i == j) { D[${D_off} + b * n + j] = a; }
    nf = i > j + 1u && bad(a);
  }
  if (lane == 0u) {
    var m = R(0.0);
    var ss = R(0.0);
    if (i > j + 1u && a != R(0.0) && !nf) { m = abs(a); ss = R(1.0); }
    pm[slot] = m;
    ps[slot] = select(ss, ${nan}, nf);
  }
  workgroupBarrier();
  if (tid == 0u) {
    var r = MS(R(0.0), R(0.0));
    for (var k = 1u; k < 8u; k++) { r = comb(r, MS(pm[k], ps[k])); }
    WK[wb + n + 2u * wid.x] = r.m;
    WK[wb + n + 2u * wid.x + 1u] = r.s;
  }
}
""", "trd_upd_pf")


SYMV = Template("""${pre}
${layout}
var<workgroup> rn: array<R, 64>;       // the reflector's norm partials (max, sum squares)
var<workgroup> rn2: array<R, 64>;
var<workgroup> red: array<R, 256>;     // raw dot products
var<workgroup> pr: array<R, ${rpw}>;   // p_i v_i of the workgroup's rows
${comb}
// a row of A (row workgroups) or a panel column of YT (dot product workgroups)
fn src(rows: bool, k: u32) -> R {
  if (rows) { return A[k]; }
  return YT[k];
}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) tid: u32) {
  let b = wid.y;
  if (b >= ${nbat}) { return; }
  let n = ${n};
  let j = ${j};
  let jj = ${jj};
  let NBu = ${nb}u;
  let nrb = ${nrb};
  let xb = ${NX_off} + b * n * 2u * NBu;
  let yb = ${YT_off} + b * 2u * NBu * n;
  let wb = ${WK_off} + b * 3u * n;
  // ---- the norm partials of TrdUpdSpec, alpha and the raw dot product (no norm needed)
  var ms = MS(R(0.0), R(0.0));
  if (tid < 64u) {
    for (var k = tid; k < ${nwu}; k += 64u) {
      ms = comb(ms, MS(WK[wb + n + 2u * k], WK[wb + n + 2u * k + 1u]));
    }
  }
  let alpha = WK[wb + j + 1u];
  let rows = wid.x < nrb;
  var seg = 256u;
  var l = tid;
  var i = n;
  var base = 0u;      // the row (A) or column (YT) the workgroup's invocations read
  var col = 0u;       // the panel column of a dot product workgroup
  if (rows) {
    seg = 256u / ${rpw}u;
    l = tid % seg;
    i = j + 1u + wid.x * ${rpw}u + tid / seg;
    base = ${A_off} + b * n * n + i * n;
  } else {
    col = wid.x - nrb;
    if (col >= jj) { col += NBu - jj; }
    base = yb + col * n;
  }
  var s0 = R(0.0);
  var s1 = R(0.0);
  var s2 = R(0.0);
  var s3 = R(0.0);
  var first = R(0.0);     // A[i, j+1] or YT[col, j+1] (v's unit entry)
  var vi = R(0.0);        // a[i] (rows)
  if (!rows || i < n) {
    if (l == 0u) {
      first = src(rows, base + j + 1u);
      if (rows) { vi = WK[wb + i]; }
    }
    var c = j + 2u + l;
    loop {
      if (c + 3u * seg >= n) { break; }
      let c1 = c + seg;
      let c2 = c1 + seg;
      let c3 = c2 + seg;
      s0 += src(rows, base + c) * WK[wb + c];
      s1 += src(rows, base + c1) * WK[wb + c1];
      s2 += src(rows, base + c2) * WK[wb + c2];
      s3 += src(rows, base + c3) * WK[wb + c3];
      c += 4u * seg;
    }
    for (; c < n; c += seg) { s0 += src(rows, base + c) * WK[wb + c]; }
  }
  if (tid < 64u) {
    rn[tid] = ms.m;
    rn2[tid] = ms.s;
  }
  red[tid] = (s0 + s1) + (s2 + s3);
  workgroupBarrier();
  for (var h = 128u; h > 0u; h >>= 1u) {
    if (tid < h && h < 64u) {
      let r = comb(MS(rn[tid], rn2[tid]), MS(rn[tid + h], rn2[tid + h]));
      rn[tid] = r.m;
      rn2[tid] = r.s;
    }
    if (l < h && h < seg) { red[tid] = red[tid] + red[tid + h]; }
    workgroupBarrier();
  }
  // ---- the reflector of column j
  let xnorm = rn[0] * sqrt(rn2[0]);
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
  if (rows) {
    if (l == 0u) {
      var p = R(0.0);
      if (i < n) {
        p = first + scal * red[tid];
        var v = vi * scal;
        if (i == j + 1u) { v = R(1.0); }
        PV[${PV_off} + b * n + i] = p;
        YT[yb + (NBu + jj) * n + i] = v;
        NX[xb + i * 2u * NBu + jj] = -v;
        REF[${REF_off} + b * n * n + i * n + j] = v;
        p *= v;
      }
      pr[tid / seg] = p;
    }
  } else if (tid == 0u) {
    DOT[${DOT_off} + b * 2u * NBu + col] = first + scal * red[0];
  }
  workgroupBarrier();
  if (rows && tid == 0u) {
    var sp = R(0.0);
    for (var r = 0u; r < ${rpw}u; r++) { sp += pr[r]; }
    WK[wb + 2u * n + wid.x] = sp;
  }
  if (wid.x == 0u && tid == 0u) {
    E[${E_off} + b * n + j] = beta;
    TAU[${TAU_off} + b * n + j] = tau;
  }
}
""", "trd_symv_pf")
