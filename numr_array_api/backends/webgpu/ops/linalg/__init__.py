"""The linalg extension on the GPU (eigen / singular-value functions: ops/linalg_spectral).

Drivers (host code choosing kernels and blocking; variants and sizes are tuning knobs,
numr_array_api/tuning/knobs/linalg.py):

mixin.py      the backend methods: cholesky, solve, inv, det, slogdet, qr (status word
              read once a call, recorded plans / recipes around the drivers)
batched.py    stacks of small matrices in one dispatch: the route of a stacked solve /
              inv / cholesky, the workgroup-per-matrix path (``small_path``, lu_solve_small,
              qr_small)
cholesky.py   blocked right-looking Cholesky (panel kernel + GEMM update)
lu.py         recursive LU with leaf interchanges, tournament-pivoting leaves, lu_solve
              (solve, inv), lu_diag (det, slogdet)
qr.py         blocked Householder QR (compact WY) and form_q
trsm.py       triangular solves: one dispatch, blocked, by inverted diagonal blocks
blas.py       GEMM updates into the working stack, row interchanges
dispatch.py   grids, the status word, panel workgroups, FactorSpec launches
plan.py       recorded plans: a blocked factorisation's dispatches captured once per shape
              and replayed
simple.py     cross, diagonal, trace, outer, vector_norm, matrix_norm, matrix_power from
              existing GPU ops

Kernels (specs; their WGSL in wgsl/):

specs.py      the factorisation kernel specs (panel_specs.py, triangular_specs.py,
              batch_specs.py, swap_specs.py, update_specs.py) and their ``variants()``
batch_rows.py BatchRowsSpec: a row of [A | B] per invocation (stacks up to 32 x 32)
warp.py       WarpSolveSpec, WarpCholSpec: a subgroup a matrix; the subgroup-size probe
warp_seg.py   segments of a subgroup for the warp kernels (S / w matrices a subgroup)
chol_regs.py  CholRegsSpec: the Cholesky panel with its columns in registers
tslu.py       TsluSpec, TsluApplySpec: tournament pivoting of tall LU leaves
qr_wide.py    QrWideSpec: a QR panel over many workgroups, a dispatch a column; WidePanel
qr_loop.py    QrLoopSpec: a QR panel in one workgroup's registers, a dispatch a panel
pow2.py       Pow2Spec: power-of-two scaling of matrices before the QR panels
scalar.py     per-dtype WGSL arithmetic (real / complex) the kernels are written over
"""

from .mixin import LinalgMixin
from .specs import variants

__all__ = ["LinalgMixin", "variants"]
