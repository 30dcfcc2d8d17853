// Symmetric eigenproblem by parallel-ordered (round-robin) two-sided Jacobi, one workgroup
// per matrix. Each round applies n/2 disjoint rotations: angles from the 2x2 blocks, then
// the row pass and the column pass (and V <- V J), in the update form of spec._jrot (h = 1 - c,
// exact to rounding where c itself rounds to 1). Sweeps end when a whole sweep rotates
// nothing. The matrix is scaled by a power of two first (exact) so no square overflows.
${layout}
${cfns}
${store}
var<workgroup> RED: array<${T}, ${wg}>;
var<workgroup> cnt: atomic<u32>;
var<workgroup> flag: u32;

const EPS: ${T} = ${eps};
const FLOOR: ${T} = ${floor};

fn pair(r: u32, k: u32, m: u32) -> vec2<u32> {
  // circle method: player m-1 fixed, the others rotate by one each round
  let mm = m - 1u;
  var p = mm;
  var q = r;
  if (k != 0u) { p = (r + k) % mm; q = (r + mm - k) % mm; }
  return vec2<u32>(min(p, q), max(p, q));
}

// a total order on (value, index): NaN last, ties by index, so ranks are distinct
fn before(a: ${T}, b: ${T}, ia: u32, ib: u32) -> bool {
  let na = !(a == a);
  let nb = !(b == b);
  if (na || nb) { return (!na && nb) || (na && nb && ia < ib); }
  return a < b || (a == b && ia < ib);
}

@compute @workgroup_size(${wg})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nw: vec3<u32>) {
  let n = ${n};
  let nb = ${nb};
  let nn = n * n;
  let m = n + (n & 1u);
  let half = m / 2u;
  let gid = wid.x + wid.y * nw.x;
  let ng = nw.x * nw.y;
  slot(gid, n);
  for (var b = gid; b < nb; b += ng) {
    let ib = ${A_off} + b * nn;
    var mx: ${T} = ${zero};
    for (var e = lid; e < nn; e += ${wg}u) {
      let x = A[ib + e];
      a_set(e, x);
      mx = max(mx, amax(x));
${v_init}
    }
    RED[lid] = mx;
    sync();
    for (var st = ${wg}u / 2u; st > 0u; st >>= 1u) {
      if (lid < st) { RED[lid] = max(RED[lid], RED[lid + st]); }
      sync();
    }
    // power-of-two scale bringing max |a_ij| into [0.5, 1]
    var q = RED[0];
    var sc: ${T} = ${one};
    for (var k = 0u; k < 40u && q > ${big}; k++) { q *= ${small}; sc *= ${small}; }
    for (var k = 0u; k < 40u && q > ${one}; k++) { q *= ${halfv}; sc *= ${halfv}; }
    for (var k = 0u; k < 40u && q > ${zero} && q < ${small}; k++) { q *= ${big}; sc *= ${big}; }
    for (var k = 0u; k < 40u && q > ${zero} && q < ${halfv}; k++) { q *= ${two}; sc *= ${two}; }
    for (var e = lid; e < nn; e += ${wg}u) { a_set(e, a_get(e) * sc); }
    sync();

    for (var sweep = 0u; sweep < ${maxsw}u; sweep++) {
      if (lid == 0u) { atomicStore(&cnt, 0u); }
      sync();
      for (var r = 0u; r + 1u < m; r++) {
        for (var k = lid; k < half; k += ${wg}u) {
          let pq = pair(r, k, m);
          var h: ${T} = ${zero};   // 1 - cos (see spec._jrot)
          var g: ${E} = ${ezero};
          if (pq.y < n) {
            let app = re(a_get(pq.x * n + pq.x));
            let aqq = re(a_get(pq.y * n + pq.y));
            let ae = a_get(pq.x * n + pq.y);
            // |a_pq| and its phase: the complex rotation is a real one between phases
            let apq = cabs(ae);
            if (apq > max(FLOOR, EPS * max(abs(app), abs(aqq)))) {
              let d = aqq - app;
              var t: ${T};
              if (abs(apq) < abs(d) * EPS) {
                t = apq / d;
              } else {
                let th = d / (${two} * apq);
                t = select(-${one}, ${one}, th >= ${zero}) / (abs(th) + sqrt(th * th + ${one}));
              }
              let jr = jrot(t, ae);
              h = jr.h;
              g = jr.g;
              atomicAdd(&cnt, 1u);
            }
          }
          cs_set(k, h, g);
        }
        sync();
${rows}
        sync();
${cols}
        sync();
      }
      if (lid == 0u) { flag = atomicLoad(&cnt); }
      if (workgroupUniformLoad(&flag) == 0u) { break; }
    }

    // eigenvalues ascending; eigenvector columns follow their eigenvalue
    let inv = ${one} / sc;
    let wo = ${W_off} + b * n;
    for (var i = lid; i < n; i += ${wg}u) {
      let di = re(a_get(i * n + i));
      var rk = 0u;
      for (var j = 0u; j < n; j++) {
        if (before(re(a_get(j * n + j)), di, j, i)) { rk++; }
      }
      W[wo + rk] = di * inv;
${v_out}
    }
    sync();
  }
}
