${pre}
${layout}
${comb}
var<workgroup> rv: array<R, 256>;      // v^T w of column j - 1
var<workgroup> red: array<R, 256>;     // panel sums for w of column j - 1, a row a slice
var<workgroup> red2: array<R, 256>;    // panel sums of column j's update
var<workgroup> pm: array<R, 8>;
var<workgroup> ps: array<R, 8>;
var<workgroup> wj: R;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) tid: u32) {
  let b = wid.y;
  if (b >= ${nbat}) { return; }
  let n = ${n};
  let j = ${j};
  let jj = ${jj};
  let fin = ${fin};
  let NBu = ${nb}u;
  let lane = tid % NBu;
  let slot = tid / NBu;
  let xb = ${NX_off} + b * n * 2u * NBu;     // NX: (n, 2 NB): [-V | -W]
  let yb = ${YT_off} + b * 2u * NBu * n;     // YT: (2 NB, n): [W^T ; V^T]
  let wb = ${WK_off} + b * 3u * n;
  var q = 0u;                                // panel column of j - 1 (jj > 0)
  if (jj > 0u) { q = jj - 1u; }
  var i = j;                                 // slot 0: row j (its w, every row's coefficient)
  if (slot > 0u) { i = j + wid.x * ${rpw}u + slot - 1u; }
  let valid = i < n;
  let head = valid && lane == 0u;
  // ---- every global load first
  var tq = R(0.0);
  var sp = R(0.0);
  if (jj > 0u) {
    tq = TAU[${TAU_off} + b * n + j - 1u];
    for (var k = tid; k < ${nrbp}; k += 256u) { sp += WK[wb + 2u * n + k]; }
  }
  var nv = R(0.0);
  var nwv = R(0.0);
  var dw = R(0.0);
  var dv = R(0.0);
  var cw = R(0.0);
  var cv = R(0.0);
  if (valid && lane < q) {
    nv = NX[xb + i * 2u * NBu + lane];
    nwv = NX[xb + i * 2u * NBu + NBu + lane];
    dw = DOT[${DOT_off} + b * 2u * NBu + lane];
    dv = DOT[${DOT_off} + b * 2u * NBu + NBu + lane];
    if (fin == 0u) {
      cw = YT[yb + lane * n + j];
      cv = YT[yb + (NBu + lane) * n + j];
    }
  }
  var pv = R(0.0);
  var yq = R(0.0);
  var nq = R(0.0);
  var vq = R(0.0);
  var av = R(0.0);
  if (head) {
    if (jj > 0u) {
      pv = PV[${PV_off} + b * n + i];
      yq = YT[yb + (NBu + q) * n + i];
    }
    if (fin == 0u && slot > 0u) {
      av = A[${A_off} + b * n * n + j * n + i];
      if (jj > 0u) {
        nq = NX[xb + i * 2u * NBu + q];
        vq = YT[yb + (NBu + q) * n + j];
      }
    }
  }
  // ---- one tree: v^T p - 2 (W^T v).(V^T v) over the workgroup, the panel sums per slot
  var s = sp;
  if (tid < q) { s -= R(2.0) * dw * dv; }
  rv[tid] = s;
  red[tid] = nv * dw + nwv * dv;
  red2[tid] = nv * cw + nwv * cv;
  workgroupBarrier();
  for (var h = 128u; h > 0u; h >>= 1u) {
    if (tid < h) { rv[tid] = rv[tid] + rv[tid + h]; }
    if (h < NBu && lane < h) {
      red[tid] = red[tid] + red[tid + h];
      red2[tid] = red2[tid] + red2[tid + h];
    }
    workgroupBarrier();
  }
  var w = R(0.0);
  if (jj > 0u && head) {
    // ---- w of column j - 1 for rows i >= j
    let alpha = R(-0.5) * tq * (tq * rv[0]);
    w = tq * (pv + red[tid]) + alpha * yq;
    if (slot > 0u) {
      YT[yb + q * n + i] = w;
      NX[xb + i * 2u * NBu + NBu + q] = -w;
    }
  }
  if (tid == 0u) { wj = w; }
  if (fin != 0u) { return; }
  workgroupBarrier();
  var a = R(0.0);
  var nf = false;
  if (head && slot > 0u) {
    // ---- column j updated with the panel: a = A[j:, j] - V W[j]^T - W V[j]^T
    a = av + red2[tid];
    if (jj > 0u) { a += nq * wj - w * vq; }
    WK[wb + i] = a;
    if (i == j) { D[${D_off} + b * n + j] = a; }
    nf = i > j + 1u && bad(a);
  }
  if (lane == 0u) {
    var m = R(0.0);
    var ss = R(0.0);
    if (i > j + 1u && a != R(0.0) && !nf) { m = abs(a); ss = R(1.0); }
    pm[slot] = m;
    ps[slot] = select(ss, ${nan}, nf);
  }
  workgroupBarrier();
  if (tid == 0u) {
    var r = MS(R(0.0), R(0.0));
    for (var k = 1u; k < 8u; k++) { r = comb(r, MS(pm[k], ps[k])); }
    WK[wb + n + 2u * wid.x] = r.m;
    WK[wb + n + 2u * wid.x + 1u] = r.s;
  }
}
