// svd / svdvals of stacks of small real matrices by one-sided (Hestenes) Jacobi: ${per}
// matrices per workgroup, ${capc} invocations per matrix. X is R x C with R >= C (wide
// inputs arrive transposed through their strides); invocation t keeps column t of U := X
// (R <= ${capr} rows) and of V in registers (constant indices only, so the compiler need
// not put them in memory). Per round
// every invocation publishes its columns in workgroup memory, reads its round-robin
// partner's, and both of a pair compute the same rotation from the same numbers (the same
// code on (lower, upper) column) and apply their half of it: one barrier per round, no
// global memory. Sweeps end once one rotates nothing (bounded: NaN input ends too). Then
// s_t = ||u_t||, ranked descending; P = U / s, and where s_t is negligible (<= R eps
// s_max: a rounding residue, not orthogonal to the rest) P's column is completed to an
// orthonormal basis: Gram-Schmidt (twice) against the columns before it, starting from
// its own direction where that keeps half its length, else from the unit vector least
// inside their span.
${layout}
const CAPR: u32 = ${capr}u;
const CAPC: u32 = ${capc}u;
const PER: u32 = ${per}u;
const COL: u32 = ${colw}u;      // words per published column: u, then v, odd (banks)
const EPS: ${T} = ${eps};
const FLOOR: ${T} = ${floor};
const TINYN: ${T} = ${tiny};

var<workgroup> B: array<${T}, ${bsize}>;
var<workgroup> RM: array<${T}, ${wg}>;
var<workgroup> rot: atomic<u32>;
var<workgroup> flag: u32;

// descending order on (value, index): NaN first, ties by index
fn before(a: ${T}, b: ${T}, ia: u32, ib: u32) -> bool {
  let na = !(a == a);
  let nb = !(b == b);
  if (na || nb) { return (na && !nb) || (na && nb && ia < ib); }
  return a > b || (a == b && ia < ib);
}

@compute @workgroup_size(${wg})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nw: vec3<u32>) {
  let R = ${R};
  let C = ${C};
  let nb = ${nb};
  let t = lid % CAPC;
  let mi = lid / CAPC;
  let m = C + (C & 1u);
  let mm = m - 1u;
  let tol = EPS * sqrt(${T}(R));
  let ngr = (nb + PER - 1u) / PER;
  for (var g = wid.x + wid.y * nw.x; g < ngr; g += nw.x * nw.y) {
    let b = g * PER + mi;
    let live = b < nb && t < C;
    let xb = ${X_off} + b * ${xbs};
${decl}
    var mx: ${T} = ${zero};
${load}
    RM[lid] = mx;
    workgroupBarrier();
${pow2}
${scale}

    for (var sweep = 0u; sweep < ${maxsw}u; sweep++) {
      var moved = false;
      for (var r = 0u; r < mm; r++) {
        let bb = (r & ${par}u) * PER * CAPC * COL + mi * CAPC * COL;
${store}
        workgroupBarrier();
        // the circle method: slot mm meets r, the others (p, q) with p + q = 2r mod mm
        var pt = t;
        if (t < m) {
          if (t == mm) {
            pt = r;
          } else if (t == r) {
            pt = mm;
          } else {
            pt = (2u * r + 2u * mm - t) % mm;
          }
        }
        let po = bb + pt * COL;
        let lo = t < pt;
        var uu: ${T} = ${zero};
        var oo: ${T} = ${zero};
        var ga: ${T} = ${zero};
${dots}
        let al = select(oo, uu, lo);
        let be = select(uu, oo, lo);
        if (pt != t && abs(ga) > max(FLOOR, tol * sqrt(al) * sqrt(be))) {
          let d = be - al;
${tangent}
          var c = ${one} / sqrt(tn * tn + ${one});
          var s = tn * c;
          let f = ${onehalf} - ${halfv} * (c * c + s * s);
          c *= f;
          s *= f;
          let h = s * s / (${one} + c);
          // p' = p - (s q + h p), q' = q + (s p - h q) (see spec._jrot)
          let sg = select(s, -s, lo);
${rotate}
          moved = true;
        }
${barrier1}
      }
      // one atomic per invocation and sweep, not per rotation (they serialise)
      if (moved) { atomicStore(&rot, 1u); }
      workgroupBarrier();
      if (lid == 0u) { flag = atomicExchange(&rot, 0u); }
      if (workgroupUniformLoad(&flag) == 0u) { break; }
    }

    var s2: ${T} = ${zero};
${norm}
    let sv = sqrt(s2);
    RM[lid] = select(${zero}, sv, t < C);
    workgroupBarrier();
    var rk = 0u;
    var smax: ${T} = ${zero};
    for (var j = 0u; j < C; j++) {
      let sj = RM[mi * CAPC + j];
      smax = max(smax, sj);
      if (before(sj, sv, j, t)) { rk++; }
    }
    if (live) { SV[${SV_off} + b * C + rk] = sv / sc; }
${vectors}
    workgroupBarrier();
  }
}
