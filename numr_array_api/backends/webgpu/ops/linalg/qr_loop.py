"""A Householder QR panel in one workgroup, its rows held in registers across columns.

The wide panel (qr_wide.py) costs a dispatch per column, each ~10-15 us on the H100
whatever its size. A panel whose rows fit one workgroup walks its columns here in ONE
dispatch: each invocation loads its rows of the panel (one column a lane, ``rpt`` rows)
once, and per column the reflector's inputs (the partials of the column, its diagonal
row, the column itself) pass through workgroup memory between barriers. The earlier
looped form of the wide kernel reloaded the block from global memory and exchanged the
partials there at every column (a storage barrier each): 16 rows a thread cost it
458 / 825 us a 512-row panel (float32 / float64), more than the wide panel (H100,
benchmarks/gpu/runs/2026-11-27-19.sh, 2026-11-27).

The arithmetic is the wide kernel's (qr_wide.REFLECT / PARTIALS: geqr2's conventions,
scaled sums), so R, tau and the reflectors come out as there; the panel is stored once,
at the end.
"""

from __future__ import annotations

import dataclasses

from ...codegen.spec import KernelSpec
from ...codegen.template import Template
from ...codegen.types import WType
from ...runtime.switches import switch_int as _env_int
from .qr_wide import (HELPERS, NCAP, NS, PARTIALS, PW, REFLECT, panel_layout, reciprocals,
                      scaling_tokens, trusted)
from .scalar import prelude

LOOP_MAX = 128   # see loop_max() (H100, benchmarks/gpu/runs/2026-11-27-20.sh: qr 512 float32
                 # 3.10x -> 2.75x)
LOOP_NS = 16     # see loop_spec()
# float32 panels of up to 512 rows looped on 32 slices (H100, benchmarks/gpu/runs/2026-11-27-33.sh:
# qr 512 float32 3.50x -> 2.46x of cuSOLVER, 2048 2.20x -> 2.12x); wider elements keep
# 128 rows on 16 (float64 512: 7.3 -> 8.4 ms looped from 512 rows, 7.6 from 256: 16-32
# doubles a thread on 512-1024 invocations crowd the register file)
LOOP_MAX_F32 = 512
LOOP_NS_F32 = 32

_LOOP = Template("""${prelude}
${layout}
var<workgroup> xv: array<T, ${rows2}>;  // column d after step d: halves by the parity of d
var<workgroup> ps: array<T, ${wg}>;
var<workgroup> psc: array<R, ${ns}>;
var<workgroup> cw: array<T, ${ncap}>;   // conj(tau) w_c of the reflector of column q
var<workgroup> hv: array<T, 3>;         // x0 - beta, beta, house
var<workgroup> pt: array<T, ${pw}>;     // the partials of column d: sums, then the scale
var<workgroup> dg: array<T, ${ncap}>;   // row d after step d
""" + HELPERS + """
@compute @workgroup_size(${wg})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) tid: u32) {
  let b = wid.y;
  if (b >= ${nbat}) { return; }
  let blk = 0u;
  let r0 = 0u;
  let m = ${m};
  let nc = ${nc};
  let lane = tid % ${ncap}u;
  let sl = tid / ${ncap}u;
  let base = ${A_off} + b * ${a_bs};
  let rs = ${a_rs};
  let cs = ${a_cs};
  var regs: array<T, ${rpt}>;
  for (var t = 0u; t < ${rpt}u; t++) {
    let i = sl + ${ns}u * t;
    var p = zero();
    if (i < m && lane < nc) { p = A[base + i * rs + lane * cs]; }
    regs[t] = p;
  }
  for (var d = 0u; d <= nc; d++) {
    var q = 0u;
    if (d > 0u) { q = d - 1u; }
    let xq = (q % 2u) * ${rows}u;
    let xo = (d % 2u) * ${rows}u;
    var house = false;
    var piv = one();
    var rpiv = R(0.0);
    if (d > 0u) {
      // ---- the reflector of column q from step q's partials and diagonal row
      if (tid < ${ncap}u) {
        let alpha = dg[q];
        let pqc = dg[tid];
        let s = re(pt[${ncap}u]);
        let yc = pt[tid];
        let yq = pt[q];
""" + REFLECT + """      }
      workgroupBarrier();
      piv = hv[0];
      house = re(hv[2]) != R(0.0);
${rpiv}
    }
    // ---- applied to the rows (d = 0: rows only read); column q becomes v and beta
    for (var t = 0u; t < ${rpt}u; t++) {
      let i = sl + ${ns}u * t;
      if (i < m && lane < nc) {
        var p = regs[t];
        if (d > 0u && i >= q) {
          var v = one();
          if (i > q) {
            v = xv[xq + i];
            if (house) { v = ${quot}; }
          }
          if (lane == q) {
            if (i == q) { p = hv[1]; } else if (house) { p = v; }
          } else if (lane > q) {
            p -= mul(v, cw[lane]);
          }
        }
        if (lane == d) { xv[xo + i] = p; }
        if (i == d && lane >= d) { dg[lane] = p; }
        regs[t] = p;
      }
    }
    if (d >= nc) { break; }
    workgroupBarrier();
    // ---- partials of column d
""" + PARTIALS.replace("XD(t)", "xv[xo + sl + ${ns}u * t]") + """      pt[tid] = yc;
      if (tid == 0u) { pt[${ncap}u] = of_re(s); }
    }
    workgroupBarrier();
  }
  for (var t = 0u; t < ${rpt}u; t++) {
    let i = sl + ${ns}u * t;
    if (i < m && lane < nc) { A[base + i * rs + lane * cs] = regs[t]; }
  }
}
""", "linalg_qr_loop")


