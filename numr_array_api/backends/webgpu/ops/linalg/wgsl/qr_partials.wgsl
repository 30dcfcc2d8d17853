  var st = R(0.0);
  for (var t = 0u; t < ${rpt}u; t++) {
    let i = r0 + sl + ${ns}u * t;
    if (i > d && i < m) { st = max(st, maxabs(${xd})); }
  }
  var y = zero();
  let ist = rq(st);
  if (st > R(0.0) && lane >= d && lane < nc) {
    for (var t = 0u; t < ${rpt}u; t++) {
      let i = r0 + sl + ${ns}u * t;
      if (i > d && i < m) { y += mul(cj(sc(${xd}, st, ist)), regs[t]); }
    }
  }
  ps[tid] = y;
  if (lane == 0u) { psc[sl] = st; }
  workgroupBarrier();
  if (tid < ${ncap}u) {
    var s = R(0.0);
    for (var k = 0u; k < ${ns}u; k++) { s = max(s, psc[k]); }
    var yc = zero();
    if (s > R(0.0)) {
      let is = rq(s);
      for (var k = 0u; k < ${ns}u; k++) { yc += ps[k * ${ncap}u + tid] * scr(psc[k], s, is); }
    }
