"""The spectral half of the linalg extension on the GPU: eigh / eigvalsh, svd / svdvals,
eig / eigvals, pinv, matrix_rank. Tuning knobs: numr_array_api/tuning/knobs/spectral.py.

mixin.py          the backend methods (path choice, chunking, the round path's driver), and
                  ``svdvals(backend, storage)`` for other linalg code
Jacobi (one workgroup per matrix; any size, any real or complex dtype):
  jacobi_common.py  WGSL shared by the Jacobi kernels and eig: per-dtype literals and
                    constants, real / complex element arithmetic, the rotation, unrolled loops
  spec.py           EighSpec / SvdSpec (workgroup-memory buckets or scratch slots)
  eigh.wgsl         two-sided round-robin Jacobi for symmetric / Hermitian matrices
  svd.wgsl          one-sided (Hestenes) Jacobi on the columns; svd_gs.wgsl,
                    svd_complete.wgsl: the completion of U's basis
  rounds.py         RoundSpec / FinishSpec: the dispatch-per-round path beyond workgroup
                    memory (jacobi_round.wgsl, svd_finish.wgsl)
Stacks of small real matrices (n <= 32; a column per invocation, in registers):
  small.py          the path (when it applies, launch plans, NaN handling)
  small_spec.py     SmallEighSpec / SmallSvdSpec (small_eigh.wgsl, small_svd.wgsl)
  small_prep.py     float64 eigh preconditioned by the float32 kernel (small_prep.wgsl,
                    small_prep_cast.wgsl)
The tridiagonal path (large real eigh / eigvalsh):
  tridiag.py        the driver: tridiagonalise, eigenvalues, vectors, back-transformation,
                    the orthogonality check
  trd_common.py     the WGSL prelude every tridiagonal kernel shares
  trd_chain.py      TrdUpdSpec / TrdSymv2Spec: the Householder tridiagonalisation's column
                    chain (trd_upd.wgsl, trd_symv.wgsl)
  trd_values.py     BisectSpec / BlockBisectSpec / RankSpec: multisection with Sturm counts
                    (trd_bisect.wgsl, trd_blockbis.wgsl, trd_rank.wgsl; fragments
                    trd_sturm.wgsl, trd_msect.wgsl, trd_norms.wgsl)
  trd_vectors.py    InvIterSpec / GatherSpec: inverse iteration (trd_invit.wgsl,
                    trd_gather.wgsl)
  clusters.py       ClusterSpec and the serial / parallel mode for long clusters of close
                    eigenvalues (trd_clusters.wgsl), Newton-Schulz orthogonalisation;
                    long tight chains in parallel (ChainSpec, trd_chains.wgsl) with a
                    batched Householder QR per chain
svd_aug.py        large real svd / svdvals through the tridiagonal path on [[0, A], [A^T, 0]]
eig_spec.py       EigSpec: eig / eigvals by the complex Schur form (eig.wgsl, eig_vectors.wgsl)
conj.py           ConjPairSpec: eigenvalues of real matrices as exact conjugate pairs
                  (eig_conj_pairs.wgsl)
cut.py            CutSpec: the rtol * max(s) cut of pinv and matrix_rank (sv_cut.wgsl)
"""

from .mixin import SpectralMixin, svdvals

__all__ = ["SpectralMixin", "svdvals"]
