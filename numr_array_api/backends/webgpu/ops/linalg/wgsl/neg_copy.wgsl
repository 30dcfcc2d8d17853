${prelude}
${layout}

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let g = gid.x + gid.y * nw.x * 256u;
  let ar = ${ar};
  let ac = ${ac};
  if (g < ${nbat} * ar * ac) {
    let bi = g / (ar * ac);
    let e = g % (ar * ac);
    N[${N_off} + g] = -Sa[${Sa_off} + bi * ${a_bs} + (e / ac) * ${a_rs} + (e % ac) * ${a_cs}];
  }
  let br = ${br};
  let bc = ${bc};
  if (g < ${nbat} * br * bc) {
    let bi = g / (br * bc);
    let e = g % (br * bc);
    Pc[${Pc_off} + g] = Sb[${Sb_off} + bi * ${b_bs} + (e / bc) * ${b_rs} + (e % bc) * ${b_cs}];
  }
}
