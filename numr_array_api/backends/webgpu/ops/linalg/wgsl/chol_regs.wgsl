${prelude}
${layout}
// column j of X: rows 0..nb-1 the diagonal block, nb..nb+tr-1 the row tile; by parity
var<workgroup> colx: array<T, ${ncol}>;
var<workgroup> dg: array<R, ${nb}>;


@compute @workgroup_size(${wg})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>,
        @builtin(local_invocation_index) tid: u32) {
${head}
  let r0 = blk * ${tr}u;
  let c = tid % ${nb}u;
  let g0 = tid / ${nb}u;
  // the previous step's factor (o x o, in D[1 - par]) goes to its place in A now: no
  // workgroup of that step could write A11 while others still read it
  if (blk == 0u && o > 0u) {
    let src = db + (1u - ${par}) * ${nb}u * ${nb}u;
    for (var e = tid; e < ${nb}u * ${nb}u; e += ${wg}u) {
      let i = e / ${nb}u;
      let j = e % ${nb}u;
      if (i < o && j <= i) { A[pbase + i * ${a_rs} + j * ${a_cs}] = D[src + i * o + j]; }
    }
  }
${load}
  workgroupBarrier();
  for (var j = 0u; j < kb; j++) {
    let p = (j & 1u) * ${nr}u;
    let d = re(colx[p + j]);
    if (tid == 0u) {
      dg[j] = d;
      if (!(d > R(0.0)) && blk == 0u) { atomicOr(&st[0], 1u); }
    }
    if (c > j) {
      // both sides scaled by 1 / sqrt(d), never divided by d: NVIDIA divides through the
      // reciprocal, which flushes to zero for |d| > 2^126 (float32 pivots of ~1e38: 6 %
      // error on the H100), and 1 / d itself would; sqrt(d) stays far inside the range
      let is = R(1.0) / sqrt(d);
      let f = cj(colx[p + c]) * is;
${update}
      if (c == j + 1u) {
        let q = ${nr}u - p;
${publish}
      }
    }
    workgroupBarrier();
  }
  let s = sqrt(select(R(1.0), dg[c], c < kb));
  // one division an invocation, not one an element (f64 division is long on GPUs)
  let rs = R(1.0) / s;
  if (blk == 0u) {
    let dst = db + ${par} * ${nb}u * ${nb}u;
${diag}
  }
${rows}
}
