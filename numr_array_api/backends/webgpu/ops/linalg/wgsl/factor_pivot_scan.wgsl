    if (tid == 0u) {
      var best = R(-1.0);
      var bi = j;
      for (var i = j; i < m; i++) {
        let v = cabs1(ld(i, j));
        if (v > best) { best = v; bi = i; }
      }
      rv[0] = best;
      ri[0] = bi;
    }
    workgroupBarrier();
