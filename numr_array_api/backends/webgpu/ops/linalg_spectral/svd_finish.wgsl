${layout}
${cfns}
var<workgroup> RS: array<${T}, 256>;
var<workgroup> RK: atomic<u32>;

const TINYN: ${T} = ${tiny};
const EPS: ${T} = ${eps};

// descending order on (value, index): NaN first, ties by index (as svd.wgsl)
fn before(a: ${T}, b: ${T}, ia: u32, ib: u32) -> bool {
  let na = !(a == a);
  let nb = !(b == b);
  if (na || nb) { return (na && !nb) || (na && nb && ia < ib); }
  return a > b || (a == b && ia < ib);
}

// workgroup (j, b): the norm of column j of matrix b
@compute @workgroup_size(256)
fn norms(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let R = ${R};
  let C = ${C};
  let j = wid.x;
  let b = wid.y;
  let o = ${U_off} + b * R * C + j * R;
  var s: ${T} = ${zero};
  for (var i = lid; i < R; i += 256u) { s += ab2(U[o + i]); }
  RS[lid] = s;
  workgroupBarrier();
  for (var st = 128u; st > 0u; st >>= 1u) {
    if (lid < st) { RS[lid] += RS[lid + st]; }
    workgroupBarrier();
  }
  if (lid == 0u) {
    let nj = sqrt(RS[0]);
    NRM[${NRM_off} + b * C + j] = nj;
  }
}

// workgroup (0, b): ZC[b] counts the columns whose singular value is negligible (as
// svd.wgsl: s_j <= max(TINYN, R eps s_max)), the ones whose U column needs completing
@compute @workgroup_size(256)
fn small(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let R = ${R};
  let C = ${C};
  let b = wid.y;
  let o = ${NRM_off} + b * C;
  var mx: ${T} = ${zero};
  for (var k = lid; k < C; k += 256u) { mx = max(mx, NRM[o + k]); }
  RS[lid] = mx;
  workgroupBarrier();
  for (var st = 128u; st > 0u; st >>= 1u) {
    if (lid < st) { RS[lid] = max(RS[lid], RS[lid + st]); }
    workgroupBarrier();
  }
  let thr = max(TINYN, EPS * ${T}(R) * RS[0]);
  var c = 0u;
  for (var k = lid; k < C; k += 256u) { if (!(NRM[o + k] > thr)) { c++; } }
  if (c > 0u) { atomicAdd(&ZC[${ZC_off} + b], c); }
}

// workgroup (j, b): the rank of column j, then its singular value and vectors
@compute @workgroup_size(256)
fn write(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let R = ${R};
  let C = ${C};
  let j = wid.x;
  let b = wid.y;
  let nb_ = ${NRM_off} + b * C;
  let sj = NRM[nb_ + j];
  if (lid == 0u) { atomicStore(&RK, 0u); }
  workgroupBarrier();
  var c = 0u;
  for (var k = lid; k < C; k += 256u) { if (before(NRM[nb_ + k], sj, k, j)) { c++; } }
  atomicAdd(&RK, c);
  let rk = workgroupUniformLoad(&RK);
  if (lid == 0u) { SV[${SV_off} + b * C + rk] = sj; }
${vec_write}
}
