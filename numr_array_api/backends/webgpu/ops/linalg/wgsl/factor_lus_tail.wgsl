
  workgroupBarrier();
  for (var c = tid; c < ${kx}; c += ${wg}u) {
    let xb = ${X_off} + b * ${x_bs} + c * ${x_cs};
    var xv: array<T, ${nmax}>;
    for (var i = 0u; i < m; i++) {
      if (${ident} != 0u) { xv[i] = select(zero(), one(), i == c); }
      else { xv[i] = X[xb + i * ${x_rs}]; }
    }
    for (var i = 0u; i < m; i++) {
      let p = pvs[i];
      if (p != i) { let t = xv[i]; xv[i] = xv[p]; xv[p] = t; }
    }
    for (var i = 1u; i < m; i++) {
      var s = xv[i];
      for (var k = 0u; k < i; k++) { s -= mul(ld(i, k), xv[k]); }
      xv[i] = s;
    }
    for (var q = 0u; q < m; q++) {
      let i = m - 1u - q;
      var s = xv[i];
      for (var k = i + 1u; k < m; k++) { s -= mul(ld(i, k), xv[k]); }
      xv[i] = dv(s, ld(i, i));
    }
    for (var i = 0u; i < m; i++) { X[xb + i * ${x_rs}] = xv[i]; }
  }
