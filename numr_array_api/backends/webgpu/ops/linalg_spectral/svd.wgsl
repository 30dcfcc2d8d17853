// Singular values (and vectors) by one-sided Jacobi (Hestenes), one workgroup per matrix.
// X is R x C with R >= C (wide inputs arrive transposed through their strides). The columns
// of U := X are rotated in round-robin pairs until every pair is orthogonal to
// tol = sqrt(R) * eps relative to its norms (never through X^T X, which would square the
// condition number); V accumulates the rotations. Then s_j = ||u_j||, sorted descending,
// P = U / s and Q = V are written through output strides (the caller maps them to U / Vh).
// P's columns for negligible singular values (s_j <= R eps s_max: their U columns are
// rounding residues, not orthogonal to the rest once a GPU flushes subnormals or contracts
// FMAs differently) and beyond C when full are completed to an orthonormal basis: each is
// Gram-Schmidt'ed twice against the columns before it, starting from its own normalised
// column where that keeps most of its length, else from the unit vector least inside the
// span so far.
${layout}
${cfns}
${store}
var<workgroup> RED: array<${T}, ${wg}>;
var<workgroup> REDI: array<u32, ${wg}>;
var<workgroup> cnt: atomic<u32>;
var<workgroup> cnt2: atomic<u32>;
var<workgroup> flag: u32;
var<workgroup> flag2: u32;
var<workgroup> fq: ${T};
var<private> lidp: u32;

// P lives in a storage buffer: its columns written by some threads are read by all
fn ssync() { storageBarrier(); workgroupBarrier(); }

const EPS: ${T} = ${eps};
const FLOOR: ${T} = ${floor};
const TINYN: ${T} = ${tiny};

fn pair(r: u32, k: u32, m: u32) -> vec2<u32> {
  let mm = m - 1u;
  var p = mm;
  var q = r;
  if (k != 0u) { p = (r + k) % mm; q = (r + mm - k) % mm; }
  return vec2<u32>(min(p, q), max(p, q));
}

// descending order on (value, index): NaN first, ties by index
fn before(a: ${T}, b: ${T}, ia: u32, ib: u32) -> bool {
  let na = !(a == a);
  let nb = !(b == b);
  if (na || nb) { return (na && !nb) || (na && nb && ia < ib); }
  return a > b || (a == b && ia < ib);
}

fn wsum() -> ${T} {
  sync();
  for (var st = ${wg}u / 2u; st > 0u; st >>= 1u) {
    if (lidp < st) { RED[lidp] += RED[lidp + st]; }
    sync();
  }
  return RED[0];
}

@compute @workgroup_size(${wg})
fn main(@builtin(local_invocation_index) lid_: u32, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nw: vec3<u32>) {
  lidp = lid_;
  let lid = lid_;
  let R = ${R};
  let C = ${C};
  let nb = ${nb};
  let rc = R * C;
  let m = C + (C & 1u);
  let half = m / 2u;
  let tol = EPS * sqrt(${T}(R));
  let gid = wid.x + wid.y * nw.x;
  let ng = nw.x * nw.y;
  slot(gid, R, C);
  for (var b = gid; b < nb; b += ng) {
    let xb = ${X_off} + b * ${xbs};
    var mx: ${T} = ${zero};
    for (var e = lid; e < rc; e += ${wg}u) {
      let j = e / R;
      let i = e - j * R;
      let x = xf(X[xb + i * ${xrs} + j * ${xcs}]);
      u_set(e, x);
      mx = max(mx, amax(x));
    }
${v_init}
    RED[lid] = mx;
    sync();
    for (var st = ${wg}u / 2u; st > 0u; st >>= 1u) {
      if (lid < st) { RED[lid] = max(RED[lid], RED[lid + st]); }
      sync();
    }
    var q = RED[0];
    var sc: ${T} = ${one};
    for (var k = 0u; k < 40u && q > ${big}; k++) { q *= ${small}; sc *= ${small}; }
    for (var k = 0u; k < 40u && q > ${one}; k++) { q *= ${halfv}; sc *= ${halfv}; }
    for (var k = 0u; k < 40u && q > ${zero} && q < ${small}; k++) { q *= ${big}; sc *= ${big}; }
    for (var k = 0u; k < 40u && q > ${zero} && q < ${halfv}; k++) { q *= ${two}; sc *= ${two}; }
    sync();
    for (var e = lid; e < rc; e += ${wg}u) { u_set(e, u_get(e) * sc); }
    sync();

    for (var sweep = 0u; sweep < ${sweeps}; sweep++) {
      if (lid == 0u) { atomicStore(&cnt, 0u); }
      sync();
      for (var r = 0u; r + 1u < m; r++) {
        for (var k = lid; k < half; k += ${wg}u) {
          let pq = pair(r, k, m);
          var h: ${T} = ${zero};   // 1 - cos (see spec._jrot)
          var g: ${E} = ${ezero};
          if (pq.y < C) {
            let op = pq.x * R;
            let oq = pq.y * R;
            var al: ${T} = ${zero};
            var be: ${T} = ${zero};
            var gz: ${E} = ${ezero};
${dot}
            // gamma = u_p^H u_q: its modulus decides, its phase turns the rotation
            let ga = cabs(gz);
            if (ga > max(FLOOR, tol * sqrt(al) * sqrt(be))) {
              let d = be - al;
              var t: ${T};
              if (abs(ga) < abs(d) * EPS) {
                t = ga / d;
              } else {
                let th = d / (${two} * ga);
                t = select(-${one}, ${one}, th >= ${zero}) / (abs(th) + sqrt(th * th + ${one}));
              }
              let jr = jrot(t, gz);
              h = jr.h;
              g = jr.g;
              atomicAdd(&cnt, 1u);
            }
          }
          cs_set(k, h, g);
        }
        sync();
${u_rot}
${v_rot}
        sync();
      }
      if (lid == 0u) { flag = atomicLoad(&cnt); }
      if (workgroupUniformLoad(&flag) == 0u) { break; }
    }

    for (var j = lid; j < C; j += ${wg}u) {
      var al: ${T} = ${zero};
      for (var i = 0u; i < R; i++) { al += ab2(u_get(j * R + i)); }
      n_set(j, sqrt(al));
    }
    if (lid == 0u) { atomicStore(&cnt, 0u); atomicStore(&cnt2, 0u); }
    sync();
    let inv = ${one} / sc;
    for (var j = lid; j < C; j += ${wg}u) {
      let sj = n_get(j);
      var rk = 0u;
      var smax: ${T} = ${zero};
      for (var k = 0u; k < C; k++) {
        let sk = n_get(k);
        smax = max(smax, sk);
        if (before(sk, sj, k, j)) { rk++; }
      }
      SV[${SV_off} + b * C + rk] = sj * inv;
${vec_out}
    }
${complete}
    sync();
  }
}
