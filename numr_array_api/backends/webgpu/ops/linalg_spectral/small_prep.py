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
plain path by more than steps 1-2. H100, 10000 x 32x32 (benchmarks/gpu/runs/2026-11-27-50.sh,
2026-11-27): 6.9 -> 4.8 ms (CuPy 5.5); the same steps through the generic batched GEMMs
(seven, 271 us each) and elementwise ops were slower than the plain kernel.

NUMR_WEBGPU_SMALL_SPECTRAL_PRE=0 / 1 forces it off / on (default: on GPUs, float64 eigh
with vectors in the 32 bucket, from PRE_MIN matrices).
"""

from __future__ import annotations

import dataclasses

from ....._core import dtypes as dt
from ...codegen.layout import Buf, Layout
from ...codegen.spec import KernelSpec
from ...codegen.template import Template
from ...runtime.adapters import is_cpu
from ...runtime.switches import switch

CAP = 32      # the bucket it serves (n in 17..32)
LD = CAP + 1  # workgroup row stride (a stride of 32 doubles put a column on one bank pair)

_HEAD = """${layout}
const C: u32 = ${cap}u;
const LD: u32 = ${ld}u;
var<workgroup> QW: array<f64, ${sz}>;    // Q, row-major
var<workgroup> EW: array<f64, ${sz}>;    // E = Q^T Q - I, later T = A Q
var<workgroup> MW: array<f64, ${sz}>;    // M = I - E / 2 + 3 E^2 / 8, later A

