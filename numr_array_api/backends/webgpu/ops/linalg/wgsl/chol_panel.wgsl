${prelude}
${layout}
// the lower triangle of the diagonal block, packed by rows: (i, j) at i (i + 1) / 2 + j
var<workgroup> L: array<T, ${packed}>;
var<workgroup> shr: R;
${tilevar}

fn li(i: u32, j: u32) -> u32 { return i * (i + 1u) / 2u + j; }

@compute @workgroup_size(${wg})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>,
        @builtin(local_invocation_index) tid: u32) {
${head}
  let nb = ${nb}u;
  for (var e = tid; e < kb * kb; e += ${wg}u) {
    let i = e / kb;
    let j = e % kb;
    if (j <= i) { L[li(i, j)] = A[base + i * ${a_rs} + j * ${a_cs}]; }
  }
  // the previous step's factor (o x o, in D[1 - par]) goes to its place in A now: no
  // workgroup of that step could write A11 while others still read it
  if (blk == 0u && o > 0u) {
    let src = db + (1u - ${par}) * nb * nb;
    for (var e = tid; e < o * o; e += ${wg}u) {
      let i = e / o;
      let j = e % o;
      if (j <= i) { A[pbase + i * ${a_rs} + j * ${a_cs}] = D[src + e]; }
    }
  }
  workgroupBarrier();
  // every workgroup factorises the diagonal block (kb^3 / 3 flops in workgroup memory,
  // identical in each), so the rows below need no second dispatch
  for (var j = 0u; j < kb; j++) {
    if (tid == 0u) {
      let d = re(L[li(j, j)]);
      if (!(d > R(0.0)) && blk == 0u) { atomicOr(&st[0], 1u); }
      let s = sqrt(d);
      L[li(j, j)] = of_re(s);
      shr = s;
    }
    workgroupBarrier();
    let s = shr;
    for (var i = j + 1u + tid; i < kb; i += ${wg}u) { L[li(i, j)] = L[li(i, j)] / s; }
    workgroupBarrier();
    let r = kb - j - 1u;
    for (var e = tid; e < r * r; e += ${wg}u) {
      let p = j + 1u + e / r;
      let q = j + 1u + e % r;
      if (q <= p) { L[li(p, q)] = L[li(p, q)] - mul(L[li(p, j)], cj(L[li(q, j)])); }
    }
    workgroupBarrier();
  }
  if (blk == 0u) {
    let dst = db + ${par} * nb * nb;
    for (var e = tid; e < kb * kb; e += ${wg}u) {
      let i = e / kb;
      let j = e % kb;
      if (j <= i) {
        if (nblk == 1u) { A[base + i * ${a_rs} + j * ${a_cs}] = L[li(i, j)]; }
        else { D[dst + e] = L[li(i, j)]; }
      }
    }
  }
${rows}
}
