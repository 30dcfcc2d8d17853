"""float64 eigh of stacks of 17..32-row matrices, preconditioned by float32 Jacobi.

The float64 Jacobi kernel (small_eigh.wgsl) is bound by its arithmetic and workgroup
traffic per round, and a random 32 x 32 matrix takes it 7-8 sweeps (H100: 6.7 ms for
10000 matrices, CuPy's syevjBatched 5.5). Its float32 twin runs the same sweeps ~4x faster,
and its eigenvectors Q32 leave an off-diagonal part of ~eps32 ||A||, from which Jacobi
converges quadratically: 2 float64 sweeps. So:

1. Q32: the float32 kernel on the matrices scaled by a power of two into float32's range
   (ScaleCastSpec, one dispatch);
2. one PrepSpec dispatch, a workgroup a matrix in workgroup memory: Q = Q32 made orthogonal
   in float64 (E = Q^T Q - I, Q <- Q (I - E / 2 + 3 E^2 / 8): the departure from
   orthogonality goes from ~1e-6 to O(|E|^3), below eps), then A' = Q^T A Q;
3. the float64 kernel on A' with its eigenvector rows starting from Q's (SmallEighSpec
   ``vinit``), so it returns Q V'.

Eigenvalues are those of Q^T A Q, a similarity to rounding. A cluster of close eigenvalues
is not separated by Q32 (its block still takes the full sweeps): never slower than the
plain path by more than steps 1-2. H100, 10000 x 32x32 (2026-11-27,
2026-11-27): 6.9 -> 4.8 ms (CuPy 5.5); the same steps through the generic batched GEMMs
(seven, 271 us each) and elementwise ops were slower than the plain kernel.

Taken for float64 eigh with vectors in the 32 bucket, from SMALL_SPECTRAL_PRE_MIN matrices
(a knob), where the SMALL_SPECTRAL_PRE knob is on (not on CPU adapters:
tuning/tables/cpu-spectral.json). The kernels' WGSL: small_prep.wgsl (the products
generated here, unrolled over TILE x TILE blocks), small_prep_cast.wgsl.
"""

from __future__ import annotations

import dataclasses

from ....._core import dtypes as dt
from ...codegen.layout import Buf, Layout
from ...codegen.spec import KernelSpec
from ...codegen.template import Template
from .....tuning.registry import get as tuned

CAP = 32      # the bucket it serves (n in 17..32)
LD = CAP + 1  # workgroup row stride (a stride of 32 doubles put a column on one bank pair)

TILE = 2           # a TILE x TILE block of every product per invocation
STEP = CAP // TILE  # rows (columns) r0, r0 + STEP, ...: a warp's column loads hit
WG = STEP * STEP    # consecutive words (adjacent columns put two on one bank pair); H100:
                    # 4 x 4 blocks on 64 invocations took 1.71 ms for 10000 matrices, 2 x 2
                    # on 256 0.92 ms (adjacent columns)


def _rc(base, d):
    return base if d == 0 else f"({base} + {d * STEP}u)"


def _product(a, b, store, mid=""):
    """WGSL of this invocation's TILE x TILE block (rows r0 + STEP i, columns c0 + STEP j)
    of a product over k < n; ``a(i)`` / ``b(j)`` give the k-th factor entries of row i / column j,
    ``store(i, j, s)`` the statement for the block's entry s; ``mid`` runs between the
    sums and the stores."""
    rng = range(TILE)
    lines = ["    {"] + [f"      var s{i}{j} = 0.0lf;" for i in rng for j in rng]
    lines.append("      for (var k = 0u; k < n; k++) {")
    lines += [f"        let a{i} = {a(_rc('r0', i))};" for i in rng]
    lines += [f"        let b{j} = {b(_rc('c0', j))};" for j in rng]
    lines += [f"        s{i}{j} += a{i} * b{j};" for i in rng for j in rng]
    lines.append("      }")
    if mid:
        lines.append("      " + mid)
    lines += ["      " + store(_rc("r0", i), _rc("c0", j), f"s{i}{j}") for i in rng for j in rng]
    lines += ["    }", "    workgroupBarrier();"]
    return "\n".join(lines)


