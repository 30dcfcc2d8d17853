${layout}
${helpers}
${io}
@compute @workgroup_size(${wg})
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let count = ${count};
  let total = count * ${rows};
  for (var t = g.x; t < total; t += nw.x * ${wg}u) {
    let j = t % count;
    let row = t / count;
    var v = ${C}(0.0, 0.0);
    if (j < ${n}) { v = cmul(ld(rowbase_in(row), j), chirp(j)); }
    st(rowbase_out(row), j, v);
  }
}
