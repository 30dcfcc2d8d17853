  var s = R(0.0);
  var nonfinite = false;
  for (var i = 0u; i < n; i++) {
    let d = D[db + i];
    var e = R(0.0);
    if (i + 1u < n) { e = E[ED + db + i]; }
    if (bad(d) || bad(e)) { nonfinite = true; }
    s = max(s, max(abs(d), abs(e)));
  }
  var sc = R(1.0);
  if (s > R(0.0) && !nonfinite) { sc = R(1.0) / s; }
  var tn = R(0.0);
  var emax = R(0.0);
  for (var i = 0u; i < n; i++) {
    var r = abs(D[db + i] * sc);
    if (i > 0u) { r += abs(E[ED + db + i - 1u] * sc); }
    if (i + 1u < n) { let e = abs(E[ED + db + i] * sc); r += e; emax = max(emax, e); }
    tn = max(tn, r);
  }
  let pivmin = SAFMIN * max(R(1.0), emax * emax) * R(4.0);
  let split = R(${split_c}) * EPS * tn;
