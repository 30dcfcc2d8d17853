${pre}
${layout}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let b = gid.y;
  let s = gid.x;
  let n = ${n};
  if (b >= ${nbat} || s >= n) { return; }
  let mb = ${MU_off} + b * n;
  let sc = SC[${SC_off} + b * 2u];
  let mu = MU[mb + s];
  var r = 0u;
  var nonfinite = false;
  for (var i = 0u; i < n; i++) {
    let m = MU[mb + i];
    if (bad(m)) { nonfinite = true; }
    if (m < mu || (m == mu && i < s)) { r += 1u; }
  }
  if (nonfinite) {
    W[${W_off} + b * n + s] = ${nan};
    SLOT[${SLOT_off} + b * n + s] = s;
    return;
  }
  W[${W_off} + b * n + r] = mu / sc;
  SLOT[${SLOT_off} + b * n + r] = s;
}
