
  workgroupBarrier();
  for (var c = tid; c < ${qc}; c += ${wg}u) {
    var qv: array<T, ${nmax}>;
    for (var i = 0u; i < m; i++) { qv[i] = select(zero(), one(), i == c); }
    for (var q = 0u; q < kmax; q++) {
      let j = kmax - 1u - q;
      var w = qv[j];
      for (var i = j + 1u; i < m; i++) { w += mul(cj(ld(i, j)), qv[i]); }
      w = mul(tw[j], w);
      qv[j] -= w;
      for (var i = j + 1u; i < m; i++) { qv[i] -= mul(ld(i, j), w); }
    }
    let qb = ${Q_off} + b * ${q_bs} + c;
    for (var i = 0u; i < m; i++) { Q[qb + i * ${q_rs}] = qv[i]; }
  }
