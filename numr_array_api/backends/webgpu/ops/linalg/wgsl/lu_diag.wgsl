${prelude}
${layout}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let g = gid.x + gid.y * nw.x * 64u;
  if (g >= ${nbat}) { return; }
  let ab = ${A_off} + g * ${a_bs};
  let pb = ${ipiv_off} + g * ${p_bs};
  // the running product is kept in [2^-60, 2^60] times 2^(60 ex) by exact power-of-two
  // scalings, so det is finite wherever NumPy's sign * exp(log|det|) is, whatever the
  // order of large and small pivots
  let big = R(1152921504606846976.0);
  let small = R(1.0) / big;
  var acc = one();
  var ex = 0i;
  var odd = false;
  var zero_seen = false;
  var nan_seen = false;
  for (var i = 0u; i < ${n}; i++) {
    if (u32(ipiv[pb + i]) != i) { odd = !odd; }
    var d = ${elem}(A[ab + i * ${a_ds}]);
    let m = cabs1(d);
    zero_seen = zero_seen || m == R(0.0);
    nan_seen = nan_seen || !(m >= R(0.0));
    let dm = maxabs(d);
    if (dm > big) { d = d * small; ex += 1i; }
    if (dm > R(0.0) && dm < small) { d = d * big; ex -= 1i; }
    acc = mul(acc, d);
    let am = maxabs(acc);
    if (am > big) { acc = acc * small; ex += 1i; }
    if (am > R(0.0) && am < small) { acc = acc * big; ex -= 1i; }
  }
  for (var k = 0i; k < ex; k++) { acc = acc * big; }
  for (var k = 0i; k > ex; k--) { acc = acc * small; }
  // a zero pivot makes det 0 even where the running product overflowed; NaN stays NaN
  if (zero_seen && !nan_seen) { acc = zero(); }
  if (odd) { acc = -acc; }
  D[${D_off} + g] = acc;
}
