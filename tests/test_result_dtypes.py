"""Result dtypes of every elementwise function for every accepted dtype (and every promotable
pair for binary functions): the numr dtype is the standard's, and the payload agrees with it
(``numpy.asarray(x).dtype == x.dtype``). The cpu backend stamps result dtypes without
checking NumPy's loops (trusted_result_dtypes), which this module verifies.
"""

import itertools

import numpy as np
import pytest

from _support import ALL_DTYPE_NAMES, INT_NAMES, has_dtype, to_numpy
from test_elementwise import BINARY, UNARY, _result_name
from test_promotion import EXPECTED as PROMOTION


def _sample(xp, name, n=3):
    k = np.dtype(name).kind
    vals = {"b": [True, False, True], "i": [1, 2, 3], "u": [1, 2, 3], "f": [0.5, 1.5, 2.0],
            "c": [0.5 + 1j, 1.5, 2.0 - 1j]}[k][:n]
    return xp.asarray(np.asarray(vals, dtype=name))


def _check(out, expected_name, what):
    assert out.dtype.name == expected_name, f"{what}: dtype {out.dtype} != {expected_name}"
    host = to_numpy(out)
    assert host.dtype == np.dtype(expected_name), \
        f"{what}: payload dtype {host.dtype} disagrees with x.dtype {out.dtype}"


@pytest.mark.strict_semantics
@pytest.mark.parametrize("fname", sorted(UNARY))
def test_unary_result_dtypes(xp, fname):
    _, accepted, rule, _ = UNARY[fname]
    for name in ALL_DTYPE_NAMES:
        if not has_dtype(xp, name):
            continue
        x = _sample(xp, name)
        if name in accepted:
            _check(getattr(xp, fname)(x), _result_name(name, rule), f"{fname}({name})")
            _check(getattr(xp, fname)(x[0]), _result_name(name, rule), f"{fname}({name} 0-d)")
        else:
            with pytest.raises(TypeError):
                getattr(xp, fname)(x)


@pytest.mark.strict_semantics
@pytest.mark.parametrize("fname", sorted(BINARY))
def test_binary_result_dtypes(xp, fname):
    _, accepted, rule, _, _ = BINARY[fname]
    if fname == "divide":  # numeric per the standard; integers give the default float
        accepted = accepted + INT_NAMES
    for a, b in itertools.product(ALL_DTYPE_NAMES, repeat=2):
        if not (has_dtype(xp, a) and has_dtype(xp, b)):
            continue
        t = PROMOTION.get((a, b))
        x1, x2 = _sample(xp, a), _sample(xp, b)
        if t is None or t not in accepted:
            with pytest.raises(TypeError):
                getattr(xp, fname)(x1, x2)
            continue
        res = _result_name(t, rule)
        if fname == "divide" and np.dtype(t).kind in "iu":
            res = xp.__array_namespace_info__().default_dtypes()["real floating"].name
        _check(getattr(xp, fname)(x1, x2), res, f"{fname}({a}, {b})")
        _check(getattr(xp, fname)(x1[0], x2), res, f"{fname}({a} 0-d, {b})")
