"""The blocked Cholesky's panel with its columns in registers (wgsl/chol_regs.wgsl).

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
as CholPanelSpec (its ``layout``), which cholesky.py takes where this one does not fit.
"""

from __future__ import annotations

import dataclasses

from ...codegen.template import Template
from ...codegen.types import WTYPES
from ...codegen.wgmem import spec_fits
from .scalar import prelude, real_of
from .specs import CHOL_HEAD, FLOATS, CholPanelSpec
from .wgsl import kernel


@dataclasses.dataclass(frozen=True)
class CholRegsSpec(CholPanelSpec):
    """CholPanelSpec's step (its bindings and outputs) with the columns in registers: see
    the module. ``tr`` rows of A21 per workgroup (a multiple of wg / nb).
    trusted: every workgroup-memory index is structural (colx: parity * (nb + tr) plus a
    row < nb + tr or a column < nb; dg: a column < nb or j < kb <= nb, the caller's panel
    width), private rows are named variables, and the global indices are CholPanelSpec's;
    every loop is counted by kb, nb, tr or the workgroup size."""

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
        for k in range(kt):
            i = f"ra{k}"
            reg(f"xa{k}", i, f"{nb}u + {i}", f"r0 + {i} < m2 && c < kb", f"(kb + r0 + {i})")
            pt = f"Pt[{tk['Pt_off']} + b * {tk['p_bs']} + c * m2 + r0 + {i}] = cj(v);"
            rows += [f"  if (r0 + {i} < m2 && c < kb) {{",
                     f"    let v = xa{k} * rs;",
                     f"    A[base + (kb + r0 + {i}) * {a_rs} + c * {a_cs}] = v;",
                     f"    Nn[{tk['Nn_off']} + b * {tk['n_bs']} + (r0 + {i}) * kb + c] = -v;",
                     f"    {pt}",
                     "  }"]
        head = Template(CHOL_HEAD.removesuffix("\n"), "CHOL_HEAD").render(tk)
        return kernel("chol_regs.wgsl").render(
            tk, prelude=prelude(self.t), head=head, wg=self.wg, nb=nb, tr=tr, nr=nb + tr,
            ncol=2 * (nb + tr), load="\n".join(load), update="\n".join(update),
            publish="\n".join(publish), diag="\n".join(diag), rows="\n".join(rows))

    def shared_bytes(self):
        real = 8 if real_of(self.t) == "f64" else 4
        return 2 * (self.nb + self.tr) * self.t.itemsize + self.nb * real + 64


def regs_spec(t, nb, wg, tr, caps, trusted):
    """The register panel for panel width ``nb``, at most ``wg`` invocations and about
    ``tr`` rows a workgroup (rounded up to a multiple of wg / nb); None where it does not
    fit the adapter (cholesky.py then takes CholPanelSpec)."""
    wg = min(wg, nb * nb)
    if wg < nb or wg % nb:
        return None
    g = wg // nb
    tr = -(-max(tr, 1) // g) * g
    spec = CholRegsSpec(t, nb, wg, tr, trusted)
    return spec if spec_fits(spec, caps) else None


def variants():
    out = []
    for d in FLOATS:
        t = WTYPES[d]
        for nb, wg, tr in ((64, 512, 32), (64, 512, 64), (64, 256, 32), (32, 512, 32),
                           (64, 1024, 64), (8, 64, 8)):
            out.append(CholRegsSpec(t, nb, wg, tr, True))
    return out
