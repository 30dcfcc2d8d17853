        var bv = best;
        var bx = bi;
        for (var msk = 1u; msk < min(sgs, ${wg}u); msk <<= 1u) {
          let ov = shr(bv, msk);
          let oi = subgroupShuffleXor(bx, msk);
          if (ov > bv || (ov == bv && oi < bx)) { bv = ov; bx = oi; }
        }
        if (sgi == 0u) { rv[sid] = bv; ri[sid] = bx; }
        workgroupBarrier();
        var pv = rv[0];
        var p = ri[0];
        for (var q = 1u; q < nsg; q++) {
          let ov = rv[q];
          let oi = ri[q];
          if (ov > pv || (ov == pv && oi < p)) { pv = ov; p = oi; }
        }
