${prelude}
${layout}
var<workgroup> ts: array<T, ${kk}>;     // N = I + diag(tau) striu(G), then T (stride KB)
var<workgroup> tw: array<T, ${kq}>;     // B C^-1 of every block pair of a level

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>,
        @builtin(local_invocation_index) tid: u32) {
  let gi = wid.x + wid.y * nw.x;
  let nblk = ${nblk};
  if (gi >= nblk * ${nbat}) { return; }
  let b = gi / nblk;
  let blk = gi % nblk;
  let m = ${m};
  let kb = ${kb};
  let KB = ${kbm}u;
  let ub = ${tau_off} + b * ${tau_bs};
  // T of the block reflector I - V T V^H (LAPACK's larft, forward, columnwise) is
  // N^-1 diag(tau) with N = I + diag(tau) striu(V^H V) (unit upper triangular; identity
  // beyond kb): larft's recurrence T[:i, i] = -tau_i T[:i, :i] G[:i, i] is the column
  // form of that inverse. N is inverted by doubling (diagonal blocks of h rows already
  // inverted, every off-diagonal block B of a pair becomes -A^-1 B C^-1): a chain of
  // ~2 KB products and 2 log2(KB) barriers where larft's recurrence is ~KB^2 / 2 and KB
  // barriers (H100: 48 us of a QrTSpec dispatch, float64)
  for (var e = tid; e < KB * KB; e += 256u) {
    let r = e / KB;
    let c = e % KB;
    var x = zero();
    if (r == c) {
      x = one();
    } else if (r < c && c < kb) {
      x = mul(tau[ub + r], G[${G_off} + b * kb * kb + r * kb + c]);
    }
    ts[e] = x;
  }
  workgroupBarrier();
  for (var h = 1u; h < KB; h *= 2u) {
    let act = tid < (KB / (2u * h)) * h * h;
    let p = tid / (h * h);
    let rr = (tid % (h * h)) / h;
    let cc = tid % h;
    let r0 = p * 2u * h;
    var w = zero();
    if (act) {   // (B C^-1)[rr, cc]: C^-1 upper triangular
      for (var k = 0u; k <= cc; k++) {
        w += mul(ts[(r0 + rr) * KB + r0 + h + k], ts[(r0 + h + k) * KB + r0 + h + cc]);
      }
      tw[tid] = w;
    }
    workgroupBarrier();
    if (act) {   // -(A^-1 (B C^-1))[rr, cc]: A^-1 upper triangular; B read above
      var x = zero();
      for (var k = rr; k < h; k++) { x += mul(ts[(r0 + rr) * KB + r0 + k], tw[p * h * h + k * h + cc]); }
      ts[(r0 + rr) * KB + r0 + h + cc] = -x;
    }
    workgroupBarrier();
  }
  for (var e = tid; e < KB * KB; e += 256u) {
    let c = e % KB;
    if (c < kb) { ts[e] = mul(ts[e], tau[ub + c]); }
  }
  workgroupBarrier();
  // one output column j and row r per invocation, ${rw} consecutive rows a workgroup (a
  // subgroup stores runs of rows): Y1 = -(V T)^H and Y2 = -(V T^H)^H, kb x m each. (One
  // invocation per row kept its row of V in an indexed array, which NVIDIA's compiler put in
  // local memory: 110 us per 32-column panel whatever its height, on 16 workgroups at most)
  let j = tid / ${rw}u;
  let r = blk * ${rw}u + tid % ${rw}u;
  if (r < m && j < kb) {
    let vb = ${V_off} + b * m * kb + r * kb;
    var y1 = zero();
    var y2 = zero();
    for (var c = 0u; c < kb; c++) {
      let v = V[vb + c];
      y1 += mul(v, ts[c * KB + j]);
      y2 += mul(v, cj(ts[j * KB + c]));   // (a subgroup spans 32 / rw rows of T)
    }
    Y1[${Y1_off} + b * m * kb + j * m + r] = -cj(y1);
    Y2[${Y2_off} + b * m * kb + j * m + r] = -cj(y2);
  }
}
