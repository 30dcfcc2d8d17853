"""A Householder QR panel spread over many workgroups: one dispatch per panel column.

FactorSpec "qr" factors a panel in ONE workgroup per matrix, walking all its rows for
every column: on the H100 that was ~1.5 ms per 32-column panel of 4096 rows (qr 4096
float32 217 ms against cuSOLVER's 29). Here the panel's rows are cut into blocks of
``NS * rpt`` rows, one workgroup per block and matrix, and column j of the panel costs
one dispatch (like the wide tridiagonalisation, linalg_spectral/tridiag.py):

  dispatch d  (d = 0 .. kb)
    1. d > 0: the reflector of column q = d - 1 from the partials the previous dispatch
       left in PT (every workgroup combines them, in the same order: identical beta, tau,
       w), and the diagonal row's values it left in DG;
    2. that reflector applied to the block's rows (column q becomes v, row q of R gets
       beta, columns c > q lose v conj(tau) w_c);
    3. d < kb: per block partials of column d (rows below the diagonal):
       s = max |x_i| and sum conj(x_i / s) p_ic for every column c >= d (c = d: the
       scaled squared norm), and the owner of row d copies that row into DG.
PT and DG alternate between two halves by the parity of d: a dispatch reads the half
the previous one wrote and writes the other, so no workgroup reads what another one
of the same dispatch writes.

With x = column q below the diagonal (rows i > q), x0 its diagonal entry and beta
real: v_i = x_i / (x0 - beta) (v_q = 1), so v^H p_c = p_qc + (x^H p_c) / conj(x0 - beta)
from the dot products alone: no cancellation (|x0 - beta| >= |beta|), no second pass.
Conventions are geqr2's (as FactorSpec "qr": tau = 0 where x = 0 and x0 is real, the
norm scaled by the largest |component|), so QrVSpec, QrTSpec and form_q take the panel
unchanged. Blocks never exchange scales before the sums: each keeps its own and the
combiner rescales, so squares neither overflow nor flush where the old kernel's did not.

Block 0 holds every diagonal row of the panel (NS * rpt >= 32 columns).
"""

from __future__ import annotations

import dataclasses

from ...codegen.layout import Buf, Layout
from ...codegen.spec import KernelSpec
from ...codegen.template import Template
from ...codegen.types import WType
from ...storage import new_output
from ...runtime.switches import switch as _env, switch_int as _env_int
from .scalar import prelude

NCAP = 32        # widest panel (lanes of a 32-invocation slice: one a column)
NS = 8           # row slices of a 256-invocation workgroup
PW = NCAP + 1    # a block's partials: NCAP sums, then its scale
RPT = 4          # rows per invocation (NUMR_WEBGPU_QR_WIDE_RPT; a block: NS * RPT rows; H100,
                 # benchmarks/gpu/runs/2026-11-26-40.sh: qr 4096 float32 100 ms at 4, 102 at 8, 112 at
                 # 16, 145 at 32)
WIDE_MIN = 256   # panel rows from which the wide panel is taken (NUMR_WEBGPU_QR_WIDE_MIN)
WIDE_MIN_F64 = 129  # float64: every panel above the looped ones' 128 rows (H100,
                    # benchmarks/gpu/runs/2026-11-28-12.sh: qr 512 float64 5.70 / 5.75 ms against
                    # 6.05 / 6.01 with the 160-224-row panels on FactorSpec; 1024 -2 %,
                    # 2048 -0.5 %)
NBLK_CAP = 256   # row blocks beyond which taller blocks are taken (up to 64 rows a thread):
                 # every workgroup reads every block's partials, nblk^2 PW values a dispatch

CALLS = {"panels": 0}   # tests read it: panels factored by this kernel

