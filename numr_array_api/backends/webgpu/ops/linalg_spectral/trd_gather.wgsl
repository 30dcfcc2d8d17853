${pre}
${layout}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) tid: u32) {
  let b = wid.y;
  let n = ${n};
  let i = wid.x;
  if (b >= ${nbat} || i >= n) { return; }
  for (var k = tid; k < n; k += 256u) {
    let slot = SLOT[${SLOT_off} + b * n + k];
    Z[${Z_off} + b * n * n + i * n + k] = ZS[${ZS_off} + b * n * n + slot * n + i];
  }
}
