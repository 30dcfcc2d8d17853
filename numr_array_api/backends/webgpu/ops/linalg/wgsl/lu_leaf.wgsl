${prelude}
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
