${pre}
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
