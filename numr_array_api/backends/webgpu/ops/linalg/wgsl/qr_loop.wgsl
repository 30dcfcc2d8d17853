${prelude}
${layout}
var<workgroup> xv: array<T, ${rows2}>;  // column d after step d: halves by the parity of d
var<workgroup> ps: array<T, ${wg}>;
var<workgroup> psc: array<R, ${ns}>;
var<workgroup> cw: array<T, ${ncap}>;   // conj(tau) w_c of the reflector of column q
var<workgroup> hv: array<T, 3>;         // x0 - beta, beta, house
var<workgroup> pt: array<T, ${pw}>;     // the partials of column d: sums, then the scale
var<workgroup> dg: array<T, ${ncap}>;   // row d after step d
${helpers}

@compute @workgroup_size(${wg})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) tid: u32) {
  let b = wid.y;
  if (b >= ${nbat}) { return; }
  let blk = 0u;
  let r0 = 0u;
  let m = ${m};
  let nc = ${nc};
  let lane = tid % ${ncap}u;
  let sl = tid / ${ncap}u;
  let base = ${A_off} + b * ${a_bs};
  let rs = ${a_rs};
  let cs = ${a_cs};
  var regs: array<T, ${rpt}>;
  for (var t = 0u; t < ${rpt}u; t++) {
    let i = sl + ${ns}u * t;
    var p = zero();
    if (i < m && lane < nc) { p = A[base + i * rs + lane * cs]; }
    regs[t] = p;
  }
  for (var d = 0u; d <= nc; d++) {
    var q = 0u;
    if (d > 0u) { q = d - 1u; }
    let xq = (q % 2u) * ${rows}u;
    let xo = (d % 2u) * ${rows}u;
    var house = false;
    var piv = one();
    var rpiv = R(0.0);
    if (d > 0u) {
      // ---- the reflector of column q from step q's partials and diagonal row
      if (tid < ${ncap}u) {
        let alpha = dg[q];
        let pqc = dg[tid];
        let s = re(pt[${ncap}u]);
        let yc = pt[tid];
        let yq = pt[q];
${reflect}
      }
      workgroupBarrier();
      piv = hv[0];
      house = re(hv[2]) != R(0.0);
${rpiv}
    }
    // ---- applied to the rows (d = 0: rows only read); column q becomes v and beta
    for (var t = 0u; t < ${rpt}u; t++) {
      let i = sl + ${ns}u * t;
      if (i < m && lane < nc) {
        var p = regs[t];
        if (d > 0u && i >= q) {
          var v = one();
          if (i > q) {
            v = xv[xq + i];
            if (house) { v = ${quot}; }
          }
          if (lane == q) {
            if (i == q) { p = hv[1]; } else if (house) { p = v; }
          } else if (lane > q) {
            p -= mul(v, cw[lane]);
          }
        }
        if (lane == d) { xv[xo + i] = p; }
        if (i == d && lane >= d) { dg[lane] = p; }
        regs[t] = p;
      }
    }
    if (d >= nc) { break; }
    workgroupBarrier();
    // ---- partials of column d
${partials}
      pt[tid] = yc;
      if (tid == 0u) { pt[${ncap}u] = of_re(s); }
    }
    workgroupBarrier();
  }
  for (var t = 0u; t < ${rpt}u; t++) {
    let i = sl + ${ns}u * t;
    if (i < m && lane < nc) { A[base + i * rs + lane * cs] = regs[t]; }
  }
}
