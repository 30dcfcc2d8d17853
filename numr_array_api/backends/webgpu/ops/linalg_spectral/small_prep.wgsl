${layout}
const C: u32 = ${cap}u;
const LD: u32 = ${ld}u;
var<workgroup> QW: array<f64, ${sz}>;    // Q, row-major
var<workgroup> EW: array<f64, ${sz}>;    // E = Q^T Q - I, later T = A Q
var<workgroup> MW: array<f64, ${sz}>;    // M = I - E / 2 + 3 E^2 / 8, later A

@compute @workgroup_size(${wg})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nw: vec3<u32>) {
  let n = ${n};
  let nb = ${nb};
  // rows r0 + ${step} i, columns c0 + ${step} j (i, j < ${tile}) of every product
  let r0 = lid / ${step}u;
  let c0 = lid % ${step}u;
  for (var b = wid.x + wid.y * nw.x; b < nb; b += nw.x * nw.y) {
    let mo = b * n * n;
    for (var e = lid; e < C * C; e += ${wg}u) {
      let i = e / C;
      let j = e % C;
      var q = 0.0lf;
      if (i < n && j < n) { q = f64(Q32[${Q32_off} + mo + i * n + j]); }
      QW[i * LD + j] = q;
    }
    workgroupBarrier();
${gram}
${poly}
${qm}
    for (var e = lid; e < C * C; e += ${wg}u) {
      let i = e / C;
      let j = e % C;
      var a = 0.0lf;
      if (i < n && j < n) { a = A[${A_off} + mo + i * n + j]; }
      MW[i * LD + j] = a;
    }
    workgroupBarrier();
${aq}
${qtaq}
  }
}
