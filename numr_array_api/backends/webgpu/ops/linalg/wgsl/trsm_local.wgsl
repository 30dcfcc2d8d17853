${prelude}
${layout}

fn tt(tb: u32, i: u32, k: u32) -> T { return ${tconj}(Tm[tb + i * ${t_rs} + k * ${t_cs}]); }

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let g = gid.x + gid.y * nw.x * 64u;
  let nv = ${nv};
  if (g >= nv * ${nbat}) { return; }
  let b = g / nv;
  let v = g % nv;
  let tb = ${Tm_off} + b * ${t_bs};
  let xb = ${X_off} + b * ${x_bs} + v * ${x_vs};
  let n = ${n};
  let es = ${x_es};
  var xv: array<T, ${nmax}>;
  for (var i = 0u; i < n; i++) { xv[i] = X[xb + i * es]; }
  for (var q = 0u; q < n; q++) {
    let i = ${row};
    var s = xv[i];
    for (var k = ${k0}; k < ${k1}; k++) { s -= mul(tt(tb, i, k), xv[k]); }
    ${divide}
    xv[i] = s;
  }
  for (var i = 0u; i < n; i++) { X[xb + i * es] = xv[i]; }
}