# 1 / s where the reciprocal is taken (RECIP, |s| normal: finite), else 0: then sc / scr
# divide. A thread scales many values by one s: a multiply each instead of a division
# (a long instruction sequence in float64 on NVIDIA)
HELPERS = """fn rq(s: R) -> R { ${rq_body} }
fn sc(x: T, s: R, is: R) -> T { if (is != R(0.0)) { return x * is; } return x / s; }
fn scr(x: R, s: R, is: R) -> R { if (is != R(0.0)) { return x * is; } return x / s; }
"""

# the reflector of column q (invocations tid < NCAP), from s (the largest scale), yc / yq
# (x^H p_c and x^H x over s), alpha (the diagonal entry) and pqc (row q's entry of column
# tid): beta, tau, conj(tau) w_c into cw, (x0 - beta, beta, house) into hv
REFLECT = """      let g = max(s, maxabs(alpha));
      var xn = R(0.0);            // sum |x_i / g|^2, as FactorSpec's
      if (s > R(0.0)) { xn = re(yq) / s * (s / g) * (s / g); }
      let hs = !(xn == R(0.0) && im(alpha) == R(0.0));
      var beta = re(alpha);
      var tau = zero();
      var pv = one();
      if (hs) {
        let nrm = g * sqrt(absq(alpha / g) + xn);
        beta = select(nrm, -nrm, re(alpha) >= R(0.0));
        tau = mk((beta - re(alpha)) / beta, -im(alpha) / beta);
        pv = alpha - of_re(beta);
      }
      var c = zero();
      if (hs && tid > q && tid < nc) {
        // v^H p_c = p_qc + x^H p_c / conj(x0 - beta), both sides scaled by g
        let w = pqc + dv(yc * (s / g), cj(pv) / g);
        c = mul(cj(tau), w);
      }
      cw[tid] = c;
      if (tid == q) {
        hv[0] = pv;
        hv[1] = of_re(beta);
        hv[2] = select(zero(), one(), hs);
        if (blk == 0u) { tau_[${tau__off} + b * ${tau_bs} + q] = tau; }
      }
"""

# the partials of column d (XD(t): its value on the thread's row t): rows i > d, scaled by
# the slice's largest |x_i|, then over the slices into yc and s (invocations tid < NCAP)
PARTIALS = """  var st = R(0.0);
  for (var t = 0u; t < ${rpt}u; t++) {
    let i = r0 + sl + ${ns}u * t;
    if (i > d && i < m) { st = max(st, maxabs(XD(t))); }
  }
  var y = zero();
  let ist = rq(st);
  if (st > R(0.0) && lane >= d && lane < nc) {
    for (var t = 0u; t < ${rpt}u; t++) {
      let i = r0 + sl + ${ns}u * t;
      if (i > d && i < m) { y += mul(cj(sc(XD(t), st, ist)), regs[t]); }
    }
  }
  ps[tid] = y;
  if (lane == 0u) { psc[sl] = st; }
  workgroupBarrier();
  if (tid < ${ncap}u) {
    var s = R(0.0);
    for (var k = 0u; k < ${ns}u; k++) { s = max(s, psc[k]); }
    var yc = zero();
    if (s > R(0.0)) {
      let is = rq(s);
      for (var k = 0u; k < ${ns}u; k++) { yc += ps[k * ${ncap}u + tid] * scr(psc[k], s, is); }
    }
"""

# the slice's partials over blocks k = sl, sl + ns, ...: a running rescale when a larger
# scale comes
_COMBINE = """    var smax = R(0.0);
    var y = zero();
    for (var k = sl; k < nblk; k += ${ns}u) {
      let sk = re(PT[rp + k * ${pw}u + ${ncap}u]);
      let yk = PT[rp + k * ${pw}u + lane];
      if (sk > smax) {
        y = y * (smax / sk) + yk;
        smax = sk;
      } else if (!(sk == R(0.0))) {   // NaN scales fall here and propagate
        y += yk * (sk / smax);
      }
    }"""

