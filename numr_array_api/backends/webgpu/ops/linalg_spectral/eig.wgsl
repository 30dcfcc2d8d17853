// General eigenproblem, one workgroup per matrix, in complex arithmetic (complex Schur form):
// Givens reduction to Hessenberg form, then single-shift QR sweeps (Wilkinson shift,
// exceptional shifts every 10 stalled iterations) with deflation; eigenvalues are the
// diagonal of T; eigenvectors (vectors) back-substitute T y = lambda y and map them by Q,
// normalised to unit 2-norm with the largest component real and positive. Thread 0 decides
// each rotation (sequential by nature); the workgroup applies it to rows, columns and Q.
// A matrix that does not converge within 30 n iterations gets status 1.
${layout}
${cfns}
var<workgroup> RC: array<${E}, 2>;       // the current rotation: (c, 0), s
var<workgroup> CTL: array<u32, 4>;       // lo, hi, done
var<workgroup> DL: atomic<u32>;
var<private> oh: u32;
var<private> oq: u32;
var<private> oy: u32;

const EPS: ${T} = ${eps};
const TINY: ${T} = ${tiny};

fn sync() { storageBarrier(); workgroupBarrier(); }
fn h(i: u32, j: u32, n: u32) -> ${E} { return S[oh + i * n + j]; }
fn hset(i: u32, j: u32, n: u32, v: ${E}) { S[oh + i * n + j] = v; }
fn cabs1(x: ${E}) -> ${T} { return abs(x.x) + abs(x.y); }
fn cdiv(a: ${E}, b: ${E}) -> ${E} { return mul(a, cj(b)) / ab2(b); }
fn csqrt(z: ${E}) -> ${E} {
  let r = sqrt(ab2(z));
  let re_ = sqrt(max((r + z.x) * ${halfv}, ${zero}));
  var im_ = sqrt(max((r - z.x) * ${halfv}, ${zero}));
  if (z.y < ${zero}) { im_ = -im_; }
  return ${E}(re_, im_);
}

// Givens (c real, s complex) with [c s; -conj(s) c] [f; g] = [r; 0]
fn givens(f: ${E}, g: ${E}) {
  let af = sqrt(ab2(f));
  let ag = sqrt(ab2(g));
  var c: ${T} = ${one};
  var s: ${E} = ${ezero};
  if (ag > ${zero}) {
    if (af == ${zero}) {
      c = ${zero};
      s = cj(g) / ag;
    } else {
      // rho = |f| sqrt(1 + (|g|/|f|)^2) avoids squaring large moduli
      let m = max(af, ag);
      let rho = m * sqrt((af / m) * (af / m) + (ag / m) * (ag / m));
      c = af / rho;
      s = mul(f / af, cj(g)) / rho;
    }
  }
  RC[0] = tov(c);
  RC[1] = s;
}

// H <- G H G^H on rows / columns (k, k + 1), Q <- Q G^H; then zero H[zi, zj] if zi < n
fn apply(k: u32, n: u32, lid: u32, zi: u32, zj: u32) {
  sync();
  let c = RC[0].x;
  let s = RC[1];
${row_loop}
  sync();
${col_loop}
  sync();
  if (lid == 0u && zi < n) { hset(zi, zj, n, ${ezero}); }
}

@compute @workgroup_size(${wg})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nw: vec3<u32>) {
  let n = ${n};
  let nb = ${nb};
  let nn = n * n;
  let gid = wid.x + wid.y * nw.x;
  let ng = nw.x * nw.y;
  oh = ${S_off} + gid * ${sstride};
  oq = oh + nn;
  oy = oq + nn;
  for (var b = gid; b < nb; b += ng) {
    let ib = ${A_off} + b * nn;
    // scale by a power of two: max |component| in [0.5, 1]
    var mx: ${T} = ${zero};
    for (var e = 0u; e < nn; e += 1u) { mx = max(mx, amaxi(A[ib + e])); }
    var q = mx;
    var sc: ${T} = ${one};
    for (var k = 0u; k < 40u && q > ${big}; k++) { q *= ${small}; sc *= ${small}; }
    for (var k = 0u; k < 40u && q > ${one}; k++) { q *= ${halfv}; sc *= ${halfv}; }
    for (var k = 0u; k < 40u && q > ${zero} && q < ${small}; k++) { q *= ${big}; sc *= ${big}; }
    for (var k = 0u; k < 40u && q > ${zero} && q < ${halfv}; k++) { q *= ${two}; sc *= ${two}; }
    for (var e = lid; e < nn; e += ${wg}u) {
      S[oh + e] = toe(A[ib + e]) * sc;
${q_init}
    }
    sync();
    // Hessenberg form by Givens rotations (bottom up in each column)
    for (var k = 0u; k + 2u < n; k++) {
      for (var i = n - 1u; i >= k + 2u; i--) {
        if (lid == 0u) { givens(h(i - 1u, k, n), h(i, k, n)); }
        apply(i - 1u, n, lid, i, k);
      }
    }
    // shifted QR with deflation
    if (lid == 0u) { CTL[0] = 0u; CTL[1] = n - 1u; CTL[2] = select(0u, 1u, n < 2u); CTL[3] = 0u; }
    var its = 0u;
    for (var it = 0u; it < 31u * n + 1u; it++) {
      if (workgroupUniformLoad(&CTL[2]) != 0u) { break; }
      // negligible subdiagonals (all threads), the lowest one below hi decides the block
      if (lid == 0u) { atomicStore(&DL, 0u); }
      sync();
      let hi0 = workgroupUniformLoad(&CTL[1]);
${defl_loop}
      sync();
      if (lid == 0u) {
        let hi = hi0;
        let l = atomicLoad(&DL);
        if (l == hi) {
          CTL[1] = hi - 1u;
          CTL[2] = select(0u, 1u, hi == 1u);
          CTL[3] = 1u;
          its = 0u;
        } else {
          let lo = l;
          CTL[0] = lo;
          CTL[3] = 0u;
          its += 1u;
          var mu: ${E};
          let d = h(hi, hi, n);
          if (its % 10u == 0u) {
            mu = d + tov(${T}(0.75) * cabs1(h(hi, hi - 1u, n)));
          } else {
            let a = h(hi - 1u, hi - 1u, n);
            let bc = mul(h(hi - 1u, hi, n), h(hi, hi - 1u, n));
            let hd = (a - d) * ${halfv};
            let r = csqrt(mul(hd, hd) + bc);
            // the eigenvalue of the trailing 2x2 closer to d
            let m1 = (a + d) * ${halfv} + r;
            let m2 = (a + d) * ${halfv} - r;
            mu = select(m2, m1, cabs1(m1 - d) < cabs1(m2 - d));
          }
          givens(h(lo, lo, n) - mu, h(lo + 1u, lo, n));
        }
      }
      if (workgroupUniformLoad(&CTL[3]) != 0u) { continue; }
      let lo = workgroupUniformLoad(&CTL[0]);
      apply(lo, n, lid, n, 0u);
      for (var k = lo + 1u; k < hi0; k++) {
        if (lid == 0u) { givens(h(k, k - 1u, n), h(k + 1u, k - 1u, n)); }
        apply(k, n, lid, k + 1u, k - 1u);
      }
    }
    sync();
    let ok = workgroupUniformLoad(&CTL[2]);
    if (lid == 0u) { ST[${ST_off} + b] = select(1u, 0u, ok != 0u || n < 2u); }
    let inv = ${one} / sc;
    for (var k = lid; k < n; k += ${wg}u) {
      W[${W_off} + b * n + k] = h(k, k, n) * inv;
    }
${vec_out}
    sync();
  }
}
