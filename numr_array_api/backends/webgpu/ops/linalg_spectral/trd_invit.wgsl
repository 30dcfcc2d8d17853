${pre}
${layout}
var<workgroup> red: array<R, 64>;
var<workgroup> flag: u32;
var<private> sb: u32;
var<private> zb: u32;
var<private> kk: u32;
var<private> nn: u32;

// scratch and vectors contiguous along rows: thread 0 walks them in order, the workgroup
// reads them coalesced
fn sx(f: u32, i: u32) -> u32 { return sb + (kk * 5u + f) * nn + i; }
fn zx(i: u32, slot: u32) -> u32 { return zb + slot * nn + i; }

fn hashr(x: u32) -> R {
  var h = x * 747796405u + 2891336453u;
  h = ((h >> ((h >> 28u) + 4u)) ^ h) * 277803737u;
  h = (h >> 22u) ^ h;
  return R(f32(h >> 8u) / 8388608.0 - 1.0);
}

${trees}

fn pv(x: R, pert: R) -> R {
  if (abs(x) < pert) { return select(pert, -pert, x < R(0.0)); }
  return x;
}

// T - mu I on [p, q] = P L U: U's diagonals (f0 the reciprocal of the perturbed pivot,
// f1, f2), multipliers (f3), pivots (f4); the running row in registers (no load waits on
// the previous iteration's store). The reciprocal keeps the divisions out of the solves'
// serial chains (a float64 division is a long dependent sequence on NVIDIA: the inverse
// iteration took 9.6 ms of eigh 512 float64, 2.1 ms in float32; H100)
fn factor(db: u32, p: u32, q: u32, mu: R, sc: R, pert: R) {
  var dcur = D[db + p] * sc - mu;
  var ducur = E[ED + db + p] * sc;
  for (var i = p; i < q; i++) {
    let sub = E[ED + db + i] * sc;
    let dn = D[db + i + 1u] * sc - mu;
    var dun = R(0.0);
    if (i + 1u < q) { dun = E[ED + db + i + 1u] * sc; }
    if (abs(dcur) >= abs(sub)) {
      var l = R(0.0);
      if (dcur != R(0.0)) { l = sub / dcur; }
      S[sx(0u, i)] = R(1.0) / pv(dcur, pert);
      S[sx(1u, i)] = ducur;
      S[sx(2u, i)] = R(0.0);
      S[sx(3u, i)] = l;
      S[sx(4u, i)] = R(0.0);
      dcur = dn - l * ducur;
      ducur = dun;
    } else {
      let l = dcur / sub;
      S[sx(0u, i)] = R(1.0) / pv(sub, pert);
      S[sx(1u, i)] = dn;
      S[sx(2u, i)] = dun;
      S[sx(3u, i)] = l;
      S[sx(4u, i)] = R(1.0);
      dcur = ducur - l * dn;
      ducur = -l * dun;
    }
  }
  S[sx(0u, q)] = R(1.0) / pv(dcur, pert);
  S[sx(1u, q)] = R(0.0);
  S[sx(2u, q)] = R(0.0);
}

fn solve(p: u32, q: u32, slot: u32) {
  var yc = ZS[zx(p, slot)];
  for (var i = p; i < q; i++) {
    let l = S[sx(3u, i)];
    let y1 = ZS[zx(i + 1u, slot)];
    if (S[sx(4u, i)] == R(0.0)) {
      ZS[zx(i, slot)] = yc;
      yc = y1 - l * yc;
    } else {
      ZS[zx(i, slot)] = y1;
      yc = yc - l * y1;
    }
  }
  ZS[zx(q, slot)] = yc;
  let m = q - p + 1u;
  var x1 = R(0.0);
  var x2 = R(0.0);
  for (var ii = 0u; ii < m; ii++) {
    let i = q - ii;
    let s = ZS[zx(i, slot)] - S[sx(1u, i)] * x1 - S[sx(2u, i)] * x2;
    let x = s * S[sx(0u, i)];
    ZS[zx(i, slot)] = x;
    x2 = x1;
    x1 = x;
  }
}

fn normalize(tid: u32, p: u32, q: u32, slot: u32) {
  var mx = R(0.0);
  for (var i = p + tid; i <= q; i += 64u) { mx = max(mx, abs(ZS[zx(i, slot)])); }
  let m = wmax(tid, mx);
  var inv = R(1.0);
  if (m > R(0.0)) { inv = R(1.0) / m; }
  var ss = R(0.0);
  for (var i = p + tid; i <= q; i += 64u) { let y = ZS[zx(i, slot)] * inv; ss += y * y; }
  let t = wsum(tid, ss);
  var f = R(1.0);
  if (m > R(0.0) && t > R(0.0)) { f = inv / sqrt(t); }
  for (var i = p + tid; i <= q; i += 64u) { ZS[zx(i, slot)] = ZS[zx(i, slot)] * f; }
}

