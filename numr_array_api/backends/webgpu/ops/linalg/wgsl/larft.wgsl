${prelude}
${layout}

// T = N^-1 diag(tau), N = I + diag(tau) striu(G) (unit upper triangular): larft's column
// recurrence T[:i, i] = -tau_i T[:i, :i] G[:i, i] is that inverse column by column, a
// chain of kb steps (~290 us for kb = 128 on an H100, the eigh back-transformation's
// blocks). Here N is inverted by doubling in Tm itself: at level h every pair of
// inverted h-row diagonal blocks A, C has its off-diagonal block B replaced by
// -A^-1 (B C^-1), B C^-1 parked in the strictly lower triangle (unused until the end);
// rows and columns beyond kb count as the identity's

// entry e of level h's off-diagonal blocks: (the pair's first row of C, row, column)
fn pair_entry(e: u32, h: u32) -> vec3<u32> {
  let mid = (e / (h * h)) * 2u * h + h;
  return vec3<u32>(mid, mid - h + (e % (h * h)) / h, mid + e % h);
}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>,
        @builtin(local_invocation_index) tid: u32) {
  let b = wid.x + wid.y * nw.x;
  if (b >= ${nbat}) { return; }
  let kb = ${kb};
  let gb = ${G_off} + b * kb * kb;
  let tb = ${Tm_off} + b * kb * kb;
  let ub = ${tau_off} + b * ${tau_bs};
  for (var e = tid; e < kb * kb; e += 256u) {
    let r = e / kb;
    let c = e % kb;
    var x = zero();
    if (r == c) { x = one(); } else if (r < c) { x = mul(tau[ub + r], G[gb + e]); }
    Tm[tb + e] = x;
  }
  storageBarrier();
  workgroupBarrier();
  for (var h = 1u; h < kb; h *= 2u) {
    let cnt = ((kb + 2u * h - 1u) / (2u * h)) * h * h;
    for (var e = tid; e < cnt; e += 256u) {    // B C^-1 (C^-1 upper triangular)
      let p = pair_entry(e, h);
      let row = p.y;
      let col = p.z;
      if (col < kb) {
        var w = zero();
        for (var k = p.x; k <= col; k++) { w += mul(Tm[tb + row * kb + k], Tm[tb + k * kb + col]); }
        Tm[tb + col * kb + row] = w;
      }
    }
    storageBarrier();
    workgroupBarrier();
    for (var e = tid; e < cnt; e += 256u) {    // -A^-1 (B C^-1) (A^-1 upper triangular)
      let p = pair_entry(e, h);
      let row = p.y;
      let col = p.z;
      if (col < kb) {
        var x = zero();
        for (var k = row; k < p.x; k++) { x += mul(Tm[tb + row * kb + k], Tm[tb + col * kb + k]); }
        Tm[tb + row * kb + col] = -x;
      }
    }
    storageBarrier();
    workgroupBarrier();
  }
  for (var e = tid; e < kb * kb; e += 256u) {
    let r = e / kb;
    let c = e % kb;
    if (r > c) { Tm[tb + e] = zero(); } else { Tm[tb + e] = mul(Tm[tb + e], tau[ub + c]); }
  }
}
