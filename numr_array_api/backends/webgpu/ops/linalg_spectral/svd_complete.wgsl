    ssync();
    if (lid == 0u) { flag = atomicLoad(&cnt); flag2 = atomicLoad(&cnt2); }
    let k0 = workgroupUniformLoad(&flag);
    let k1 = workgroupUniformLoad(&flag2);
    let uo = ${UO_off} + b * ${ubs};
    for (var c = k0; c < ${pcols}; c++) {
      var att = select(1u, 0u, c < k1);
      loop {
        if (att == 0u) {
          for (var i = lid; i < R; i += ${wg}u) { w_set(i, UO[uo + i * ${urs} + c * ${ucs}]); }
        } else {
          // the unit vector e_ist with the least weight inside span(P[:, :c])
          var bv: ${T} = ${four};
          var bi = 0u;
          for (var i = lid; i < R; i += ${wg}u) {
            var s2: ${T} = ${zero};
            for (var j = 0u; j < c; j++) { s2 += ab2(UO[uo + i * ${urs} + j * ${ucs}]); }
            if (s2 < bv) { bv = s2; bi = i; }
          }
          RED[lid] = bv;
          REDI[lid] = bi;
          sync();
          for (var st = ${wg}u / 2u; st > 0u; st >>= 1u) {
            if (lid < st && (RED[lid + st] < RED[lid] ||
                             (RED[lid + st] == RED[lid] && REDI[lid + st] < REDI[lid]))) {
              RED[lid] = RED[lid + st];
              REDI[lid] = REDI[lid + st];
            }
            sync();
          }
          let ist = REDI[0];
          for (var i = lid; i < R; i += ${wg}u) { w_set(i, select(${ezero}, tov(${one}), i == ist)); }
        }
        ssync();
        var s2: ${T} = ${zero};
        // Gram-Schmidt twice against P[:, :c]
${gs}
${gs}
        RED[lid] = s2;
        let q = wsum();
        if (lid == 0u) { fq = q; }
        let nq = workgroupUniformLoad(&fq);
        // a start that kept under half its length was (nearly) inside the span
        if (att != 0u || nq >= ${quarter}) {
          let rn = ${one} / sqrt(nq);
          for (var i = lid; i < R; i += ${wg}u) { UO[uo + i * ${urs} + c * ${ucs}] = w_get(i) * rn; }
          break;
        }
        att = 1u;
      }
      ssync();
    }
