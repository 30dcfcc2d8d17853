${layout}
${helpers}
${io}
${bfly}
@compute @workgroup_size(${wg})
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let nb = ${nb};
  let p = ${p};
  let total = nb * ${rows};
  for (var t = g.x; t < total; t += nw.x * ${wg}u) {
    var i: u32;
    var row: u32;
    if (${order} == 0u) {
      i = t % nb;
      row = t / nb;
    } else {
      // inner rows fastest: neighbouring threads touch neighbouring addresses
      let b = t % ${inner};
      let q = t / ${inner};
      i = q % nb;
      row = (q / nb) * ${inner} + b;
    }
    let ib = rowbase_in(row);
    let ob = rowbase_out(row);
    let k = i % p;
    let e = k * ${tws};
    var u: array<${C}, 8>;
${loads}
    bfly${r}(&u);
    let j = (i - k) * ${r}u + k;
${stores}
  }
}