@compute @workgroup_size(${wg})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nw: vec3<u32>) {
  let n = ${n};
  let nb = ${nb};
  // rows r0 + ${step} i, columns c0 + ${step} j (i, j < ${tile}) of every product
  let r0 = lid / ${step}u;
  let c0 = lid % ${step}u;
  for (var b = wid.x + wid.y * nw.x; b < nb; b += nw.x * nw.y) {
    let mo = b * n * n;
    for (var e = lid; e < C * C; e += ${wg}u) {
      let i = e / C;
      let j = e % C;
      var q = 0.0lf;
      if (i < n && j < n) { q = f64(Q32[${Q32_off} + mo + i * n + j]); }
      QW[i * LD + j] = q;
    }
    workgroupBarrier();
"""

# A into MW once Q M is formed (three n x n arrays: lavapipe grants 32 KiB)
_LOAD_A = """    for (var e = lid; e < C * C; e += ${wg}u) {
      let i = e / C;
      let j = e % C;
      var a = 0.0lf;
      if (i < n && j < n) { a = A[${A_off} + mo + i * n + j]; }
      MW[i * LD + j] = a;
    }
    workgroupBarrier();"""

TILE = 2           # a TILE x TILE block of every product per invocation
STEP = CAP // TILE  # rows (columns) r0, r0 + STEP, ...: a warp's column loads hit
WG = STEP * STEP    # consecutive words (adjacent columns put two on one bank pair); H100:
                    # 4 x 4 blocks on 64 invocations took 1.71 ms for 10000 matrices, 2 x 2
                    # on 256 0.92 ms (adjacent columns)


def _rc(base, d):
    return base if d == 0 else f"({base} + {d * STEP}u)"


def _product(a, b, store, mid=""):
    """WGSL of this invocation's TILE x TILE block (rows r0 + STEP i, columns c0 + STEP j) of a product
    over k < n; ``a(i)`` / ``b(j)`` give the k-th factor entries of row i / column j,
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


def _source():
    def qt(i):     # (Q^T)[i, k]
        return f"QW[k * LD + {i}]"

    def qc(j):     # Q[k, j]
        return f"QW[k * LD + {j}]"

    def ident(i, j):
        return f"select(0.0lf, 1.0lf, {i} == {j})"

    def inside(i, j):
        return f"{i} < n && {j} < n"

    def glob(buf, i, j, s):
        return f"if ({inside(i, j)}) {{ {buf}[${{{buf}_off}} + mo + {i} * n + {j}] = {s}; }}"

    # E = Q^T Q - I on the n x n block (0 outside, so M is I there)
    gram = _product(qt, qc, lambda i, j, s: (
        f"EW[{i} * LD + {j}] = select(0.0lf, {s} - {ident(i, j)}, {inside(i, j)});"))
    m = _product(lambda i: f"EW[{i} * LD + k]", lambda j: f"EW[k * LD + {j}]",
                 lambda i, j, s: (f"MW[{i} * LD + {j}] = {ident(i, j)} - 0.5lf * "
                                  f"EW[{i} * LD + {j}] + 0.375lf * {s};"))
    # Q <- Q M: summed, then stored over Q once every invocation has read it
    qm = _product(lambda i: f"QW[{i} * LD + k]", lambda j: f"MW[k * LD + {j}]",
                  lambda i, j, s: f"QW[{i} * LD + {j}] = {s}; {glob('QO', i, j, s)}",
                  mid="workgroupBarrier();")
    t = _product(lambda i: f"MW[{i} * LD + k]", qc,
                 lambda i, j, s: f"EW[{i} * LD + {j}] = {s};")
    ap = _product(qt, lambda j: f"EW[k * LD + {j}]",
                  lambda i, j, s: glob("AP", i, j, s))
    return _HEAD + "\n".join([gram, m, qm, _LOAD_A, t, ap]) + "\n  }\n}\n"


@dataclasses.dataclass(frozen=True)
class PrepSpec(KernelSpec):
    """Per float64 matrix: Q (from Q32) made orthogonal, QO = Q and AP = Q^T A Q."""

    # trusted (compiled without wgpu's runtime checks, KernelSpec.runtime_checks): every
    # workgroup index is below C * LD (r0 + 16, c0 + 16 < 32 from lid < 256; i, j < C; k < n
    # <= C); global reads and writes sit under i, j < n for matrices b < nb; loops are
    # counted by the grid, C * C and n
    trusted: bool = True

    def needs(self):
        return ("f64",)

    def layout(self, caps):
        return Layout([Buf("Q32", "f32"), Buf("A", "f64"), Buf("AP", "f64", "rw"),
                       Buf("QO", "f64", "rw")], ["n", "nb"], caps)

    def render(self, caps):
        return Template(_source(), "small_prep").render(
            self.layout(caps).tokens(), cap=CAP, ld=LD, sz=CAP * LD, wg=WG, tile=TILE,
            step=STEP)


_CAST = Template("""${layout}
var<workgroup> red: array<f64, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nw: vec3<u32>) {
  let n = ${n};
  let nb = ${nb};
  let nn = n * n;
  for (var b = wid.x + wid.y * nw.x; b < nb; b += nw.x * nw.y) {
    let mo = b * nn;
    var q = 0.0lf;
    for (var e = lid; e < nn; e += 64u) { q = max(q, abs(A[${A_off} + mo + e])); }
    red[lid] = q;
    workgroupBarrier();
    for (var h = 32u; h > 0u; h >>= 1u) {
      if (lid < h) { red[lid] = max(red[lid], red[lid + h]); }
      workgroupBarrier();
    }
    q = red[0];
    workgroupBarrier();
    // a power of two bringing max |a| into [0.5, 1] (exact; the kernel rescales anyway)
    var sc = 1.0lf;
    for (var k = 0u; k < 40u && q > 4294967296.0lf; k++) { q *= 2.3283064365386963e-10lf; sc *= 2.3283064365386963e-10lf; }
    for (var k = 0u; k < 40u && q > 1.0lf; k++) { q *= 0.5lf; sc *= 0.5lf; }
    for (var k = 0u; k < 40u && q > 0.0lf && q < 2.3283064365386963e-10lf; k++) { q *= 4294967296.0lf; sc *= 4294967296.0lf; }
    for (var k = 0u; k < 40u && q > 0.0lf && q < 0.5lf; k++) { q *= 2.0lf; sc *= 2.0lf; }
    for (var e = lid; e < nn; e += 64u) { X32[${X32_off} + mo + e] = f32(A[${A_off} + mo + e] * sc); }
  }
}
""", "small_prep_cast")


@dataclasses.dataclass(frozen=True)
class ScaleCastSpec(KernelSpec):
    """Per float64 matrix: X32 = float32(A 2^e), max |A 2^e| in [0.5, 1] (the float32
    kernel's input; one dispatch for what copy, abs, max, scale and cast took six)."""

    # trusted (as PrepSpec): red indices < 64; global accesses below nn per matrix b < nb;
    # loops counted by the grid, nn, 32 halvings and 40
    trusted: bool = True

    def needs(self):
        return ("f64",)

    def layout(self, caps):
        return Layout([Buf("A", "f64"), Buf("X32", "f32", "rw")], ["n", "nb"], caps)

    def render(self, caps):
        return _CAST.render(self.layout(caps).tokens())


PRE_MIN = 4096   # matrices from which it pays (H100: 1000 x 32x32 2.0 ms against 1.6)


def applies(client, wdt, cap, nb):
    v = (switch("SMALL_SPECTRAL_PRE") or "").strip()
    if wdt is not dt.float64 or cap != CAP:
        return False
    if v in ("0", "1"):
        return v == "1"
    return nb >= PRE_MIN and not is_cpu(client.info)
