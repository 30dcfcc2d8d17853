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
combiner rescales, so squares neither overflow nor flush where FactorSpec "qr"'s did not.

Block 0 holds every diagonal row of the panel (NS * rpt >= 32 columns).
"""

from __future__ import annotations

import dataclasses

from .....tuning.registry import get as tuned
from ...codegen.layout import Buf, Layout
from ...codegen.spec import KernelSpec
from ...codegen.types import WType
from ...storage import new_output
from .scalar import prelude
from .wgsl import fragment, kernel

NCAP = 32        # widest panel (lanes of a 32-invocation slice: one a column)
NS = 8           # row slices of a 256-invocation workgroup
PW = NCAP + 1    # a block's partials: NCAP sums, then its scale
# rows per invocation (QR_WIDE_RPT; a block: NS * rpt rows): H100,
# 2026-11-26: qr 4096 float32 100 ms at 4, 102 at 8, 112 at 16,
# 145 at 32. Panel rows from which the wide panel is taken (QR_WIDE_MIN, 256): float64
# every panel above the looped ones' 128 rows (QR_WIDE_MIN_F64, 129; H100,
# 2026-11-28: qr 512 float64 5.70 / 5.75 ms against 6.05 / 6.01
# with the 160-224-row panels on FactorSpec; 1024 -2 %, 2048 -0.5 %)
NBLK_CAP = 256   # row blocks beyond which taller blocks are taken (up to 64 rows a thread):
                 # every workgroup reads every block's partials, nblk^2 PW values a dispatch

CALLS = {"panels": 0}   # tests read it: panels factored by this kernel

# 1 / s where the reciprocal is taken (|s| normal: finite), else 0: then sc / scr divide.
# A thread scales many values by one s: a multiply each instead of a division (a long
# instruction sequence in float64 on NVIDIA; H100, 2026-11-27:
# qr 512 float64 8.54 -> 7.98 ms, 2048 and float32 within 1 %)
HELPERS = """fn rq(s: R) -> R { ${rq_body} }
fn sc(x: T, s: R, is: R) -> T { if (is != R(0.0)) { return x * is; } return x / s; }
fn scr(x: R, s: R, is: R) -> R { if (is != R(0.0)) { return x * is; } return x / s; }"""


def panel_tokens(t, tk, ns, rpt, xd):
    """The tokens both panel kernels (wgsl/qr_wide.wgsl, wgsl/qr_loop.wgsl) share:
    ``helpers``; ``reflect`` (wgsl/qr_reflect.wgsl: the reflector of column q, from s
    (the largest scale), yc / yq (x^H p_c and x^H x over s), alpha (the diagonal entry) and
    pqc (row q's entry of column tid): beta, tau, conj(tau) w_c into cw, (x0 - beta, beta,
    house) into hv); ``partials`` (wgsl/qr_partials.wgsl: the partials of column d, its
    value on the thread's row t being ``xd``: rows i > d, scaled by the slice's largest
    |x_i|, then over the slices into yc and s); ``rpiv`` and ``quot`` (v's quotient by
    x0 - beta: a reciprocal for real types, dv's scaled division for complex ones)."""
    tiny = "2.2250738585072014e-308" if "f64" in t.val else "1.1754943508222875e-38"
    rq_body = f"if (abs(s) >= R({tiny})) {{ return R(1.0) / s; }} return R(0.0);"
    real = not t.val.startswith("vec2")
    return dict(helpers=HELPERS.replace("${rq_body}", rq_body),
                reflect=fragment("qr_reflect.wgsl").render(tk),
                partials=fragment("qr_partials.wgsl").render(rpt=rpt, ns=ns, ncap=NCAP,
                                                             xd=xd),
                rpiv="    rpiv = rq(piv);" if real else "",
                quot="sc(v, piv, rpiv)" if real else "dv(v, piv)")


@dataclasses.dataclass(frozen=True)
class QrWideSpec(KernelSpec):
    """One column of a Householder QR panel over (row blocks, matrices) workgroups
    (wgsl/qr_wide.wgsl)."""

    t: WType
    rpt: int = 4
    # trusted (compiled without wgpu's runtime checks, KernelSpec.runtime_checks):
    # workgroup indices are structural (tid < ns * NCAP, lane and q < NCAP since the host
    # keeps nc <= NCAP, sl < ns, rows r < ns rpt); loops are counted by constants or the uniform
    # nblk; global indices stay in the bound views (i < m, lane < nc, b < nbat, blocks <
    # the nblk PT was sized for: WidePanel)
    trusted: bool = False
    looped = False
    ns = NS   # row slices: a workgroup of ns * 32 invocations, a block of ns * rpt rows

    def layout(self, caps):
        return panel_layout(self.t, caps)

    def render(self, caps):
        tk = self.layout(caps).tokens()
        return kernel("qr_wide.wgsl").render(
            tk, panel_tokens(self.t, tk, self.ns, self.rpt, f"xd[sl + {self.ns}u * t]"),
            prelude=prelude(self.t), rows=self.rows, wg=self.ns * NCAP, ns=self.ns, ncap=NCAP,
            pw=PW, rpt=self.rpt)

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


def min_rows(client, t):
    """Panel rows of WType ``t`` from which the wide panel is taken: below, the
    one-workgroup panel walks few rows per column and saves kb dispatches
    (QR_WIDE_MIN_F64 for float64, else QR_WIDE_MIN)."""
    return tuned("QR_WIDE_MIN_F64" if t.val == "f64" else "QR_WIDE_MIN", client)


def spec(client, t, m):
    """The QrWideSpec of WType ``t`` for panels of up to ``m`` rows: QR_WIDE_RPT rows per
    thread, doubled while that leaves more than NBLK_CAP blocks."""
    rpt = tuned("QR_WIDE_RPT", client)
    while rpt < 64 and -(-m // (NS * rpt)) > NBLK_CAP:
        rpt = min(64, 2 * rpt)
    return QrWideSpec(t, rpt, tuned("LINALG_TRUSTED", client))


class WidePanel:
    """The wide panel's kernel and its exchange buffers for one qr call: PT sized for
    ``m`` rows (the first, tallest panel), DG for two diagonal rows."""

    def __init__(self, client, spec, dtype, B, m):
        self.min_rows = min_rows(client, spec.t)
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
    return [QrWideSpec(WTYPES[d], r, tr) for d in FLOATS for r in (4, 8, 64)
            for tr in (False, True)]
