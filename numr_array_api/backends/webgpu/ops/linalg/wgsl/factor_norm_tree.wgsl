    var mx = R(0.0);
    for (var i = j + tid; i < m; i += ${wg}u) { mx = max(mx, maxabs(ld(i, j))); }
    red[tid] = mx;
    workgroupBarrier();
    for (var s = ${wg}u / 2u; s > 0u; s >>= 1u) {
      if (tid < s) { red[tid] = max(red[tid], red[tid + s]); }
      workgroupBarrier();
    }
    let scale = red[0];
    workgroupBarrier();
    var ss = R(0.0);
    if (scale > R(0.0)) {
      for (var i = j + 1u + tid; i < m; i += ${wg}u) { ss += absq(ld(i, j) / scale); }
    }
    red[tid] = ss;
    workgroupBarrier();
    for (var s = ${wg}u / 2u; s > 0u; s >>= 1u) {
      if (tid < s) { red[tid] = red[tid] + red[tid + s]; }
      workgroupBarrier();
    }
    let xn = red[0];
