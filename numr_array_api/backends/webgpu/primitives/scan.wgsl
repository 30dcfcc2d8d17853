${helpers}
${layout}
var<workgroup> sh: array<${A}, ${wg}>;
fn comb(x: ${A}, y: ${A}) -> ${A} { ${comb} }
fn val(row: u32, col: u32) -> ${A} {
  if (col >= ${mc}) { return ${ident}; }
  let j = ${S_off} + row * ${s_rs} + col * ${s_es};
  return ${value};
}
@compute @workgroup_size(${wg})
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nw: vec3<u32>) {
  let blk = wid.x + wid.y * nw.x;   // uniform in the workgroup: the early exit is too
  let nb = (${mc} + ${block}u - 1u) / ${block}u;
  if (blk >= ${L} * nb) { return; }
  let row = blk / nb;
  let b = blk - row * nb;
  let g = ${g_base} + row * ${nbr} + b;    // the block's global number
  let c0 = b * ${block}u + lid.x * ${per}u;
${loads}
  var s = ${ident};
${fold}
  // Hillis-Steele inclusive scan of the threads' totals
  sh[lid.x] = s;
  workgroupBarrier();
  for (var d = 1u; d < ${wg}u; d <<= 1u) {
    var x = ${ident};
    if (lid.x >= d) { x = sh[lid.x - d]; }
    workgroupBarrier();
    if (lid.x >= d) { sh[lid.x] = comb(x, sh[lid.x]); }
    workgroupBarrier();
  }
${tail}
}
