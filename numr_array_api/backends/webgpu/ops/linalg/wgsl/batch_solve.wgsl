${prelude}
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
