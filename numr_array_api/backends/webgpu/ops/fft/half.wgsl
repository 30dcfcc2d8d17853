${layout}
${helpers}
${io}
@compute @workgroup_size(${wg})
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let h = ${h};
  let count = ${count};
  let total = count * ${rows};
  for (var t = g.x; t < total; t += nw.x * ${wg}u) {
    let k = t % count;
    let row = t / count;
    let ib = rowbase_in(row);
${body}
  }
}
