${layout}
var<workgroup> red: array<f64, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nw: vec3<u32>) {
  let n = ${n};
  let nb = ${nb};
  let nn = n * n;
  for (var b = wid.x + wid.y * nw.x; b < nb; b += nw.x * nw.y) {
    let mo = b * nn;
    var q = 0.0lf;
    for (var e = lid; e < nn; e += 64u) { q = max(q, abs(A[${A_off} + mo + e])); }
    red[lid] = q;
    workgroupBarrier();
    for (var h = 32u; h > 0u; h >>= 1u) {
      if (lid < h) { red[lid] = max(red[lid], red[lid + h]); }
      workgroupBarrier();
    }
    q = red[0];
    workgroupBarrier();
    // a power of two bringing max |a| into [0.5, 1] (exact; the kernel rescales anyway)
    var sc = 1.0lf;
    for (var k = 0u; k < 40u && q > 4294967296.0lf; k++) { q *= 2.3283064365386963e-10lf; sc *= 2.3283064365386963e-10lf; }
    for (var k = 0u; k < 40u && q > 1.0lf; k++) { q *= 0.5lf; sc *= 0.5lf; }
    for (var k = 0u; k < 40u && q > 0.0lf && q < 2.3283064365386963e-10lf; k++) { q *= 4294967296.0lf; sc *= 4294967296.0lf; }
    for (var k = 0u; k < 40u && q > 0.0lf && q < 0.5lf; k++) { q *= 2.0lf; sc *= 2.0lf; }
    for (var e = lid; e < nn; e += 64u) { X32[${X32_off} + mo + e] = f32(A[${A_off} + mo + e] * sc); }
  }
}
