    var best = R(-1.0);
    var bi = j;
    for (var i = j + tid; i < m; i += ${wg}u) {
      let v = cabs1(ld(i, j));
      if (v > best) { best = v; bi = i; }
    }
    rv[tid] = best;
    ri[tid] = bi;
    workgroupBarrier();
    for (var s = ${wg}u / 2u; s > 0u; s >>= 1u) {
      if (tid < s) {
        let ov = rv[tid + s];
        let oi = ri[tid + s];
        if (ov > rv[tid] || (ov == rv[tid] && oi < ri[tid])) { rv[tid] = ov; ri[tid] = oi; }
      }
      workgroupBarrier();
    }
