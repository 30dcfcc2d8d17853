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
        let pv = rv[0];
        let p = ri[0];
