var<workgroup> first: atomic<u32>;
var<workgroup> wflag: u32;

// the local eigenvalue li (ascending) of rows [p, q] of the scaled T
fn msect(tid: u32, db: u32, p: u32, q: u32, li: u32, sc: R, pivmin: R, split: R, tn: R) -> R {
  var lo = R(0.0);
  var hi = R(0.0);
  for (var i = p; i <= q; i++) {
    var r = R(0.0);
    if (i > p) { r += abs(E[ED + db + i - 1u] * sc); }
    if (i < q) { r += abs(E[ED + db + i] * sc); }
    let d = D[db + i] * sc;
    if (i == p) { lo = d - r; hi = d + r; } else { lo = min(lo, d - r); hi = max(hi, d + r); }
  }
  lo = lo - R(4.0) * EPS * tn - pivmin;
  hi = hi + R(4.0) * EPS * tn + pivmin;
  let abstol = EPS * tn * R(0.125);
  for (var r = 0u; r < ${rounds}u; r++) {
    let conv = hi - lo <= max(abstol, R(4.0) * EPS * max(abs(lo), abs(hi)));
    if (tid == 0u) { atomicStore(&first, ${mw}u); }
    workgroupBarrier();
    let w = hi - lo;
    if (!conv) {
      let x = lo + w * (R(tid + 1u) / R(${mw1}.0));
      if (sturm(db, p, q, x, sc, pivmin, split) > li) { atomicMin(&first, tid); }
    }
    workgroupBarrier();
    let f = atomicLoad(&first);
    workgroupBarrier();
    if (!conv) {
      var nlo = lo;
      var nhi = hi;
      if (f > 0u) { nlo = lo + w * (R(f) / R(${mw1}.0)); }
      if (f < ${mw}u) { nhi = lo + w * (R(f + 1u) / R(${mw1}.0)); }
      lo = nlo;
      hi = nhi;
    }
  }
  return R(0.5) * (lo + hi);
}
