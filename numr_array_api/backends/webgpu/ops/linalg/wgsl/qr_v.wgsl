${prelude}
${layout}

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let g = gid.x + gid.y * nw.x * 256u;
  let m = ${m};
  let kb = ${kb};
  if (g >= ${nbat} * m * kb) { return; }
  let b = g / (m * kb);
  let e = g % (m * kb);
  let i = e / kb;
  let j = e % kb;
  var v = zero();
  if (i == j) { v = one(); }
  if (i > j) { v = Pn[${Pn_off} + b * ${p_bs} + i * ${p_rs} + j * ${p_cs}]; }
  V[${V_off} + g] = v;
  VH[${VH_off} + b * m * kb + j * m + i] = cj(v);
}
