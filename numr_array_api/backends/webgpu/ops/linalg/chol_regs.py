"""The blocked Cholesky's panel with its columns in registers (NUMR_WEBGPU_CHOL_PANEL=regs).

CholPanelSpec factorises the diagonal block with three barriers and a serial square root a
column, then solves the rows below it in 64 more barrier steps: on an H100 the panel is
latency bound (80 us float32, 110 us float64 a 64-column step, 78% of cholesky 512).
CholRegsSpec does both in one loop of one barrier a column. X is the (nb + tr) x nb matrix
of the diagonal block's lower triangle over this workgroup's tr rows of A21, updated
right-looking without scaling (the LDL^H form): at column j, with d = re(X[j][j]),

    X[r][c] -= (X[r][j] / sqrt(d)) * (conj(X[c][j]) / sqrt(d))        for every c > j,

after which column c of X is column c of [L11; L21] times sqrt(d_c): the factor is one
product per element at the end. Both factors are taken at the factor's magnitude (times
1 / sqrt(d), one division a column): no product of two entries of A, and no division by
d, which NVIDIA's reciprocal-based division gets wrong beyond 2^126. Only the lower
triangle is ever read (X[r][c] with r >= c > j reads X[r][j] and X[c][j], both below the
diagonal), so the upper one is updated freely as garbage and never written.

An invocation owns column c = tid % nb and the rows g + G k (g = tid / nb, G = wg / nb) of
the diagonal block (k < nb / G) and of the row tile (k < tr / G), each a named private
variable (unrolled here, so they stay registers). Column j + 1 goes to workgroup memory
from its owners as soon as iteration j has updated it, double-buffered by parity, so one
barrier separates the columns. Same bindings, outputs, status bit and D / o / par protocol
as CholPanelSpec (its ``layout``), which factor.py takes where this one does not fit.
"""

from __future__ import annotations

import dataclasses

from ....._core import dtypes as dt
from ...codegen.template import Template
from ...codegen.types import WTYPES
from ...codegen.wgmem import spec_fits
from .scalar import prelude, real_of
from .specs import CHOL_HEAD, FLOATS, CholPanelSpec

_REGS = Template("""${prelude}
${layout}
// column j of X: rows 0..nb-1 the diagonal block, nb..nb+tr-1 the row tile; by parity
var<workgroup> colx: array<T, ${ncol}>;
var<workgroup> dg: array<R, ${nb}>;
${stagevar}

@compute @workgroup_size(${wg})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>,
        @builtin(local_invocation_index) tid: u32) {
""" + CHOL_HEAD + """  let r0 = blk * ${tr}u;
  let c = tid % ${nb}u;
  let g0 = tid / ${nb}u;
  // the previous step's factor (o x o, in D[1 - par]) goes to its place in A now: no
  // workgroup of that step could write A11 while others still read it
  if (blk == 0u && o > 0u) {
    let src = db + (1u - ${par}) * ${nb}u * ${nb}u;
    for (var e = tid; e < ${nb}u * ${nb}u; e += ${wg}u) {
      let i = e / ${nb}u;
      let j = e % ${nb}u;
      if (i < o && j <= i) { A[pbase + i * ${a_rs} + j * ${a_cs}] = D[src + i * o + j]; }
    }
  }
${load}
  workgroupBarrier();
  for (var j = 0u; j < kb; j++) {
    let p = (j & 1u) * ${nr}u;
    let d = re(colx[p + j]);
    if (tid == 0u) {
      dg[j] = d;
      if (!(d > R(0.0)) && blk == 0u) { atomicOr(&st[0], 1u); }
    }
    if (c > j) {
      // both sides scaled by 1 / sqrt(d), never divided by d: NVIDIA divides through the
      // reciprocal, which flushes to zero for |d| > 2^126 (float32 pivots of ~1e38: 6 %
      // error on the H100), and 1 / d itself would; sqrt(d) stays far inside the range
      let is = R(1.0) / sqrt(d);
      let f = cj(colx[p + c]) * is;
${update}
      if (c == j + 1u) {
        let q = ${nr}u - p;
${publish}
      }
    }
    workgroupBarrier();
  }
  let s = sqrt(select(R(1.0), dg[c], c < kb));
  // one division an invocation, not one an element (f64 division is long on GPUs)
  let rs = R(1.0) / s;
  if (blk == 0u) {
    let dst = db + ${par} * ${nb}u * ${nb}u;
${diag}
  }
${rows}
}
""", "linalg_chol_regs")

_STAGED_PT = """  workgroupBarrier();
  // Pt (kb, m2) from the tile, rows of the tile fastest: coalesced
  let nr = min(${tr}u, m2 - min(m2, r0));
  for (var e = tid; e < ${tr}u * ${nb}u; e += ${wg}u) {
    let j = e / ${tr}u;
    let i = e % ${tr}u;
    if (i < nr && j < kb) { Pt[${Pt_off} + b * ${p_bs} + j * m2 + r0 + i] = xt[i * ${nbp}u + j]; }
  }"""


