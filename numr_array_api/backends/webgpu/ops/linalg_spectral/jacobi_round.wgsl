${layout}
${cfns}
var<workgroup> R1: array<${T}, ${wg}>;
var<workgroup> R2: array<${T}, ${wg}>;
var<workgroup> RG: array<${E}, ${wg}>;

const EPS: ${T} = ${eps};
const FLOOR: ${T} = ${floor};

fn pair(r: u32, k: u32, m: u32) -> vec2<u32> {
  let mm = m - 1u;
  var p = mm;
  var q = r;
  if (k != 0u) { p = (r + k) % mm; q = (r + mm - k) % mm; }
  return vec2<u32>(min(p, q), max(p, q));
}

// One round of one-sided Jacobi over many workgroups: workgroup (k, b) owns pair k of
// matrix b, reduces its column dots, and rotates its two columns of U and V. The pairs of
// a round are disjoint, so a round is one dispatch; CNT[b * maxsw + sw] counts rotations.
@compute @workgroup_size(${wg})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let R = ${R};
  let C = ${C};
  let m = C + (C & 1u);
  let pq = pair(${rnd}, wid.x, m);
  if (pq.y >= C) { return; }
  let b = wid.y;
  let op = ${U_off} + b * R * C + pq.x * R;
  let oq = ${U_off} + b * R * C + pq.y * R;
  var al: ${T} = ${zero};
  var be: ${T} = ${zero};
  var gz: ${E} = ${ezero};
  for (var i = lid; i < R; i += ${wg}u) {
    let x = U[op + i];
    let y = U[oq + i];
    al += ab2(x);
    be += ab2(y);
    gz += mul(cj(x), y);
  }
  R1[lid] = al;
  R2[lid] = be;
  RG[lid] = gz;
  workgroupBarrier();
  for (var st = ${wg}u / 2u; st > 0u; st >>= 1u) {
    if (lid < st) {
      R1[lid] += R1[lid + st];
      R2[lid] += R2[lid + st];
      RG[lid] += RG[lid + st];
    }
    workgroupBarrier();
  }
  let a2 = R1[0];
  let b2 = R2[0];
  let g2 = RG[0];
  let ga = cabs(g2);
  if (ga > max(FLOOR, EPS * sqrt(${T}(R)) * sqrt(a2) * sqrt(b2))) {
    let d = b2 - a2;
    var t: ${T};
    if (ga < abs(d) * EPS) {
      t = ga / d;
    } else {
      let th = d / (${two} * ga);
      t = select(-${one}, ${one}, th >= ${zero}) / (abs(th) + sqrt(th * th + ${one}));
    }
    let jr = jrot(t, g2);
    let h = jr.h;
    let g = jr.g;
    for (var i = lid; i < R; i += ${wg}u) {
      let x = U[op + i];
      let y = U[oq + i];
      U[op + i] = x - (mul(cj(g), y) + h * x);
      U[oq + i] = y + (mul(g, x) - h * y);
    }
${v_rot}
    if (lid == 0u) { atomicAdd(&CNT[${CNT_off} + b * ${maxsw} + ${sw}], 1u); }
  }
}
