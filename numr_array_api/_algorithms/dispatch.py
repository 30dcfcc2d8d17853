"""Registry of backend implementations for the ext operations.

Key: (operation, backend name), where the backend name is the ``__name__`` of the array
namespace module (``"numr_array_api.cpu"``, ``"array_api_compat.numpy"``, ``"cupy"``, ...).
A backend with a faster kernel registers it; every other namespace gets the portable
implementation, written with the array API alone. Lookup is by name, not by importing the
backend, so registering costs nothing for namespaces that are never used.

Implementation signatures (arguments are already validated and normalised by the public
functions; ``xp`` is the namespace of the arrays, ``dtype`` is a dtype of ``xp``):

``gemm_epilogue(xp, a, b, bias, residual, *, activation, dtype) -> array``
    ``bias`` and ``residual`` may be None; result shape is the matmul shape.
``gemm_epilogue_bwd(xp, grad, a, b, bias, *, activation, dtype) -> (d_a, d_b, d_bias)``
    Gradients reduced to each input's own shape; ``d_bias`` None when ``bias`` is None.
``sobol(xp, n, skip, directions, shift, *, bits, dtype, device) -> array [n, d]``
    ``directions``: NumPy uint32 ``[bits, d]`` (already scrambled when scrambling),
    ``shift``: NumPy uint32 ``[d]`` or None. Must return exactly the integers described in
    docs/ext.md converted as described there, so every backend agrees bit for bit.
``halton(xp, n, skip, bases, perms, *, dtype, device) -> array [n, d]``
    ``bases``: NumPy int64 ``[d]`` primes; ``perms``: None or a list of d NumPy int64
    arrays ``[n_digits(b_j), b_j]`` (digit permutations per digit position).

A GPU backend registers at import time of its namespace, e.g.::

    from numr_array_api.ext import _dispatch
    _dispatch.register("sobol", "numr_array_api.cuda", cuda_sobol)
"""

__all__ = ["register", "unregister", "lookup", "backend_name", "registered", "OPERATIONS"]

OPERATIONS = ("gemm_epilogue", "gemm_epilogue_bwd", "sobol", "halton")

_REGISTRY = {}
_PORTABLE = {}


def backend_name(xp):
    return getattr(xp, "__name__", type(xp).__name__)


def _check_op(op):
    if op not in OPERATIONS:
        from .._core.errors import InvalidArgument

        raise InvalidArgument("op", f"unknown ext operation {op!r}; expected one of {OPERATIONS}")


def register(op, backend, fn=None):
    """Register ``fn`` as the implementation of ``op`` for namespace ``backend``.

    Usable as a decorator (``@register("sobol", "cupy")``). Replaces any earlier entry.
    """
    _check_op(op)

    def deco(f):
        _REGISTRY[(op, backend)] = f
        return f

    return deco if fn is None else deco(fn)


def unregister(op, backend):
    _REGISTRY.pop((op, backend), None)


def set_portable(op, fn):
    _check_op(op)
    _PORTABLE[op] = fn


def lookup(op, xp):
    """The implementation for ``op`` on namespace ``xp``: registered, else portable."""
    fn = _REGISTRY.get((op, backend_name(xp)))
    return fn if fn is not None else _PORTABLE[op]


def registered():
    """A copy of the registry, ``{(op, backend): fn}``."""
    return dict(_REGISTRY)
