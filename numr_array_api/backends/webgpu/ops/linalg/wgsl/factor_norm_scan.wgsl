    if (tid == 0u) {
      var mx = R(0.0);
      for (var i = j; i < m; i++) { mx = max(mx, maxabs(ld(i, j))); }
      var ss = R(0.0);
      if (mx > R(0.0)) {
        for (var i = j + 1u; i < m; i++) { ss += absq(ld(i, j) / mx); }
      }
      red[0] = mx;
      red[1] = ss;
    }
    workgroupBarrier();
    let scale = red[0];
    let xn = red[1];