_WIDE = Template("""${prelude}
${layout}
var<workgroup> vq: array<T, ${rows}>;   // column q of the block's rows, before the update
var<workgroup> xd: array<T, ${rows}>;   // column d of the block's rows, after it
var<workgroup> ps: array<T, ${wg}>;
var<workgroup> psc: array<R, ${ns}>;
var<workgroup> cw: array<T, ${ncap}>;   // conj(tau) w_c of the reflector of column q
var<workgroup> hv: array<T, 3>;         // x0 - beta, beta, house
""" + HELPERS + """
@compute @workgroup_size(${wg})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) tid: u32) {
  let d = ${j};
  let b = wid.y;
  if (b >= ${nbat}) { return; }
  let blk = wid.x;
  let m = ${m};
  let nc = ${nc};
  let nblk = ${nblk};
  let lane = tid % ${ncap}u;
  let sl = tid / ${ncap}u;
  let base = ${A_off} + b * ${a_bs};
  let rs = ${a_rs};
  let cs = ${a_cs};
  let pb = ${PT_off} + b * 2u * nblk * ${pw}u;
  let db = ${DG_off} + b * 2u * ${ncap}u;
  let r0 = blk * ${rows}u;
  var q = 0u;
  if (d > 0u) { q = d - 1u; }
  // ---- every global load of the block's rows first: none depends on the reflector, so
  // their latency overlaps the partials' reduction (and no store sits between two loads)
  var regs: array<T, ${rpt}>;
  let lo = select(q + 1u, 0u, d == 0u);    // the columns this dispatch reads and updates
  for (var t = 0u; t < ${rpt}u; t++) {
    let i = r0 + sl + ${ns}u * t;
    var p = zero();
    if (i < m && i >= q && lane >= lo && lane < nc) { p = A[base + i * rs + lane * cs]; }
    regs[t] = p;
  }
  var house = false;
  var piv = one();
  var rpiv = R(0.0);
  if (d > 0u) {
    for (var r = tid; r < ${rows}u; r += ${wg}u) {
      let i = r0 + r;
      if (i < m) { vq[r] = A[base + i * rs + q * cs]; }
    }
    let rd = db + (q % 2u) * ${ncap}u;
    var alpha = zero();
    var pqc = zero();
    if (tid < ${ncap}u) {
      alpha = DG[rd + q];
      pqc = DG[rd + tid];
    }
    // ---- x^H p_c / S over all blocks (S: the largest scale), slices over blocks,
    // rescaling the running sum when a larger scale comes
    let rp = pb + (q % 2u) * nblk * ${pw}u;
${combine}
    ps[tid] = y;
    if (lane == 0u) { psc[sl] = smax; }
    workgroupBarrier();
    if (tid < ${ncap}u) {
      var s = R(0.0);
      for (var k = 0u; k < ${ns}u; k++) { s = max(s, psc[k]); }
      let is = rq(s);
      var yc = zero();
      var yq = zero();
      if (s > R(0.0)) {
        for (var k = 0u; k < ${ns}u; k++) {
          let f = scr(psc[k], s, is);
          yc += ps[k * ${ncap}u + tid] * f;
          yq += ps[k * ${ncap}u + q] * f;
        }
      }
""" + REFLECT + """    }
    workgroupBarrier();
    piv = hv[0];
    house = re(hv[2]) != R(0.0);
${rpiv}
  }
  // ---- the reflector of column q applied to the block's rows (d = 0: rows only read)
  for (var t = 0u; t < ${rpt}u; t++) {
    let r = sl + ${ns}u * t;
    let i = r0 + r;
    if (i < m && lane < nc) {
      var p = regs[t];
      if (d > 0u && i >= q) {
        let ai = base + i * rs + lane * cs;
        var v = one();
        if (i > q) {
          v = vq[r];
          if (house) { v = ${quot}; }
        }
        if (lane == q) {
          if (i == q) { A[ai] = hv[1]; } else if (house) { A[ai] = v; }
        } else if (lane > q) {
          p -= mul(v, cw[lane]);
          A[ai] = p;
        }
      }
      if (lane == d) { xd[r] = p; }
      if (i == d && lane >= d) { DG[db + (d % 2u) * ${ncap}u + lane] = p; }
      regs[t] = p;
    }
  }
  if (d >= nc) { return; }
  workgroupBarrier();
  // ---- partials of column d
""" + PARTIALS.replace("XD(t)", "xd[sl + ${ns}u * t]") + """    let wp = pb + (d % 2u) * nblk * ${pw}u + blk * ${pw}u;
    PT[wp + tid] = yc;
    if (tid == 0u) { PT[wp + ${ncap}u] = of_re(s); }
  }
}
""", "linalg_qr_wide")


