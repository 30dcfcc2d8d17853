${prelude}
${layout}
${shared}
var<private> base: u32;
${access}

@compute @workgroup_size(${wg})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>,
        @builtin(local_invocation_index) tid: u32) {
  let b = wid.x + wid.y * nw.x;
  if (b >= ${nbat}) { return; }
  base = ${A_off} + b * ${a_bs};
  let m = ${m};
  let nc = ${nc};
${load}

${body}

${save}
${tail}
}
