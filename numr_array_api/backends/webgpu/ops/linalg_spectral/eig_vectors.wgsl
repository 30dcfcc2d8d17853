    sync();
    // y: T y = lambda_k y with y_k = 1, y_j = 0 beyond k (column k of Y at oy + k n)
    for (var k = lid; k < n; k += ${wg}u) {
      let lam = h(k, k, n);
      S[oy + k * n + k] = tov(${one});
      for (var jj = 0u; jj < k; jj++) {
        let j = k - 1u - jj;
        var s: ${E} = ${ezero};
        for (var l = j + 1u; l <= k; l++) { s += mul(h(j, l, n), S[oy + k * n + l]); }
        var d = h(j, j, n) - lam;
        if (cabs1(d) < EPS) { d = tov(EPS); }   // repeated eigenvalues: perturbed pivot
        S[oy + k * n + j] = -cdiv(s, d);
      }
    }
    sync();
    let vo = ${V_off} + b * nn;
    for (var e = lid; e < nn; e += ${wg}u) {
      let i = e / n;
      let k = e - i * n;
      var v: ${E} = ${ezero};
      for (var l = 0u; l <= k; l++) { v += mul(S[oq + i * n + l], S[oy + k * n + l]); }
      V[vo + e] = v;
    }
    sync();
    // unit 2-norm, the largest component real and positive (scaled first: no overflow)
    for (var k = lid; k < n; k += ${wg}u) {
      var big: ${T} = ${zero};
      var bi = 0u;
      for (var i = 0u; i < n; i++) {
        let a1 = cabs1(V[vo + i * n + k]);
        if (a1 > big) { big = a1; bi = i; }
      }
      if (big > ${zero}) {
        let p = V[vo + bi * n + k] / big;
        var s2: ${T} = ${zero};
        for (var i = 0u; i < n; i++) {
          let x = cdiv(V[vo + i * n + k] / big, p);
          V[vo + i * n + k] = x;
          s2 += ab2(x);
        }
        let r = ${one} / sqrt(s2);
        for (var i = 0u; i < n; i++) { V[vo + i * n + k] = V[vo + i * n + k] * r; }
      }
    }