def _products(tok):
    """The token values of small_prep.wgsl's products (``tok``: the layout's tokens)."""
    def qt(i):     # (Q^T)[i, k]
        return f"QW[k * LD + {i}]"

    def qc(j):     # Q[k, j]
        return f"QW[k * LD + {j}]"

    def ident(i, j):
        return f"select(0.0lf, 1.0lf, {i} == {j})"

    def inside(i, j):
        return f"{i} < n && {j} < n"

    def glob(buf, i, j, s):
        off = tok[buf + "_off"]
        return f"if ({inside(i, j)}) {{ {buf}[{off} + mo + {i} * n + {j}] = {s}; }}"

    # E = Q^T Q - I on the n x n block (0 outside, so M is I there)
    gram = _product(qt, qc, lambda i, j, s: (
        f"EW[{i} * LD + {j}] = select(0.0lf, {s} - {ident(i, j)}, {inside(i, j)});"))
    poly = _product(lambda i: f"EW[{i} * LD + k]", lambda j: f"EW[k * LD + {j}]",
                    lambda i, j, s: (f"MW[{i} * LD + {j}] = {ident(i, j)} - 0.5lf * "
                                     f"EW[{i} * LD + {j}] + 0.375lf * {s};"))
    # Q <- Q M: summed, then stored over Q once every invocation has read it
    qm = _product(lambda i: f"QW[{i} * LD + k]", lambda j: f"MW[k * LD + {j}]",
                  lambda i, j, s: f"QW[{i} * LD + {j}] = {s}; {glob('QO', i, j, s)}",
                  mid="workgroupBarrier();")
    # then A is loaded into MW (three n x n arrays: lavapipe grants 32 KiB), T = A Q into EW
    aq = _product(lambda i: f"MW[{i} * LD + k]", qc,
                  lambda i, j, s: f"EW[{i} * LD + {j}] = {s};")
    qtaq = _product(qt, lambda j: f"EW[k * LD + {j}]",
                    lambda i, j, s: glob("AP", i, j, s))
    return dict(gram=gram, poly=poly, qm=qm, aq=aq, qtaq=qtaq)


@dataclasses.dataclass(frozen=True)
class PrepSpec(KernelSpec):
    """Per float64 matrix: Q (from Q32) made orthogonal, QO = Q and AP = Q^T A Q."""

    # compiled without wgpu's runtime checks (KernelSpec.runtime_checks): every workgroup
    # index is below C * LD (r0 + 16, c0 + 16 < 32 from lid < 256; i, j < C; k < n <= C);
    # global reads and writes sit under i, j < n for matrices b < nb; loops are counted by
    # the grid, C * C and n
    trusted = True

    def needs(self):
        return ("f64",)

    def layout(self, caps):
        return Layout([Buf("Q32", "f32"), Buf("A", "f64"), Buf("AP", "f64", "rw"),
                       Buf("QO", "f64", "rw")], ["n", "nb"], caps)

    def render(self, caps):
        tok = self.layout(caps).tokens()
        return Template.file(__package__, "small_prep.wgsl").render(
            tok, cap=CAP, ld=LD, sz=CAP * LD, wg=WG, tile=TILE, step=STEP, **_products(tok))


@dataclasses.dataclass(frozen=True)
class ScaleCastSpec(KernelSpec):
    """Per float64 matrix: X32 = float32(A 2^e), max |A 2^e| in [0.5, 1] (the float32
    kernel's input; one dispatch for what copy, abs, max, scale and cast took six)."""

    # compiled without wgpu's runtime checks (as PrepSpec): red indices < 64; global
    # accesses below nn per matrix b < nb; loops counted by the grid, nn, 32 halvings and 40
    trusted = True

    def needs(self):
        return ("f64",)

    def layout(self, caps):
        return Layout([Buf("A", "f64"), Buf("X32", "f32", "rw")], ["n", "nb"], caps)

    def render(self, caps):
        return Template.file(__package__, "small_prep_cast.wgsl").render(
            self.layout(caps).tokens())


def applies(client, wdt, cap, nb):
    """Whether float64 eigh of ``nb`` matrices in bucket ``cap`` takes the preconditioner."""
    if wdt is not dt.float64 or cap != CAP:
        return False
    return tuned("SMALL_SPECTRAL_PRE", client) and \
        nb >= tuned("SMALL_SPECTRAL_PRE_MIN", client)
