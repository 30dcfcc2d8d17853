${pre}
${layout}
var<workgroup> rn: array<R, 64>;       // the reflector's norm partials (max, sum squares)
var<workgroup> rn2: array<R, 64>;
var<workgroup> red: array<R, 256>;     // raw dot products
var<workgroup> pr: array<R, ${rpw}>;   // p_i v_i of the workgroup's rows
${comb}
// a row of A (row workgroups) or a panel column of YT (dot product workgroups)
fn src(rows: bool, k: u32) -> R {
  if (rows) { return A[k]; }
  return YT[k];
}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) tid: u32) {
  let b = wid.y;
  if (b >= ${nbat}) { return; }
  let n = ${n};
  let j = ${j};
  let jj = ${jj};
  let NBu = ${nb}u;
  let nrb = ${nrb};
  let xb = ${NX_off} + b * n * 2u * NBu;
  let yb = ${YT_off} + b * 2u * NBu * n;
  let wb = ${WK_off} + b * 3u * n;
  // ---- the norm partials of TrdUpdSpec, alpha and the raw dot product (no norm needed)
  var ms = MS(R(0.0), R(0.0));
  if (tid < 64u) {
    for (var k = tid; k < ${nwu}; k += 64u) {
      ms = comb(ms, MS(WK[wb + n + 2u * k], WK[wb + n + 2u * k + 1u]));
    }
  }
  let alpha = WK[wb + j + 1u];
  let rows = wid.x < nrb;
  var seg = 256u;
  var l = tid;
  var i = n;
  var base = 0u;      // the row (A) or column (YT) the workgroup's invocations read
  var col = 0u;       // the panel column of a dot product workgroup
  if (rows) {
    seg = 256u / ${rpw}u;
    l = tid % seg;
    i = j + 1u + wid.x * ${rpw}u + tid / seg;
    base = ${A_off} + b * n * n + i * n;
  } else {
    col = wid.x - nrb;
    if (col >= jj) { col += NBu - jj; }
    base = yb + col * n;
  }
  var s0 = R(0.0);
  var s1 = R(0.0);
  var s2 = R(0.0);
  var s3 = R(0.0);
  var first = R(0.0);     // A[i, j+1] or YT[col, j+1] (v's unit entry)
  var vi = R(0.0);        // a[i] (rows)
  if (!rows || i < n) {
    if (l == 0u) {
      first = src(rows, base + j + 1u);
      if (rows) { vi = WK[wb + i]; }
    }
    var c = j + 2u + l;
    loop {
      if (c + 3u * seg >= n) { break; }
      let c1 = c + seg;
      let c2 = c1 + seg;
      let c3 = c2 + seg;
      s0 += src(rows, base + c) * WK[wb + c];
      s1 += src(rows, base + c1) * WK[wb + c1];
      s2 += src(rows, base + c2) * WK[wb + c2];
      s3 += src(rows, base + c3) * WK[wb + c3];
      c += 4u * seg;
    }
    for (; c < n; c += seg) { s0 += src(rows, base + c) * WK[wb + c]; }
  }
  if (tid < 64u) {
    rn[tid] = ms.m;
    rn2[tid] = ms.s;
  }
  red[tid] = (s0 + s1) + (s2 + s3);
  workgroupBarrier();
  for (var h = 128u; h > 0u; h >>= 1u) {
    if (tid < h && h < 64u) {
      let r = comb(MS(rn[tid], rn2[tid]), MS(rn[tid + h], rn2[tid + h]));
      rn[tid] = r.m;
      rn2[tid] = r.s;
    }
    if (l < h && h < seg) { red[tid] = red[tid] + red[tid + h]; }
    workgroupBarrier();
  }
  // ---- the reflector of column j
  let xnorm = rn[0] * sqrt(rn2[0]);
  var beta = alpha;
  var tau = R(0.0);
  var scal = R(0.0);
  if (xnorm > R(0.0) || bad(xnorm) || bad(alpha)) {
    let m = max(abs(alpha), xnorm);
    let h = m * sqrt((alpha / m) * (alpha / m) + (xnorm / m) * (xnorm / m));
    beta = select(h, -h, alpha >= R(0.0));
    tau = (beta - alpha) / beta;
    scal = R(1.0) / (alpha - beta);
  }
  if (rows) {
    if (l == 0u) {
      var p = R(0.0);
      if (i < n) {
        p = first + scal * red[tid];
        var v = vi * scal;
        if (i == j + 1u) { v = R(1.0); }
        PV[${PV_off} + b * n + i] = p;
        YT[yb + (NBu + jj) * n + i] = v;
        NX[xb + i * 2u * NBu + jj] = -v;
        REF[${REF_off} + b * n * n + i * n + j] = v;
        p *= v;
      }
      pr[tid / seg] = p;
    }
  } else if (tid == 0u) {
    DOT[${DOT_off} + b * 2u * NBu + col] = first + scal * red[0];
  }
  workgroupBarrier();
  if (rows && tid == 0u) {
    var sp = R(0.0);
    for (var r = 0u; r < ${rpw}u; r++) { sp += pr[r]; }
    WK[wb + 2u * n + wid.x] = sp;
  }
  if (wid.x == 0u && tid == 0u) {
    E[${E_off} + b * n + j] = beta;
    TAU[${TAU_off} + b * n + j] = tau;
  }
}
