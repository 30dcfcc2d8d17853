${prelude}
${layout}
var<workgroup> mp: array<u32, ${mapn}>;
var<workgroup> pv: array<u32, ${mapn}>;

@compute @workgroup_size(${wg})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>,
        @builtin(local_invocation_index) tid: u32) {
  let g = wid.x + wid.y * nw.x;
  let ncb = ${ncb};
  if (g >= ncb * ${nbat}) { return; }
  let b = g / ncb;
  let c0 = (g % ncb) * ${cw};
  let m = ${m};
  let kb = ${kb};
  let pb = ${ipiv_off} + b * ${p_bs};
  for (var r = tid; r < m; r += ${wg}u) { mp[r] = r; }
  for (var i = tid; i < kb; i += ${wg}u) { pv[i] = u32(ipiv[pb + i]) - ${pbase}; }
  workgroupBarrier();
  // the interchanges in order, on row indices in workgroup memory: mp[r] = the old row
  // that ends at row r
  if (tid == 0u) {
    for (var i = 0u; i < kb; i++) {
      let p = pv[i];
      let t = mp[i];
      mp[i] = mp[p];
      mp[p] = t;
    }
  }
  workgroupBarrier();
  // rows that can change: 0 .. kb - 1 and the targets (or every row when 2 kb > m);
  // gather them all (this workgroup's columns), then write: in place without a race
  let full = 2u * kb > m;
  let slots = select(2u * kb, m, full);
  let ab = ${A_off} + b * ${a_bs};
  var v: array<T, ${rpt}>;
  for (var q = 0u; q < ${rpt}u; q++) {
    let e = tid + q * ${wg}u;
    let a = e / ${cw};
    let c = c0 + e % ${cw};
    if (a < slots && c < ${nc}) {
      var r = a;
      if (!full && a >= kb) { r = pv[a - kb]; }
      v[q] = A[ab + mp[r] * ${a_rs} + c * ${a_cs}];
    }
  }
  storageBarrier();
  workgroupBarrier();
  for (var q = 0u; q < ${rpt}u; q++) {
    let e = tid + q * ${wg}u;
    let a = e / ${cw};
    let c = c0 + e % ${cw};
    if (a < slots && c < ${nc}) {
      var r = a;
      if (!full && a >= kb) { r = pv[a - kb]; }
      if (full || a < kb || r >= kb) { A[ab + r * ${a_rs} + c * ${a_cs}] = v[q]; }
    }
  }
}
