${prelude}
${layout}
var<workgroup> vq: array<T, ${rows}>;   // column q of the block's rows, before the update
var<workgroup> xd: array<T, ${rows}>;   // column d of the block's rows, after it
var<workgroup> ps: array<T, ${wg}>;
var<workgroup> psc: array<R, ${ns}>;
var<workgroup> cw: array<T, ${ncap}>;   // conj(tau) w_c of the reflector of column q
var<workgroup> hv: array<T, 3>;         // x0 - beta, beta, house
${helpers}

@compute @workgroup_size(${wg})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) tid: u32) {
  let d = ${j};
  let b = wid.y;
  if (b >= ${nbat}) { return; }
  let blk = wid.x;
  let m = ${m};
  let nc = ${nc};
  let nblk = ${nblk};
  let lane = tid % ${ncap}u;
  let sl = tid / ${ncap}u;
  let base = ${A_off} + b * ${a_bs};
  let rs = ${a_rs};
  let cs = ${a_cs};
  let pb = ${PT_off} + b * 2u * nblk * ${pw}u;
  let db = ${DG_off} + b * 2u * ${ncap}u;
  let r0 = blk * ${rows}u;
  var q = 0u;
  if (d > 0u) { q = d - 1u; }
  // ---- every global load of the block's rows first: none depends on the reflector, so
  // their latency overlaps the partials' reduction (and no store sits between two loads)
  var regs: array<T, ${rpt}>;
  let lo = select(q + 1u, 0u, d == 0u);    // the columns this dispatch reads and updates
  for (var t = 0u; t < ${rpt}u; t++) {
    let i = r0 + sl + ${ns}u * t;
    var p = zero();
    if (i < m && i >= q && lane >= lo && lane < nc) { p = A[base + i * rs + lane * cs]; }
    regs[t] = p;
  }
  var house = false;
  var piv = one();
  var rpiv = R(0.0);
  if (d > 0u) {
    for (var r = tid; r < ${rows}u; r += ${wg}u) {
      let i = r0 + r;
      if (i < m) { vq[r] = A[base + i * rs + q * cs]; }
    }
    let rd = db + (q % 2u) * ${ncap}u;
    var alpha = zero();
    var pqc = zero();
    if (tid < ${ncap}u) {
      alpha = DG[rd + q];
      pqc = DG[rd + tid];
    }
    // ---- x^H p_c / S over all blocks (S: the largest scale), slices over blocks,
    // rescaling the running sum when a larger scale comes
    let rp = pb + (q % 2u) * nblk * ${pw}u;
    var smax = R(0.0);
    var y = zero();
    for (var k = sl; k < nblk; k += ${ns}u) {
      let sk = re(PT[rp + k * ${pw}u + ${ncap}u]);
      let yk = PT[rp + k * ${pw}u + lane];
      if (sk > smax) {
        y = y * (smax / sk) + yk;
        smax = sk;
      } else if (!(sk == R(0.0))) {   // NaN scales fall here and propagate
        y += yk * (sk / smax);
      }
    }
    ps[tid] = y;
    if (lane == 0u) { psc[sl] = smax; }
    workgroupBarrier();
    if (tid < ${ncap}u) {
      var s = R(0.0);
      for (var k = 0u; k < ${ns}u; k++) { s = max(s, psc[k]); }
      let is = rq(s);
      var yc = zero();
      var yq = zero();
      if (s > R(0.0)) {
        for (var k = 0u; k < ${ns}u; k++) {
          let f = scr(psc[k], s, is);
          yc += ps[k * ${ncap}u + tid] * f;
          yq += ps[k * ${ncap}u + q] * f;
        }
      }
${reflect}
    }
    workgroupBarrier();
    piv = hv[0];
    house = re(hv[2]) != R(0.0);
${rpiv}
  }
  // ---- the reflector of column q applied to the block's rows (d = 0: rows only read)
  for (var t = 0u; t < ${rpt}u; t++) {
    let r = sl + ${ns}u * t;
    let i = r0 + r;
    if (i < m && lane < nc) {
      var p = regs[t];
      if (d > 0u && i >= q) {
        let ai = base + i * rs + lane * cs;
        var v = one();
        if (i > q) {
          v = vq[r];
          if (house) { v = ${quot}; }
        }
        if (lane == q) {
          if (i == q) { A[ai] = hv[1]; } else if (house) { A[ai] = v; }
        } else if (lane > q) {
          p -= mul(v, cw[lane]);
          A[ai] = p;
        }
      }
      if (lane == d) { xd[r] = p; }
      if (i == d && lane >= d) { DG[db + (d % 2u) * ${ncap}u + lane] = p; }
      regs[t] = p;
    }
  }
  if (d >= nc) { return; }
  workgroupBarrier();
  // ---- partials of column d
${partials}
    let wp = pb + (d % 2u) * nblk * ${pw}u + blk * ${pw}u;
    PT[wp + tid] = yc;
    if (tid == 0u) { PT[wp + ${ncap}u] = of_re(s); }
  }
}
