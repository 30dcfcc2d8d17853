${layout}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let g = gid.x + gid.y * nw.x * 64u;
  let nc = ${nc};
  if (g >= nc * ${nbat}) { return; }
  let b = g / nc;
  let c = g % nc;
  let ab = ${A_off} + b * ${a_bs} + c * ${a_cs};
  let pb = ${ipiv_off} + b * ${p_bs};
  for (var i = 0u; i < ${kb}; i++) {
    let p = u32(ipiv[pb + i]) - ${pbase};
    if (p != i) {
      let t = A[ab + i * ${a_rs}];
      A[ab + i * ${a_rs}] = A[ab + p * ${a_rs}];
      A[ab + p * ${a_rs}] = t;
    }
  }
}
