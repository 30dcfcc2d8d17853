  // one row of A21 per invocation: x L11^H = a, x into A21, -x into Nn (m2, kb) and
  // conj(x) into Pt (kb, m2), the operands of the trailing update C += Nn @ Pt
  let i = blk * ${wg}u + tid;
  if (i < m2) {
    let row = base + (kb + i) * ${a_rs};
    var x: array<T, ${nb}>;
    for (var j = 0u; j < kb; j++) {
      var s = A[row + j * ${a_cs}];
      let lb = li(j, 0u);
      for (var k = 0u; k < j; k++) { s -= mul(x[k], cj(L[lb + k])); }
      x[j] = s / re(L[lb + j]);
    }
    let nrow = ${Nn_off} + b * ${n_bs} + i * kb;
    let pcol = ${Pt_off} + b * ${p_bs} + i;
    for (var j = 0u; j < kb; j++) {
      A[row + j * ${a_cs}] = x[j];
      Nn[nrow + j] = -x[j];
      Pt[pcol + j * m2] = cj(x[j]);
    }
  }
