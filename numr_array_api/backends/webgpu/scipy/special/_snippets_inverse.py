"""Per-element WGSL of scipy.special's inverse distribution functions and the F
distribution (the entries of _snippets.SNIPPETS, same layout): each calls its math-library
function (wgsl/_inverse.py), which carries SciPy's special values.

hyp1f1 has no kernel (BackendLimitation): for a negative first parameter beyond the turning
point x > 2b - 4a the power series cancels and the recurrence in a is unstable (M(a) is its
minimal solution there), so a kernel built from series, Kummer's transformation and that
recurrence is wrong by many orders of magnitude on part of SciPy's own test region
(|a|, |x| < 50, 0 < b < 50); Boost's algorithm for that region (and its asymptotic
expansions near the Stokes line) is not ported.
"""


def _lib(arity, fn):
    args = ", ".join("abc"[:arity])
    return (arity, f"return numr_{fn}_$R({args});", (fn,), ())


INVERSE_SNIPPETS = {name: _lib(arity, name) for name, arity in (
    ("gammaincinv", 2), ("gammainccinv", 2), ("chdtri", 2), ("pdtri", 2), ("stdtrit", 2),
    ("betaincinv", 3), ("fdtr", 3), ("fdtrc", 3), ("fdtri", 3), ("bdtri", 3), ("nbdtri", 3))}
