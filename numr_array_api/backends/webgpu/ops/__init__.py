"""The webgpu namespace's backend, one mixin module per family (composed in ../backend.py).

Modules:

device.py         DeviceMixin: adapters as devices, dtype support, the no-adapter state
creation.py       CreationMixin: empty, full, arange, eye, linspace, tril / triu, copy,
                  astype (snippets of the N-ary template)
elementwise.py    ElementwiseMixin: elementwise functions, where, in-place operators,
                  scalar operands, one N-ary dispatch each
_exprs.py         the expression snippets of the elementwise functions, one per (function,
                  value class), with WGSL's departures from the standard corrected
views.py          ViewsMixin: basic indexing, reshape, permute, broadcast, flip as views
manipulation.py   ManipulationMixin: concat, stack, roll, repeat, tile, unstack by strided
                  stores into views of the output
indexing.py       IndexingMixin: getitem / setitem with array keys, take, take_along_axis
                  (offset tables, primitives/gather.py, masks through primitives/scan.py)
cumulative.py     CumulativeMixin: cumulative_sum / cumulative_prod through the shared scan
interop.py        InteropMixin: host and device transfers, DLPack, asarray from host objects
host_fallback.py  HostFallbackMixin: the functions without a GPU kernel yet, as host round
                  trips through the cpu backend (FALLBACK_METHODS, HostFallbackWarning)

Subpackages:

matmul/           matmul / tensordot / vecdot (tiled GEMM, tile configurations, autotuner)
reduction/        sum, prod, max, min, mean, all, any, var / std, argmax / argmin,
                  count_nonzero
sorting/          sort, argsort, searchsorted, nonzero, unique, isin over the radix sort
fft/              the fft extension: every transform, fftfreq / rfftfreq, the shifts
linalg/           the linalg extension's factorisations: cholesky, solve, inv, det, slogdet,
                  qr, and the functions built from existing GPU ops
linalg_spectral/  eigh / eigvalsh, svd / svdvals, eig / eigvals, pinv, matrix_rank
"""
