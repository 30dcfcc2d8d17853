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
  ${norms}
  if (tid == 0u) { wflag = select(0u, 1u, nonfinite || s == R(0.0)); }
  if (workgroupUniformLoad(&wflag) != 0u) {
    if (tid == 0u) { W[${W_off} + b * n + k] = select(R(0.0), ${nan}, nonfinite); }
    return;
  }
  let mu = msect(tid, db, 0u, n - 1u, k, sc, pivmin, R(-1.0), tn);
  if (tid == 0u) { W[${W_off} + b * n + k] = mu * s; }
}
