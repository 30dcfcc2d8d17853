${layout}
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let K = ${K};
  for (var b = g.x; b < ${nb}; b += nw.x * 64u) {
    let sb = ${S_off} + b * K;
    var mx = S[sb];
    for (var j = 1u; j < K; j++) { mx = max(mx, S[sb + j]); }
    let cut = mx * RT[${RT_off} + b];
${body}
  }
}
