"""Tuning knobs of the spectral family (see numr_array_api.tuning.registry): eigh / eigvalsh,
svd / svdvals on the GPU (backends/webgpu/ops/linalg_spectral)."""

from ..registry import Knob, declare

FAMILY = "spectral"

declare(
    # ---- which path a call takes
    Knob("SPECTRAL_F32", str, "f64",
         "32-bit (and float16) eigh / svd on the Jacobi paths: 'f64' computes them in float64 "
         "where the adapter grants shader-f64 (vectors orthogonal to ~eps, as LAPACK's), "
         "'f32' in their own width (the path of adapters without float64)",
         FAMILY, choices=("f64", "f32"), tunable=False),
    Knob("EIGH_TRIDIAG_MIN", int, 65,
         "n from which real eigh / eigvalsh take the tridiagonal path (below: Jacobi)",
         FAMILY, choices=(33, 65, 129), lo=2),
    Knob("SVD_AUG_MIN", int, 64,
         "min(M, N) from which real svd / svdvals take the augmented-matrix path through the "
         "tridiagonal eigensolver (below: Jacobi; H100: 10000 x 32x32 took 160 ms there, "
         "51 ms on the Jacobi path)",
         FAMILY, choices=(32, 64, 128), lo=2),
    Knob("SMALL_SPECTRAL_MIN", int, 16,
         "matrices in a stack from which eigh / svd of small (n <= 32) real matrices take "
         "the column-per-invocation kernels",
         FAMILY, choices=(4, 16, 64), lo=1),
    # ---- the tridiagonal path
    Knob("EIGH_SYMV_RPW", int, 4,
         "rows of one TrdSymv2Spec row workgroup (256 / rpw invocations a row)",
         FAMILY, choices=(1, 2, 4)),
    Knob("EIGH_MSECT_WG", int, 64,
         "points of one multisection round of the tridiagonal eigenvalues (a workgroup "
         "each; H100, 2026-11-27: 128 and 256 took eigh 2048 "
         "float64 80 / 90 ms against 75)",
         FAMILY, choices=(64, 128, 256)),
    Knob("EIGH_BT_NB", int, 128,
         "columns of one block reflector of the eigenvector back-transformation (a "
         "multiple of the panel width 32; at most the LarftSpec limit)",
         FAMILY, choices=(32, 64, 128), lo=1),
    Knob("EIGH_SERIAL_MAX", int, 12,
         "the longest chain of close eigenvalues inverse iteration walks serially; longer "
         "ones take the parallel mode (independent vectors, Newton-Schulz steps)",
         FAMILY, choices=(8, 12, 32), lo=0),
    Knob("EIGH_TIGHT_SERIAL_MAX", int, 32,
         "in the parallel mode, the longest chain of (near-)equal eigenvalues (TIGHT unit "
         "roundoffs) inverse iteration walks serially, O(m^2 n) on one workgroup; longer "
         "ones take independent vectors of the eigenspace orthonormalised by the GPU QR",
         FAMILY, choices=(16, 32, 64, 128), lo=1),
    # ---- stacks of small matrices
    Knob("SMALL_SPECTRAL_EIGH_WG", int, 32,
         "invocations of one workgroup of the small-matrix eigh kernel (H100, "
         "2026-11-27: 32 against 64 took eigh 10000 x 32x32 "
         "float32 1.25 -> 0.67 ms)",
         FAMILY, choices=(16, 32, 64, 128), lo=1),
    Knob("SMALL_SPECTRAL_SVD_WG", int, 64,
         "invocations of one workgroup of the small-matrix svd kernel",
         FAMILY, choices=(32, 64, 128), lo=1),
    Knob("SMALL_SPECTRAL_NBUF", int, 0,
         "column buffers of the small-matrix kernels: 0 picks (svd double-buffered up to "
         "20 KiB a matrix, eigh single), 1 / 2 force single / double where it fits",
         FAMILY, choices=(0, 1, 2), lo=0, hi=2),
    Knob("SMALL_SPECTRAL_PRE", bool, True,
         "float64 eigh with vectors of 17..32-row stacks preconditioned by the float32 "
         "kernel (H100, 2026-11-27: 10000 x 32x32 6.9 -> 4.8 ms)",
         FAMILY, choices=(True, False)),
    Knob("SMALL_SPECTRAL_PRE_MIN", int, 4096,
         "matrices from which the float32 preconditioner runs (H100: 1000 x 32x32 took "
         "2.0 ms with it, 1.6 without)",
         FAMILY, choices=(1024, 4096, 16384), lo=0),
)


def workloads(xp, quick):
    """eigh / eigvalsh through the tridiagonal path and a stack of small matrices, svd /
    svdvals through the augmented path: reconstructions (V diag(w) V^T, U diag(s) Vh: no
    vector signs) and values."""
    import numpy as np

    rng = np.random.default_rng(0)
    n, nsvd, stack = (80, 72, (32, 8, 8)) if quick else (1024, 512, (10000, 32, 32))
    dt = "float64" if "float64" in xp.__array_namespace_info__().dtypes() else "float32"
    a = rng.standard_normal((n, n))
    sym = xp.asarray((a + a.T).astype("float32"))
    s = rng.standard_normal(stack)
    small = xp.asarray((s + np.swapaxes(s, -1, -2)).astype(dt))
    m = xp.asarray(rng.standard_normal((nsvd, nsvd)).astype("float32"))

    def eigh(x):
        w, v = xp.linalg.eigh(x)
        return (v * w[..., None, :]) @ xp.matrix_transpose(v)

    def svd(x):
        u, sv, vh = xp.linalg.svd(x, full_matrices=False)
        return (u * sv[..., None, :]) @ vh

    return [("eigh tridiagonal float32", lambda: eigh(sym)),
            ("eigvalsh tridiagonal float32", lambda: xp.linalg.eigvalsh(sym)),
            (f"eigh stack {dt}", lambda: eigh(small)),
            ("svd augmented float32", lambda: svd(m)),
            ("svdvals augmented float32", lambda: xp.linalg.svdvals(m))]
