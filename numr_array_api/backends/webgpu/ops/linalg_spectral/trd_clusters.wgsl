${pre}
${layout}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let b = gid.x;
  let n = ${n};
  if (b >= ${nbat}) { return; }
  let mb = ${MU_off} + b * n;
  let ob = ${BLK_off} + b * 2u * n;
  let tn = SC[${SC_off} + b * 2u + 1u];
  let lt = ${loose};
  let tt = ${tight};
  var cl = 1u;
  var ct = 1u;
  var ml = 1u;
  var mt = 1u;
  for (var s = 1u; s < n; s++) {
    let bp = BLK[ob + 2u * s];
    let same = bp < n && bp == BLK[ob + 2u * s - 2u];
    let g = MU[mb + s] - MU[mb + s - 1u];
    cl = select(1u, cl + 1u, same && g <= lt);
    ct = select(1u, ct + 1u, same && g <= tt);
    ml = max(ml, cl);
    mt = max(mt, ct);
  }
  CS[${CS_off} + 2u * b] = ml;
  CS[${CS_off} + 2u * b + 1u] = mt;
}
