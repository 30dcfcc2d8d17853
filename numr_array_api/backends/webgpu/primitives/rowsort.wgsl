${layout}
${keyfn}
var<workgroup> sk: array<u32, ${pw}>;
var<workgroup> si: array<u32, ${gp}>;
fn elem(i: u32) -> u32 {
  let r = i / ${m};
  let c = i - r * ${m};
  return u32(i32(${S_off}) + i32(r) * bitcast<i32>(${s_rs}) + i32(c) * bitcast<i32>(${s_cs}));
}
fn after(a: u32, b: u32) -> bool {   // (key, column) of slot a sorts after slot b's
${cmp}
  return si[a] > si[b];
}
@compute @workgroup_size(${t})
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nw: vec3<u32>) {
  let row0 = (wid.x + wid.y * nw.x) * ${g}u;
  if (row0 >= ${rows}) { return; }
  for (var c = lid.x; c < ${gp}u; c += ${t}u) {
    let row = row0 + c / ${p}u;
    let cl = c & ${pm1}u;
    if (row < ${rows} && cl < ${m}) {
      var k = key(elem(row * ${m} + cl));
${store_key}
      si[c] = cl;
    } else {
${pad_key}
      si[c] = 0xffffffffu;
    }
  }
  workgroupBarrier();
  for (var k = 2u; k <= ${p}u; k <<= 1u) {
    for (var j = k >> 1u; j > 0u; j >>= 1u) {
      for (var t = lid.x; t < ${ghalf}u; t += ${t}u) {
        let seg = (t / ${half}u) * ${p}u;      // the row's segment of the shared arrays
        let tl = t & ${halfm1}u;
        let al = 2u * j * (tl / j) + (tl % j);
        let a = seg + al;
        let b = a + j;
        let up = (al & k) == 0u;
        if (after(a, b) == up) {
${swap}
        }
      }
      workgroupBarrier();
    }
  }
  for (var c = lid.x; c < ${gp}u; c += ${t}u) {
    let row = row0 + c / ${p}u;
    let cl = c & ${pm1}u;
    if (row < ${rows} && cl < ${m}) { O[${O_off} + row * ${m} + cl] = row * ${m} + si[c]; }
  }
}