fn mgs(tid: u32, p: u32, q: u32, c0: u32, c1: u32, slot: u32) {
  for (var c = c0; c < c1; c++) {
    var dot = R(0.0);
    for (var i = p + tid; i <= q; i += 64u) { dot += ZS[zx(i, c)] * ZS[zx(i, slot)]; }
    let d = wsum(tid, dot);
    for (var i = p + tid; i <= q; i += 64u) {
      ZS[zx(i, slot)] = ZS[zx(i, slot)] - d * ZS[zx(i, c)];
    }
  }
}

fn sync() {
  storageBarrier();
  workgroupBarrier();
}

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) tid: u32) {
  let b = wid.y;
  // leaders l0 .. l0 + nl - 1 in this dispatch, each with its own 5 n scratch rows: the
  // scratch of all n leaders (5 n^2 per matrix) outgrows one binding from n ~ 5800 (f64)
  let s0 = ${l0} + wid.x;
  let n = ${n};
  if (b >= ${nbat} || s0 >= n || wid.x >= ${nl}) { return; }
  nn = n;
  kk = wid.x;
  sb = ${S_off} + b * 5u * ${nl} * n;
  zb = ${ZS_off} + b * n * n;
  let db = ${D_off} + b * n;
  ED = ${E_off} - ${D_off};   // E's base from D's (views of one buffer differ)
  let ob = ${BLK_off} + b * 2u * n;
  let mb = ${MU_off} + b * n;
  let sc = SC[${SC_off} + b * 2u];
  let tn = SC[${SC_off} + b * 2u + 1u];
  // parallel mode (clusters.py): only the tight chains of at most tmax members are walked
  // serially; a longer one's members are independent (each its own leader, from its own
  // start vector: random vectors of the eigenspace, orthonormalised afterwards by QR)
  let ortol = select(${loose}, ${tightd}, ${tight} != 0u);
  let indep = ${tight} != 0u && CH[${CH_off} + b * 2u * n + 2u * s0 + 1u] > ${tmax};
  // refine != 0: one more solve of the independent members from their orthonormalised
  // vectors (clusters.orthonormalise_chains), every other slot left as it is
  if (${refine} != 0u && !indep) { return; }
  let pert = EPS * tn;
  if (tid == 0u) {
    let bp0 = BLK[ob + 2u * s0];
    var lead = bp0 < n;
    if (lead && s0 > bp0 && !indep) {
      lead = !(MU[mb + s0] - MU[mb + s0 - 1u] <= ortol) || BLK[ob + 2u * s0 - 2u] != bp0;
    }
    flag = select(0u, 1u, lead);
  }
  if (workgroupUniformLoad(&flag) == 0u) { return; }
  if (tid == 0u) { flag = BLK[ob + 2u * s0]; }
  let bp = workgroupUniformLoad(&flag);
  if (tid == 0u) { flag = BLK[ob + 2u * s0 + 1u]; }
  let bq = workgroupUniformLoad(&flag);
  if (bp == bq) {
    if (tid == 0u && ${r0} == 0u) { ZS[zx(bp, s0)] = R(1.0); }
    return;
  }
  // members r0 <= rel < r1 of the cluster (CPU adapters split a cluster over dispatches:
  // lavapipe stops an invocation's loops beyond 65535 iterations)
  let r0 = ${r0};
  let r1 = ${r1};
  var mprev = R(0.0);
  var slot = s0;
  var rel = 0u;
  loop {
    if (rel >= r1) { break; }
    var mu = MU[mb + slot];
    if (slot > s0 && mu - mprev < R(10.0) * pert) { mu = mprev + R(10.0) * pert; }
    mprev = mu;
    if (rel >= r0) {
      if (${refine} == 0u) {
        for (var i = bp + tid; i <= bq; i += 64u) {
          ZS[zx(i, slot)] = hashr(i * 7919u + select(slot - s0, slot, indep) * 104729u + 17u);
        }
      }
      if (tid == 0u) { factor(db, bp, bq, mu, sc, pert); }
      sync();
      normalize(tid, bp, bq, slot);
      for (var it = 0u; it < select(${iters}u, 1u, ${refine} != 0u); it++) {
        sync();
        if (tid == 0u) { solve(bp, bq, slot); }
        sync();
        normalize(tid, bp, bq, slot);
        mgs(tid, bp, bq, s0, slot, slot);
        normalize(tid, bp, bq, slot);
      }
      mgs(tid, bp, bq, s0, slot, slot);
      normalize(tid, bp, bq, slot);
    }
    slot += 1u;
    rel += 1u;
    if (slot > bq) { break; }
    if (tid == 0u) {
      flag = select(0u, 1u, !indep && MU[mb + slot] - MU[mb + slot - 1u] <= ortol
                             && BLK[ob + 2u * slot] == bp);
    }
    if (workgroupUniformLoad(&flag) == 0u) { break; }
  }
}
