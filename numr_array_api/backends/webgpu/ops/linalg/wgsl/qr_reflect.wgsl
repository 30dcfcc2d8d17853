      let g = max(s, maxabs(alpha));
      var xn = R(0.0);            // sum |x_i / g|^2, as FactorSpec's
      if (s > R(0.0)) { xn = re(yq) / s * (s / g) * (s / g); }
      let hs = !(xn == R(0.0) && im(alpha) == R(0.0));
      var beta = re(alpha);
      var tau = zero();
      var pv = one();
      if (hs) {
        let nrm = g * sqrt(absq(alpha / g) + xn);
        beta = select(nrm, -nrm, re(alpha) >= R(0.0));
        tau = mk((beta - re(alpha)) / beta, -im(alpha) / beta);
        pv = alpha - of_re(beta);
      }
      var c = zero();
      if (hs && tid > q && tid < nc) {
        // v^H p_c = p_qc + x^H p_c / conj(x0 - beta), both sides scaled by g
        let w = pqc + dv(yc * (s / g), cj(pv) / g);
        c = mul(cj(tau), w);
      }
      cw[tid] = c;
      if (tid == q) {
        hv[0] = pv;
        hv[1] = of_re(beta);
        hv[2] = select(zero(), one(), hs);
        if (blk == 0u) { tau_[${tau__off} + b * ${tau_bs} + q] = tau; }
      }
