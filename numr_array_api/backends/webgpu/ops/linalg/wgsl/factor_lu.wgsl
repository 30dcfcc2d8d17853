  let kmax = min(m, nc);
  for (var j = 0u; j < kmax; j++) {

${pivot}
    let pv = rv[0];
    let p = ri[0];
    if (tid == 0u) {
      ipiv[${ipiv_off} + b * ${p_bs} + j] = i32(${pbase} + p);
      if (pv == R(0.0)) { atomicOr(&st[0], 1u); }
      ${record}
    }
    if (p != j) {
      for (var c = tid; c < nc; c += ${wg}u) {
        let t = ld(j, c);
        st_(j, c, ld(p, c));
        st_(p, c, t);
      }
    }
    ${bar}
    let d = ld(j, j);
    if (pv != R(0.0)) {
      for (var i = j + 1u + tid; i < m; i += ${wg}u) { st_(i, j, dv(ld(i, j), d)); }
    }
    ${bar}
    let r = m - j - 1u;
    let c2 = nc - j - 1u;
    for (var e = tid; e < r * c2; e += ${wg}u) {
      let p2 = j + 1u + e / c2;
      let q = j + 1u + e % c2;
      st_(p2, q, ld(p2, q) - mul(ld(p2, j), ld(j, q)));
    }
    ${bar}
  }
