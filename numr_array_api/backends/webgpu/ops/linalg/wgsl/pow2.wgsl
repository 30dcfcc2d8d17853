${prelude}
${math}
${layout}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let b = gid.x + gid.y * nw.x * 64u;
  if (b >= ${nbat}) { return; }
  let mx = Mx[${Mx_off} + b];
  var sc = R(1.0);
  // zero, inf and NaN matrices keep the scale 1; the exponent stays where 2^-e is normal
  if (mx > R(0.0) && numr_is_finite_${F}(mx)) {
    let e = clamp(numr_frexp_${F}(mx).exp - 1, ${elo}, ${ehi});
    sc = numr__pow2_${F}(-e);
  }
  Sc[${Sc_off} + b] = of_re(sc);
}