def scaling_tokens(t, recip):
    """Tokens of HELPERS and of v's quotient by x0 - beta (``quot``, of the value ``v``
    where a row of v is ``vq[r]``): a reciprocal where ``recip`` (real types for v: a
    complex quotient keeps dv's scaling)."""
    real = not t.val.startswith("vec2")
    tiny = "2.2250738585072014e-308" if "f64" in t.val else "1.1754943508222875e-38"
    rq_body = (f"if (abs(s) >= R({tiny})) {{ return R(1.0) / s; }} return R(0.0);"
               if recip else "return R(0.0);")
    if recip and real:
        return dict(rq_body=rq_body, rpiv="    rpiv = rq(piv);", quot="sc(VQ, piv, rpiv)")
    return dict(rq_body=rq_body, rpiv="", quot="dv(VQ, piv)")


@dataclasses.dataclass(frozen=True)
class QrWideSpec(KernelSpec):
    """One column of a Householder QR panel over (row blocks, matrices) workgroups."""

    t: WType
    rpt: int = RPT
    # trusted (compiled without wgpu's runtime checks, KernelSpec.runtime_checks):
    # workgroup indices are structural (tid < ns * NCAP, lane and q < NCAP since the host
    # keeps nc <= NCAP, sl < ns, rows r < ns rpt); loops are counted by constants or the uniform
    # nblk; global indices stay in the bound views (i < m, lane < nc, b < nbat, blocks <
    # the nblk PT was sized for: WidePanel)
    trusted: bool = False
    # a reciprocal taken once where a thread divides many values by one scale: the
    # partials by the slice's scale, the combiner by the largest, v (real types) by
    # x0 - beta; exact quotients where the scale is subnormal (NUMR_WEBGPU_QR_WIDE_RECIP;
    # H100, benchmarks/gpu/runs/2026-11-27-32.sh: qr 512 float64 8.54 -> 7.98 ms, 2048 and float32
    # within 1 %)
    recip: bool = True
    looped = False
    ns = NS   # row slices: a workgroup of ns * 32 invocations, a block of ns * rpt rows

    def layout(self, caps):
        return panel_layout(self.t, caps)

    def render(self, caps):
        tk = self.layout(caps).tokens()
        combine = _COMBINE.replace("${ns}", f"{self.ns}").replace("${pw}", f"{PW}").replace(
            "${ncap}", f"{NCAP}")
        sc = scaling_tokens(self.t, self.recip)
        sc["quot"] = sc["quot"].replace("VQ", "v")
        return _WIDE.render(tk, prelude=prelude(self.t), rows=self.rows, wg=self.ns * NCAP,
                            ns=self.ns, ncap=NCAP, pw=PW, rpt=self.rpt, combine=combine, **sc)

    @property
    def rows(self):
        return self.ns * self.rpt

    def needs(self):
        return ("f64",) if self.t.need == "shader-f64" else ()


def panel_layout(t, caps):
    """The bindings and words of both panel kernels (the looped one leaves PT, DG, j and
    nblk unread): WidePanel binds either the same way."""
    a = t.arr
    return Layout([Buf("A", a, "rw"), Buf("tau_", a, "rw"), Buf("PT", a, "rw"),
                   Buf("DG", a, "rw")],
                  ["m", "nc", "nbat", "a_rs", "a_cs", "a_bs", "tau_bs", "j", "nblk"], caps)


