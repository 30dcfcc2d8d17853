"""Tuning knobs of the linalg family (see numr_array_api.tuning.registry): the WebGPU
factorisations of backends/webgpu/ops/linalg (cholesky, solve, inv, det, slogdet, qr).

Stacks of small matrices take one dispatch (one invocation, a row per invocation, a
subgroup or a segment of one per matrix: the B* knobs); larger ones are blocked (panel
kernels plus the tiled GEMM: CHOL_*, LU_*, TRSM_*, QR_*). Where a default differs by
element type the knob is split (``_F32`` / ``_F64``: that type; the plain name: the
others). The measurements behind the defaults are in the drivers' comments, each naming
its benchmark run.
"""

from ..registry import Knob, declare

FAMILY = "linalg"

declare(
    # ---- whole calls ----------------------------------------------------------------------
    Knob("LINALG_PLAN", bool, True,
         "record a blocked factorisation's dispatches once per shape and replay them "
         "(ops/linalg/plan.py); off: every call records afresh", FAMILY, tunable=False),
    Knob("LINALG_TRUSTED", bool, True,
         "compile the linalg kernels whose indices are structural (TrsmTileSpec, the "
         "register Cholesky panel, the tournament LU kernels, the wide QR panels) without "
         "wgpu's runtime bounds checks; off: checked, to rule the checks out when a kernel "
         "misbehaves", FAMILY, tunable=False),
    # ---- stacks of small matrices: one dispatch ----------------------------------------------
    Knob("BTINY_N_F32", int, 16,
         "float32 solve / inv systems up to this n take one invocation a matrix "
         "(BatchTinySpec, [A | B] in registers; 0: never)", FAMILY,
         choices=(8, 16), lo=0, hi=16),
    Knob("BTINY_N", int, 8,
         "as BTINY_N_F32 for float64 and complex types (twice the registers a value)",
         FAMILY, choices=(4, 8), lo=0, hi=16),
    Knob("BROWS", bool, True,
         "solve / inv of up to 32 x 32 by a row of [A | B] per invocation (BatchRowsSpec) "
         "where it stays within 72 registers a row", FAMILY),
    Knob("BSOLVE_MAX", int, 16,
         "largest matrices (4, 8, 16 or 32 rows) the workgroup-memory stacked solve "
         "(BatchSolveSpec) takes; beyond, one workgroup a matrix (FactorSpec 'lus')",
         FAMILY, choices=(16, 32), lo=0, hi=32),
    Knob("BWARP", bool, True,
         "solve / inv / cholesky of small real stacks on one subgroup (or a segment of "
         "one) a matrix where the adapter runs one fixed subgroup size (warp.py)", FAMILY),
    Knob("BWARP_S", int, 0,
         "the subgroup size the warp kernels are compiled for (0: the adapter's, probed "
         "once); a wrong size shows the kernels' rerun on the workgroup kernels",
         FAMILY, lo=0, hi=128, tunable=False),
    Knob("BWARP_MIN", int, 0,
         "smallest n of the warp solve / inv (0: one past the one-invocation kernel's "
         "BTINY_N, and BWARP_INV_MIN for inv)", FAMILY, lo=0, hi=32, tunable=False),
    Knob("BWARP_MAX", int, 32,
         "largest n of the warp solve / inv (also at most the subgroup size)", FAMILY,
         lo=1, hi=32, tunable=False),
    Knob("BWARP_INV_MIN", int, 2,
         "smallest n of the warp inv while BWARP_MIN is 0 (the one-invocation kernel holds "
         "2 n^2 values of inv in one thread's registers)", FAMILY,
         choices=(2, 9), lo=2, hi=32),
    Knob("BWARP_CHOL_MIN", int, 2, "smallest n of the warp cholesky", FAMILY,
         lo=1, hi=32, tunable=False),
    Knob("BWARP_CHOL_MAX", int, 32,
         "largest n of the warp cholesky (also at most the subgroup size)", FAMILY,
         choices=(16, 32), lo=1, hi=32),
    Knob("BWARP_WG", int, 128,
         "invocations of a warp kernel's workgroup (at least one subgroup)", FAMILY,
         choices=(64, 128, 256), lo=1, hi=1024),
    Knob("BWARP_STAGE_MIN", int, 16,
         "float32 warp cholesky of at least this n moves its matrices through workgroup "
         "memory (coalesced loads and stores; 0: never)", FAMILY,
         choices=(0, 8, 16), lo=0, hi=33),
    Knob("BWARP_SEG", bool, True,
         "solve / inv of 2 <= n <= BTINY_N on segments of a subgroup (S / w matrices a "
         "subgroup, warp_seg.py) instead of one invocation a matrix", FAMILY),
    Knob("BWARP_SEG_MIN", int, 2, "smallest n the segments take", FAMILY,
         lo=1, hi=32, tunable=False),
    Knob("BWARP_SEG_MAX", int, 0,
         "largest n the segments take (0: BTINY_N of the element type)", FAMILY,
         lo=0, hi=32, tunable=False),
    Knob("BWARP_SSTAGE_MIN", int, 5,
         "solve / inv with as many right-hand sides as rows (k = n) on segments of at "
         "least this n move A and X through workgroup memory (0: never)", FAMILY,
         choices=(0, 5, 9), lo=0, hi=33),
    # ---- blocked factorisations ---------------------------------------------------------------
    Knob("PANEL_WG", int, 1024,
         "invocations of a global-memory panel workgroup (FactorSpec panels, the LU "
         "leaves; halved while its reduction slots overflow workgroup memory)", FAMILY,
         choices=(256, 512, 1024), lo=16, hi=1024),
    Knob("CHOL_NB", int, 64,
         "the blocked cholesky's diagonal block (halved until its packed triangle fits "
         "workgroup memory)", FAMILY, choices=(32, 64), lo=8, hi=128),
    Knob("CHOL_WG", int, 512,
         "invocations of the register Cholesky panel (CholRegsSpec)", FAMILY,
         choices=(256, 512, 1024), lo=16, hi=1024),
    Knob("CHOL_PANEL_WG", int, 512,
         "invocations of the global-memory Cholesky panel (CholPanelSpec, taken where the "
         "register panel does not fit)", FAMILY, choices=(256, 512, 1024), lo=16, hi=1024),
    Knob("CHOL_TR", int, 32,
         "rows below the diagonal block a register-panel workgroup takes", FAMILY,
         choices=(16, 32, 64), lo=1, hi=256),
    Knob("CHOL_SPLIT", int, 2,
         "column pieces of the blocked cholesky's trailing GEMM update (its lower part "
         "only)", FAMILY, choices=(1, 2, 4), lo=1, hi=16),
    Knob("LU_LEAF", int, 16,
         "widest column block the recursive LU factorises in one panel kernel (recursion "
         "below it)", FAMILY, choices=(16, 32), lo=1, hi=32),
    Knob("LU_LEAF_SG", bool, True,
         "the LU leaf's pivot search by subgroup operations where the adapter has them "
         "(off: a log2(wg)-barrier tree)", FAMILY),
    Knob("LU_TRSM_MIN", int, 128,
         "left halves of a recursion node from which U12 is solved by inverted diagonal "
         "blocks and GEMMs (below: TrsmSpec blocks)", FAMILY,
         choices=(64, 128, 256), lo=1),
    Knob("LU_TSLU", int, 16,
         "LU leaves of more rows take tournament pivoting over many workgroups (tslu.py; "
         "0: never)", FAMILY, choices=(0, 16, 512), lo=0),
    Knob("LU_SG", bool, True,
         "the tournament kernels' pivot search by subgroup operations where the adapter "
         "has them (off: a barrier tree)", FAMILY),
    Knob("LU_TSLU_WG", int, 256,
         "invocations of a tournament candidate block (smaller: more blocks, more "
         "candidates)", FAMILY, choices=(64, 128, 256), lo=64, hi=256),
    Knob("LU_TSLU_RC", int, 1,
         "at least this many rows a thread in the tournament's candidate round", FAMILY,
         choices=(1, 2, 4), lo=1, hi=4),
    Knob("LU_TSLU_RF", int, 1,
         "at least this many rows a thread in the tournament's final round", FAMILY,
         choices=(1, 2, 4), lo=1, hi=4),
    Knob("LU_TSLU_SOLO", int, 1024,
         "tournament leaves of at most this many rows (and 4 per thread) are one block "
         "whose partial pivoting is the leaf's: no final round (0: never)", FAMILY,
         choices=(0, 256, 1024), lo=0),
    Knob("TRSM_NB", int, 64,
         "diagonal block of the blocked triangular solve (TrsmSpec blocks, GEMM between)",
         FAMILY, choices=(32, 64, 128), lo=1, hi=128),
    Knob("TRSM_INV_NB", int, 64,
         "diagonal block of the solve by inverted blocks (lu_solve, LU nodes)", FAMILY,
         choices=(32, 64), lo=8, hi=64),
    Knob("QR_WIDE_MIN", int, 256,
         "panel rows from which a QR panel spreads over many workgroups (qr_wide.py, a "
         "dispatch a column); float32 and complex", FAMILY,
         choices=(128, 256, 512), lo=1, hi=1 << 30),
    Knob("QR_WIDE_MIN_F64", int, 129, "QR_WIDE_MIN for float64", FAMILY,
         choices=(129, 256, 512), lo=1, hi=1 << 30),
    Knob("QR_WIDE_RPT", int, 4,
         "rows per invocation of the wide QR panel (doubled while more than 256 row "
         "blocks remain)", FAMILY, choices=(4, 8, 16), lo=4, hi=64),
    Knob("QR_LOOP_MAX_F32", int, 512,
         "float32 QR panels of at most this many rows walk their columns in one "
         "workgroup's registers, one dispatch a panel (qr_loop.py; 0: never)", FAMILY,
         choices=(0, 128, 256, 512), lo=0, hi=2048),
    Knob("QR_LOOP_MAX", int, 128, "QR_LOOP_MAX_F32 for the other element types", FAMILY,
         choices=(0, 128, 256), lo=0, hi=2048),
    Knob("QR_LOOP_NS_F32", int, 32,
         "row slices of 32 invocations in the float32 looped QR panel", FAMILY,
         choices=(8, 16, 32), lo=8, hi=32),
    Knob("QR_LOOP_NS", int, 16, "QR_LOOP_NS_F32 for the other element types", FAMILY,
         choices=(8, 16, 32), lo=8, hi=32),
)


