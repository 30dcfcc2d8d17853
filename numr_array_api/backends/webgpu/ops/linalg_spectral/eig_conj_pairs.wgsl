${layout}
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let n = ${n};
  for (var b = g.x; b < ${nb}; b += nw.x * 64u) {
    let o = ${W_off} + b * n;
    let f = ${F_off} + b * n;
    var s = ${zero};
    for (var i = 0u; i < n; i++) {
      let w = W[o + i];
      s = max(s, abs(w.x) + abs(w.y));
      F[f + i] = 0u;
    }
    let tol = ${tol} * s;
    for (var i = 0u; i < n; i++) {
      let wi = W[o + i];
      if (F[f + i] != 0u || wi.y <= ${zero}) { continue; }
      var best = n;
      var bd = ${zero};
      for (var j = 0u; j < n; j++) {
        let wj = W[o + j];
        if (j == i || F[f + j] != 0u || wj.y >= ${zero}) { continue; }
        let d = abs(wj.x - wi.x) + abs(wj.y + wi.y);
        if (best == n || d < bd) { best = j; bd = d; }
      }
      if (best < n && bd <= tol) {
        let wj = W[o + best];
        let re = (wi.x + wj.x) * ${half};
        let im = (wi.y - wj.y) * ${half};
        W[o + i] = ${E}(re, im);
        W[o + best] = ${E}(re, -im);
        F[f + i] = 1u;
        F[f + best] = 1u;
      }
    }
    for (var i = 0u; i < n; i++) {
      let w = W[o + i];
      if (F[f + i] == 0u && abs(w.y) <= tol) { W[o + i] = ${E}(w.x, ${zero}); }
    }
  }
}