def enabled():
    """NUMR_WEBGPU_QR_WIDE=0 keeps every panel on FactorSpec "qr" (one workgroup)."""
    return (_env("QR_WIDE") or "1").strip() != "0"


def min_rows(t):
    """Panel rows of WType ``t`` from which the wide panel is taken: below, the
    one-workgroup panel walks few rows per column and saves kb dispatches
    (NUMR_WEBGPU_QR_WIDE_MIN; default WIDE_MIN_F64 for float64, else WIDE_MIN)."""
    return _env_int("QR_WIDE_MIN", WIDE_MIN_F64 if t.val == "f64" else WIDE_MIN, 1, 1 << 30)


def rows_per_thread():
    """NUMR_WEBGPU_QR_WIDE_RPT, 4..64 (a block: 8 of them per invocation's slice)."""
    return _env_int("QR_WIDE_RPT", RPT, 4, 64)


def reciprocals():
    """NUMR_WEBGPU_QR_WIDE_RECIP=0: exact quotients where a thread divides many values by
    one scale (default: one reciprocal, multiplied)."""
    return (_env("QR_WIDE_RECIP") or "1").strip() != "0"


def trusted():
    """NUMR_WEBGPU_QR_WIDE_TRUSTED=0 compiles the kernel with wgpu's runtime checks."""
    return (_env("QR_WIDE_TRUSTED") or "1").strip() != "0"


def spec(t, m):
    """The QrWideSpec of WType ``t`` for panels of up to ``m`` rows under the current
    switches: rows per thread doubled while that leaves more than NBLK_CAP blocks."""
    rpt = rows_per_thread()
    while rpt < 64 and -(-m // (NS * rpt)) > NBLK_CAP:
        rpt = min(64, 2 * rpt)
    return QrWideSpec(t, rpt, trusted(), reciprocals())


class WidePanel:
    """The wide panel's kernel and its exchange buffers for one qr call: PT sized for
    ``m`` rows (the first, tallest panel), DG for two diagonal rows."""

    def __init__(self, client, spec, dtype, B, m):
        self.min_rows = min_rows(spec.t)
        self.looped = spec.looped
        self.rpt = spec.rpt
        self.rows = spec.rows
        self.kern = client.kernel(spec)
        nblk = self.nblk = -(-m // self.rows)
        self.pt = new_output((B * 2 * nblk * PW,), dtype, client)
        self.dg = new_output((B * 2 * NCAP,), dtype, client)

    def factor(self, panel, tau):
        """Householder QR of the (B, mk, kb) panel view (kb <= 32 <= rows of a block,
        kb <= mk) in place, tau (B, kb) view: kb + 1 dispatches."""
        B, mk, kb = panel.shape
        nblk = -(-mk // self.rows)
        if not 0 < kb <= min(NCAP, mk) or nblk > self.nblk or (self.looped and nblk > 1):
            raise ValueError(f"qr_wide: a ({mk}, {kb}) panel, {self.nblk} row blocks")
        CALLS["panels"] += 1
        # bindings resolved once for the panel's kb + 1 launches: only j changes (the
        # first call of a shape records ~n of them before its plan replays them)
        k = self.kern
        words = dict(m=mk, nc=kb, nbat=B, a_rs=panel.strides[1], a_cs=panel.strides[2],
                     a_bs=panel.strides[0], tau_bs=tau.strides[0], nblk=nblk)
        triples = k.layout.bind(dict(A=panel, tau_=tau, PT=self.pt, DG=self.dg), words)
        pipe = k.pipes["main"]
        pack = k.layout.pack
        launch = k.client.launch
        g = (nblk, B, 1)
        if self.looped:
            launch(pipe, triples, pack(j=0, **words), g)
            return
        for d in range(kb + 1):
            launch(pipe, triples, pack(j=d, **words), g)


def variants():
    from ...codegen.types import WTYPES
    from .specs import FLOATS
    return [QrWideSpec(WTYPES[d], r, tr, rc) for d in FLOATS for r in (4, RPT, 64)
            for tr in (False, True) for rc in (False, True)]
