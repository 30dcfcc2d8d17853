${pre}
${layout}

// slot s chained to s - 1 as ClusterSpec chains them (the same expressions: the sizes it
// reports and the chains found here must agree)
fn chained(mb: u32, ob: u32, s: u32, n: u32, tt: R) -> bool {
  let bp = BLK[ob + 2u * s];
  return bp < n && bp == BLK[ob + 2u * s - 2u] && MU[mb + s] - MU[mb + s - 1u] <= tt;
}

// an invocation per slot: CH[b, s] = (first slot, members) of its tight chain, by walking
// the chain both ways (O(members); the chains are short but in degenerate spectra)
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let s = gid.x;
  let b = gid.y;
  let n = ${n};
  if (b >= ${nbat} || s >= n) { return; }
  let mb = ${MU_off} + b * n;
  let ob = ${BLK_off} + b * 2u * n;
  let tn = SC[${SC_off} + b * 2u + 1u];
  let tt = ${tight};
  var p = s;
  while (p > 0u && chained(mb, ob, p, n, tt)) { p -= 1u; }
  var q = s;
  while (q + 1u < n && chained(mb, ob, q + 1u, n, tt)) { q += 1u; }
  CH[${CH_off} + b * 2u * n + 2u * s] = p;
  CH[${CH_off} + b * 2u * n + 2u * s + 1u] = q - p + 1u;
}