@dataclasses.dataclass(frozen=True)
class QrLoopSpec(KernelSpec):
    """Every column of a Householder QR panel of at most ns * rpt rows, one workgroup
    per matrix (bound as the wide panel: qr_wide.WidePanel)."""

    t: WType
    rpt: int = 4
    ns: int = 16     # row slices: a workgroup of ns * 32 invocations
    # trusted (compiled without wgpu's runtime checks, KernelSpec.runtime_checks):
    # workgroup indices are structural (tid < ns * NCAP, lane and q < NCAP since the host
    # keeps nc <= NCAP, rows i < ns rpt, xv halves of ns rpt); loops counted by constants
    # or the uniform nc; global indices stay in the bound views (i < m, lane < nc, b < nbat)
    trusted: bool = False
    recip: bool = True   # as QrWideSpec.recip
    looped = True

    def layout(self, caps):
        return panel_layout(self.t, caps)

    def render(self, caps):
        sc = scaling_tokens(self.t, self.recip)
        sc["quot"] = sc["quot"].replace("VQ", "v")
        return _LOOP.render(self.layout(caps).tokens(), prelude=prelude(self.t),
                            rows=self.rows, rows2=2 * self.rows, wg=self.ns * NCAP,
                            ns=self.ns, ncap=NCAP, pw=PW, rpt=self.rpt, **sc)

    @property
    def rows(self):
        return self.ns * self.rpt

    def needs(self):
        return ("f64",) if self.t.need == "shader-f64" else ()


def loop_max(t):
    """Panels of at most this many rows of WType ``t`` take the looped kernel, one
    dispatch a panel (NUMR_WEBGPU_QR_LOOP_MAX; 0: none; at most 64 rows a thread)."""
    return _env_int("QR_LOOP_MAX", LOOP_MAX_F32 if t.val == "f32" else LOOP_MAX, 0, 32 * 64)


def loop_spec(t, m):
    """The looped panel's spec for panels of m rows: LOOP_NS row slices
    (NUMR_WEBGPU_QR_LOOP_NS, 8 .. 32) and the fewest rows a thread."""
    ns = _env_int("QR_LOOP_NS", LOOP_NS_F32 if t.val == "f32" else LOOP_NS, NS, 32)
    rpt = 4
    while ns * rpt < m and rpt < 64:
        rpt *= 2
    return QrLoopSpec(t, rpt, ns, trusted(), reciprocals())


def variants():
    from ...codegen.types import WTYPES
    from .specs import FLOATS
    return [QrLoopSpec(WTYPES[d], r, ns, tr) for d in FLOATS for r, ns in
            ((4, 16), (8, 16), (16, 32), (32, 32)) for tr in (False, True)]