@dataclasses.dataclass(frozen=True)
class CholRegsSpec(CholPanelSpec):
    """CholPanelSpec's step (its bindings and outputs) with the columns in registers: see
    the module. ``tr`` rows of A21 per workgroup (a multiple of wg / nb); ``stage``: Pt
    leaves through a tile in workgroup memory (coalesced) instead of from registers.
    trusted: every workgroup-memory index is structural (colx: parity * (nb + tr) plus a
    row < nb + tr or a column < nb; dg: a column < nb or j < kb <= nb, the caller's panel
    width; xt: i < tr, j < nb), private rows are named variables, and the global indices
    are CholPanelSpec's; every loop is counted by kb, nb, tr or the workgroup size."""

    stage: bool = False

    def __post_init__(self):
        g = self.wg // self.nb if self.nb else 0
        if not (g and self.wg % self.nb == 0 and g <= self.nb and self.tr > 0
                and self.tr % g == 0):
            raise ValueError(f"CholRegsSpec: wg {self.wg} nb {self.nb} tr {self.tr}")

    def render(self, caps):
        tk = self.layout(caps).tokens()
        nb, tr, G = self.nb, self.tr, self.wg // self.nb
        kd, kt = nb // G, tr // G
        a_rs, a_cs = tk["a_rs"], tk["a_cs"]
        load, update, publish, diag, rows = [], [], [], [], []

        def reg(x, row, slot, ok, arow):
            # private row ``x`` (X's row ``slot``): its load, update and publication
            load.extend([f"  let {row} = g0 + {G * int(x[2:])}u;", f"  var {x} = zero();",
                         f"  if ({ok}) {{ {x} = A[base + {arow} * {a_rs} + c * {a_cs}]; }}",
                         f"  if (c == 0u) {{ colx[{slot}] = {x}; }}"])
            update.append(f"      {x} -= mul(colx[p + {slot}] * is, f);")
            publish.append(f"        colx[q + {slot}] = {x};")

        for k in range(kd):
            r = f"rd{k}"
            reg(f"xd{k}", r, r, f"{r} < kb && c <= {r}", r)
            diag += [f"    if ({r} < kb && c <= {r}) {{",
                     f"      var v = of_re(s);",
                     f"      if (c < {r}) {{ v = xd{k} * rs; }}",
                     f"      if (nblk == 1u) {{ A[base + {r} * {a_rs} + c * {a_cs}] = v; }}",
                     f"      else {{ D[dst + {r} * kb + c] = v; }}",
                     "    }"]
        stage = self.stage
        for k in range(kt):
            i = f"ra{k}"
            reg(f"xa{k}", i, f"{nb}u + {i}", f"r0 + {i} < m2 && c < kb", f"(kb + r0 + {i})")
            pt = (f"xt[{i} * {nb + 1}u + c] = cj(v);" if stage else
                  f"Pt[{tk['Pt_off']} + b * {tk['p_bs']} + c * m2 + r0 + {i}] = cj(v);")
            rows += [f"  if (r0 + {i} < m2 && c < kb) {{",
                     f"    let v = xa{k} * rs;",
                     f"    A[base + (kb + r0 + {i}) * {a_rs} + c * {a_cs}] = v;",
                     f"    Nn[{tk['Nn_off']} + b * {tk['n_bs']} + (r0 + {i}) * kb + c] = -v;",
                     f"    {pt}",
                     "  }"]
        if stage:
            rows.append(_STAGED_PT.replace("${tr}", str(tr)).replace("${nb}", str(nb))
                        .replace("${wg}", str(self.wg)).replace("${nbp}", str(nb + 1))
                        .replace("${Pt_off}", tk["Pt_off"]).replace("${p_bs}", tk["p_bs"]))
        stagevar = f"var<workgroup> xt: array<T, {tr * (nb + 1)}>;" if stage else ""
        return _REGS.render(tk, prelude=prelude(self.t), wg=self.wg, nb=nb, tr=tr,
                            nr=nb + tr, ncol=2 * (nb + tr), stagevar=stagevar,
                            load="\n".join(load), update="\n".join(update),
                            publish="\n".join(publish), diag="\n".join(diag),
                            rows="\n".join(rows))

    def shared_bytes(self):
        real = 8 if real_of(self.t) == "f64" else 4
        tile = self.tr * (self.nb + 1) if self.stage else 0
        return (2 * (self.nb + self.tr) + tile) * self.t.itemsize + self.nb * real + 64


def regs_spec(t, nb, wg, tr, caps, trusted, stage=True):
    """The register panel for panel width ``nb``, at most ``wg`` invocations and about
    ``tr`` rows a workgroup (rounded up to a multiple of wg / nb), with the staged Pt where
    it fits (and ``stage``); None where no variant fits the adapter (factor.py then takes
    CholPanelSpec)."""
    wg = min(wg, nb * nb)
    if wg < nb or wg % nb:
        return None
    g = wg // nb
    tr = -(-max(tr, 1) // g) * g
    for stage in (True, False) if stage else (False,):
        spec = CholRegsSpec(t, nb, wg, tr, trusted, stage)
        if spec_fits(spec, caps):
            return spec
    return None


def variants():
    out = []
    for d in FLOATS:
        t = WTYPES[d]
        for nb, wg, tr in ((64, 512, 32), (64, 512, 64), (64, 256, 32), (32, 512, 32),
                           (64, 1024, 64), (8, 64, 8)):
            for stage in (False, True):
                if d is dt.complex128 and stage and tr > 32:
                    continue
                out.append(CholRegsSpec(t, nb, wg, tr, True, stage))
    return out
