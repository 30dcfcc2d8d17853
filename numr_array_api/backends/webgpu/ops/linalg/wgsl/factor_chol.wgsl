  for (var j = 0u; j < m; j++) {
    if (tid == 0u) {
      let d = re(ld(j, j));
      if (!(d > R(0.0))) { atomicOr(&st[0], 1u); }
      let s = sqrt(d);
      st_(j, j, of_re(s));
      shr = s;
    }
    ${bar}
    let s = shr;
    for (var i = j + 1u + tid; i < m; i += ${wg}u) { st_(i, j, ld(i, j) / s); }
    ${bar}
    let r = m - j - 1u;
    for (var e = tid; e < r * r; e += ${wg}u) {
      let p = j + 1u + e / r;
      let q = j + 1u + e % r;
      if (q <= p) { st_(p, q, ld(p, q) - mul(ld(p, j), cj(ld(q, j)))); }
    }
    ${bar}
  }
