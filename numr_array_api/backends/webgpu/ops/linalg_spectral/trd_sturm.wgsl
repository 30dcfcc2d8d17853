fn sturm(db: u32, p: u32, q: u32, x: R, sc: R, pivmin: R, split: R) -> u32 {
  var cnt = 0u;
  var v = D[db + p] * sc - x;
  if (abs(v) < pivmin) { v = -pivmin; }
  if (v < R(0.0)) { cnt += 1u; }
  var dn = R(0.0);
  var en = R(0.0);
  if (p < q) { dn = D[db + p + 1u]; en = E[ED + db + p]; }
  for (var i = p + 1u; i <= q; i++) {
    let dc = dn * sc - x;
    var e = en * sc;
    if (i < q) { dn = D[db + i + 1u]; en = E[ED + db + i]; }
    if (abs(e) <= split) { e = R(0.0); }
    v = dc - e * e / v;
    if (abs(v) < pivmin) { v = -pivmin; }
    if (v < R(0.0)) { cnt += 1u; }
  }
  return cnt;
}