def workloads(xp, quick):
    """cholesky, solve, inv and qr of one blocked matrix each, and solve / inv /
    cholesky of stacks of small ones (the one-dispatch kernels)."""
    import numpy as np
    rng = np.random.default_rng(0)
    n, B = (96, 64) if quick else (2048, 10000)

    def arr(shape):
        return rng.standard_normal(shape).astype("float32")

    # well conditioned (eigenvalues within 1 of 2): the choices' results agree closely
    a = (arr((n, n)) / np.sqrt(n) + 2 * np.eye(n)).astype("float32")
    b = arr((n, 4))
    s = a @ a.T
    t, rhs = arr((B, 8, 8)), arr((B, 8, 1))
    u = arr((B, 24, 24))
    sp = np.einsum("bij,bkj->bik", u, u) + 24 * np.eye(24, dtype="float32")
    ga, gb, gs = xp.asarray(a), xp.asarray(b), xp.asarray(s)
    gt, gr, gu, gsp = xp.asarray(t), xp.asarray(rhs), xp.asarray(u), xp.asarray(sp)
    return [(f"cholesky float32 {n}", lambda: xp.linalg.cholesky(gs)),
            (f"solve float32 {n}", lambda: xp.linalg.solve(ga, gb)),
            (f"inv float32 {n}", lambda: xp.linalg.inv(ga)),
            (f"qr float32 {n}", lambda: xp.linalg.qr(ga)),
            (f"solve float32 {B} x 8x8", lambda: xp.linalg.solve(gt, gr)),
            (f"inv float32 {B} x 24x24", lambda: xp.linalg.inv(gu)),
            (f"cholesky float32 {B} x 24x24", lambda: xp.linalg.cholesky(gsp))]
