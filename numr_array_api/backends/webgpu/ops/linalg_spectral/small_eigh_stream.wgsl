// eigh of stacks of small real symmetric matrices, streamed form of small_eigh.wgsl (same
// rounds, pairs, SIGMA, thresholds and sweep check; read that file first). There an
// invocation's column of A stays in registers from one round's update to the next round's
// publication, across the barriers, next to its row of V: in float64 at 32 columns,
// 2 x 32 doubles, 128 of NVIDIA's 255 registers before any temporary. Here each round
// reads the two source columns from one buffer and writes the rotated, row-permuted
// column straight into the other (constant row offsets DST[i]), so A never lives in
// registers between rounds: only V does (with vectors), and a pair's temporaries. A sweep
// has ${cap} - 1 rounds (odd), so the buffer parity is a variable, not r & 1; the exact zero
// of the annihilated entry is a second store instead of a register select. Buffers as
// one array at a parity offset keep each pair's loads behind the previous pair's stores
// (the compiler cannot prove the offsets apart); as two arrays (split, ${split}) they
// cannot alias, at the price of each round's code twice under a uniform parity branch.
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

${buffers}
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
  // the row where the entry this invocation's pair annihilates lands
  let zrow = DST[src ^ 1u];
  let ngr = (nb + PER - 1u) / PER;
  for (var g = wid.x + wid.y * nw.x; g < ngr; g += nw.x * nw.y) {
    let b = g * PER + mi;
    let live = b < nb && t < n;
    let ib = ${A_off} + b * n * n;
    var cur = 0u;     // the buffer holding the matrix
    // the column is in registers only here, until it is first published
${decl}
    var mx: ${T} = ${zero};
${load}
    RM[lid] = mx;
    workgroupBarrier();
${pow2}
    {
      let nbb = mi * MAT + t * LD;
${store}
    }
${vdecl}
    workgroupBarrier();

    for (var sweep = 0u; sweep < ${maxsw}u; sweep++) {
      {
        var above = false;
${check}
        // one atomic per invocation: a store per entry serialised on one address
        if (above) { atomicStore(&rot, 1u); }
        workgroupBarrier();
        if (lid == 0u) { flag = atomicExchange(&rot, 0u); }
        if (workgroupUniformLoad(&flag) == 0u) { break; }
      }
      for (var r = 0u; r + 1u < CAP; r++) {
        let cb = mi * HALF;
        if (t < HALF) {
          let p = 2u * t;
          var app: ${T};
          var aqq: ${T};
          var apq: ${T};
${pair}
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
        // column src of A J (its pair's rotation), then J^T on the rows and SIGMA, into
        // the other buffer; this round's reads of CS and of this buffer end at the barrier
        // below, before the next round writes CS and (one round later) this buffer
        let csq = CS[cb + (src >> 1u)];
        let hq = csq.x;
        let sq = csq.y;
        let isq = (src & 1u) == 1u;
        let sg = select(-sq, sq, isq);
${update}
        cur ^= 1u;
        workgroupBarrier();
      }
    }

    // eigenvalues ascending; eigenvector columns follow their eigenvalue
    var dg: ${T};
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
