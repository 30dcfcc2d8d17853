// eigh of stacks of small real symmetric matrices: ${per} matrices per workgroup, ${cap}
// invocations per matrix (n <= ${cap}, padded with zero rows and columns, which never
// rotate). Invocation t keeps column t of A and row t of V in registers (straight-line code
// with constant indices only, so the compiler need not put them in memory). Round-robin two-sided Jacobi where the
// pairs are always the slots (2k, 2k+1) and the data moves instead (the circle method's
// fixed permutation SIGMA, applied to the rows in registers and to the columns through
// workgroup memory): that keeps every register index a constant. After ${cap} - 1 rounds
// SIGMA is the identity, so slot = index at every sweep's end. A sweep starts only if some
// off-diagonal entry is above its rotation threshold (else it would rotate nothing: the
// usual last, idle sweep is never run); bounded, so NaN input ends too. Columns are
// LD = ${cap} + 1 apart in workgroup memory: a stride of ${cap} put the invocations of a
// matrix on one bank.
${layout}
const CAP: u32 = ${cap}u;
const PER: u32 = ${per}u;
const HALF: u32 = ${half}u;
const LD: u32 = ${cap}u + 1u;
const MAT: u32 = ${cap}u * LD;
const EPS: ${T} = ${eps};
const FLOOR: ${T} = ${floor};
const SRC = array<u32, ${cap}>(${src});     // SIGMA^-1: the slot whose column moves here
const DST = array<u32, ${cap}>(${dst});     // SIGMA

var<workgroup> B: array<${T}, ${bsize}>;      // the columns, one buffer per round parity
var<workgroup> CS: array<vec2<${T}>, ${cssize}>;    // (1 - cos, sin) per pair
var<workgroup> RM: array<${T}, ${wg}>;
var<workgroup> RK: array<u32, ${wg}>;
var<workgroup> rot: atomic<u32>;
var<workgroup> flag: u32;

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
  let t = lid % CAP;
  let mi = lid / CAP;
  let src = SRC[t];
  // the register (row) where the entry this invocation's pair annihilates lands
  let zrow = DST[src ^ 1u];
  let ngr = (nb + PER - 1u) / PER;
  for (var g = wid.x + wid.y * nw.x; g < ngr; g += nw.x * nw.y) {
    let b = g * PER + mi;
    let live = b < nb && t < n;
    let ib = ${A_off} + b * n * n;
${decl}
    // the row of the entry the last rotation annihilated (CAP: none), stored as an exact 0
    // after the column is published (the registers keep the rounding residue unread)
    var zr = CAP;
    var mx: ${T} = ${zero};
${load}
    RM[lid] = mx;
    workgroupBarrier();
${pow2}
${scale}

    for (var sweep = 0u; sweep < ${maxsw}u; sweep++) {
      {
        // the last round read this buffer
        workgroupBarrier();
        let bb = mi * MAT;
${store}
        workgroupBarrier();
        let co = bb + t * LD;
        let dt = abs(B[co + t]);
        var above = false;
${check}
        // one atomic per invocation: a store per entry serialised on one address
        if (above) { atomicStore(&rot, 1u); }
        workgroupBarrier();
        if (lid == 0u) { flag = atomicExchange(&rot, 0u); }
        if (workgroupUniformLoad(&flag) == 0u) { break; }
      }
      for (var r = 0u; r + 1u < CAP; r++) {
        let bb = (r & ${par}u) * PER * MAT + mi * MAT;
        let cb = (r & ${par}u) * PER * HALF + mi * HALF;
        if (r > 0u) {
${store}
          workgroupBarrier();
        }
        if (t < HALF) {
          let p = 2u * t;
          let app = B[bb + p * LD + p];
          let aqq = B[bb + (p + 1u) * LD + p + 1u];
          // the symmetric part of the rounded pair (the sweep check reads the same)
          let apq = (B[bb + (p + 1u) * LD + p] + B[bb + p * LD + p + 1u]) * ${halfv};
          var h: ${T} = ${zero};
          var s: ${T} = ${zero};
          if (abs(apq) > max(FLOOR, EPS * max(abs(app), abs(aqq)))) {
            let d = aqq - app;
${tangent}
            // c^2 + s^2 = 1 to rounding (one Newton step), applied as 1 - h = c so that
            // late tiny rotations do not grow the columns (see spec._jrot)
            var c = ${one} / sqrt(tn * tn + ${one});
            s = tn * c;
            let f = ${onehalf} - ${halfv} * (c * c + s * s);
            c *= f;
            s *= f;
            h = s * s / (${one} + c);
          }
          CS[cb + t] = vec2<${T}>(h, s);
        }
        workgroupBarrier();
        // column src of A J (its pair's rotation), then J^T on the rows and SIGMA
        let csq = CS[cb + (src >> 1u)];
        let hq = csq.x;
        let sq = csq.y;
        let xo = bb + (src & ~1u) * LD;
        let isq = (src & 1u) == 1u;
        let own = xo + select(0u, LD, isq);
        let oth = xo + select(LD, 0u, isq);
        let sg = select(-sq, sq, isq);
${update}
        zr = select(CAP, zrow, sq != ${zero});
${barrier1}
      }
    }

    // eigenvalues ascending; eigenvector columns follow their eigenvalue
    var dg: ${T} = ${zero};
${diag}
    RM[lid] = dg;
    workgroupBarrier();
    var rk = 0u;
    for (var j = 0u; j < n; j++) {
      if (before(RM[mi * CAP + j], dg, j, t)) { rk++; }
    }
    RK[lid] = rk;
    if (live) { W[${W_off} + b * n + rk] = dg / sc; }
${vout}
    workgroupBarrier();
  }
}
