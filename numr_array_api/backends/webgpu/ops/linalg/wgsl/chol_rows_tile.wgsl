  let r0 = blk * ${tr}u;
  let nr = min(${tr}u, m2 - min(m2, r0));
  for (var e = tid; e < ${tr}u * kb; e += ${wg}u) {
    let i = e / kb;
    let j = e % kb;
    var v = zero();
    if (i < nr) { v = A[base + (kb + r0 + i) * ${a_rs} + j * ${a_cs}]; }
    xt[i * nb + j] = v;
  }
  workgroupBarrier();
  for (var j = 0u; j < kb; j++) {
    if (j > 0u && tid < ${tr}u) {
      xt[tid * nb + j - 1u] = xt[tid * nb + j - 1u] / re(L[li(j - 1u, j - 1u)]);
    }
    let d = re(L[li(j, j)]);
    let w = kb - j - 1u;
    for (var e = tid; e < ${tr}u * w; e += ${wg}u) {
      let i = e / w;
      let c = j + 1u + e % w;
      xt[i * nb + c] = xt[i * nb + c] - mul(xt[i * nb + j] / d, cj(L[li(c, j)]));
    }
    workgroupBarrier();
  }
  if (tid < ${tr}u) { xt[tid * nb + kb - 1u] = xt[tid * nb + kb - 1u] / re(L[li(kb - 1u, kb - 1u)]); }
  workgroupBarrier();
  for (var e = tid; e < nr * kb; e += ${wg}u) {
    let i = e / kb;
    let j = e % kb;
    let x = xt[i * nb + j];
    A[base + (kb + r0 + i) * ${a_rs} + j * ${a_cs}] = x;
    Nn[${Nn_off} + b * ${n_bs} + (r0 + i) * kb + j] = -x;
  }
  for (var e = tid; e < nr * kb; e += ${wg}u) {
    let j = e / nr;
    let i = e % nr;
    Pt[${Pt_off} + b * ${p_bs} + j * m2 + r0 + i] = cj(xt[i * nb + j]);
  }
