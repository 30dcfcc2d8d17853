${prelude}
${layout}
var<workgroup> pv: array<u32, ${kmax}>;
var<workgroup> srow: array<u32, ${smax}>;
var<workgroup> drow: array<u32, ${smax}>;

@compute @workgroup_size(${wg})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>,
        @builtin(local_invocation_index) tid: u32) {
  let g = wid.x + wid.y * nw.x;
  let ncb = ${ncb};
  if (g >= ncb * ${nbat}) { return; }
  let b = g / ncb;
  let c0 = (g % ncb) * ${cw};
  let kb = ${kb};
  let pb = ${ipiv_off} + b * ${p_bs};
  for (var i = tid; i < kb; i += ${wg}u) { pv[i] = u32(ipiv[pb + i]) - ${pbase}; }
  workgroupBarrier();
  // slot a: row a (a < kb) or the target pv[a - kb]; its final content comes from the
  // row found by walking the interchanges backwards (row x before interchange i: the
  // row the last earlier interchange j with pv[j] == x brought there, else x itself).
  // Every invocation owns one slot: no serial replay of the interchanges.
  let nsl = 2u * kb;
  for (var a = tid; a < nsl; a += ${wg}u) {
    var r = a;
    var ok = true;
    if (a >= kb) {
      r = pv[a - kb];
      if (r < kb) { ok = false; }  // a slot of its own
      for (var j = 0u; j < a - kb; j++) { if (pv[j] == r) { ok = false; } }  // written once
    }
    var x = r;
    var i = kb;
    if (r < kb) { x = pv[r]; i = r; }
    loop {
      var f = i;
      for (var j = i; j > 0u; j--) { if (pv[j - 1u] == x) { f = j - 1u; break; } }
      if (f == i) { break; }
      x = f;
      i = f;
    }
    srow[a] = x;
    drow[a] = select(0xffffffffu, r, ok);
  }
  workgroupBarrier();
  let ab = ${A_off} + b * ${a_bs};
  var v: array<T, ${rpt}>;
  for (var q = 0u; q < ${rpt}u; q++) {
    let e = tid + q * ${wg}u;
    let a = e / ${cw};
    let c = c0 + e % ${cw};
    if (a < nsl && c < ${nc} + ${kx}) {
      if (drow[a] != 0xffffffffu) {
        ${load}
      }
    }
  }
  workgroupBarrier();
  for (var q = 0u; q < ${rpt}u; q++) {
    let e = tid + q * ${wg}u;
    let a = e / ${cw};
    let c = c0 + e % ${cw};
    if (a < nsl && c < ${nc} + ${kx}) {
      if (drow[a] != 0xffffffffu) {
        ${store}
      }
    }
  }
}
