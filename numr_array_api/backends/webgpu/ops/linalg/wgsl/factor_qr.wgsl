  let kmax = min(m, nc);
  for (var j = 0u; j < kmax; j++) {

${norm}
    let alpha = ld(j, j);
    var tau = zero();
    var beta = re(alpha);
    var piv = one();
    let house = !(xn == R(0.0) && im(alpha) == R(0.0));
    if (house) {
      let a = alpha / scale;
      let nrm = scale * sqrt(absq(a) + xn);
      beta = select(nrm, -nrm, re(alpha) >= R(0.0));
      tau = mk((beta - re(alpha)) / beta, -im(alpha) / beta);
      piv = alpha - of_re(beta);
    }
    workgroupBarrier();
    if (house) {
      for (var i = j + 1u + tid; i < m; i += ${wg}u) { st_(i, j, dv(ld(i, j), piv)); }
    }
    if (tid == 0u) {
      st_(j, j, of_re(beta));
      tau_[${tau__off} + b * ${tau_bs} + j] = tau;
      ${record}
    }
    ${bar}
    // v^H a_c for every later column c: NS row slices per column, so no invocation loops
    // over all m rows (lavapipe ends a loop after 65535 iterations in all)
    let cl = tid % ${ncap}u;
    let sl = tid / ${ncap}u;
    let c = j + 1u + cl;
    var w = zero();
    if (c < nc) {
      for (var i = j + 1u + sl; i < m; i += ${ns}u) { w += mul(cj(ld(i, j)), ld(i, c)); }
      if (sl == 0u) { w += ld(j, c); }
    }
    part[tid] = w;
    workgroupBarrier();
    if (tid < ${ncap}u && c < nc) {
      var t = zero();
      for (var q = 0u; q < ${ns}u; q++) { t += part[q * ${ncap}u + tid]; }
      wv[c] = mul(cj(tau), t);
    }
    ${bar}
    let r = m - j;
    let c2 = nc - j - 1u;
    for (var e = tid; e < r * c2; e += ${wg}u) {
      let i = j + e / c2;
      let c = j + 1u + e % c2;
      let v = select(ld(i, j), one(), i == j);
      st_(i, c, ld(i, c) - mul(v, wv[c]));
    }
    ${bar}
  }
