"""Type promotion: every pair of the 13 standard dtypes, Python scalars, invalid mixes.

The expected table is written out here from the standard's text (type_promotion.html),
independently of numr_array_api._core.promotion.
"""

import itertools

import numpy as np
import pytest

from _support import ALL_DTYPE_NAMES, get_dtype, to_numpy

# Codes as in the standard's tables.
CODES = {"b": "bool", "i1": "int8", "i2": "int16", "i4": "int32", "i8": "int64",
         "u1": "uint8", "u2": "uint16", "u4": "uint32", "u8": "uint64",
         "f4": "float32", "f8": "float64", "c8": "complex64", "c16": "complex128"}

# Rows of the standard's tables: "row col -> result". Anything not listed (and not its
# mirror image) has no defined promotion and must raise TypeError.
SPEC_TABLE = """
b b b
i1 i1 i1 | i1 i2 i2 | i1 i4 i4 | i1 i8 i8
i2 i2 i2 | i2 i4 i4 | i2 i8 i8
i4 i4 i4 | i4 i8 i8
i8 i8 i8
u1 u1 u1 | u1 u2 u2 | u1 u4 u4 | u1 u8 u8
u2 u2 u2 | u2 u4 u4 | u2 u8 u8
u4 u4 u4 | u4 u8 u8
u8 u8 u8
u1 i1 i2 | u1 i2 i2 | u1 i4 i4 | u1 i8 i8
u2 i1 i4 | u2 i2 i4 | u2 i4 i4 | u2 i8 i8
u4 i1 i8 | u4 i2 i8 | u4 i4 i8 | u4 i8 i8
f4 f4 f4 | f4 f8 f8 | f8 f8 f8
c8 c8 c8 | c8 c16 c16 | c16 c16 c16
f4 c8 c8 | f4 c16 c16 | f8 c8 c16 | f8 c16 c16
"""


def _parse():
    table = {}
    for line in SPEC_TABLE.strip().splitlines():
        for entry in line.split("|"):
            a, b, r = (CODES[c] for c in entry.split())
            table[(a, b)] = r
            table[(b, a)] = r
    return table


EXPECTED = _parse()

# the standard's table and its refusals: the strict semantics (tests/test_semantics.py checks
# the compatible semantics against NumPy)
pytestmark = pytest.mark.strict_semantics
PAIRS = list(itertools.product(ALL_DTYPE_NAMES, repeat=2))


def test_table_is_complete_and_symmetric():
    # ordered pairs: bool 1 + signed 4*4 + unsigned 4*4 + mixed 2*12 + float 2*2 +
    # complex 2*2 + real/complex floating 2*4
    assert len(EXPECTED) == 1 + 16 + 16 + 24 + 4 + 4 + 8
    for (a, b), r in EXPECTED.items():
        assert EXPECTED[(b, a)] == r


def _one(xp, name, value=1):
    d = get_dtype(xp, name)
    return xp.asarray(np.full((2,), value, dtype=name)), d


@pytest.mark.parametrize("a,b", PAIRS, ids=[f"{a}-{b}" for a, b in PAIRS])
def test_result_type_pair(xp, a, b):
    da, db = get_dtype(xp, a), get_dtype(xp, b)
    expected = EXPECTED.get((a, b))
    if expected is None:
        with pytest.raises(TypeError):
            xp.result_type(da, db)
        assert not (xp.can_cast(da, db) and xp.can_cast(db, da) and a != b)
    else:
        r = xp.result_type(da, db)
        assert r == getattr(xp, expected), f"result_type({a}, {b}) = {r}, expected {expected}"
        # arrays and dtypes mix
        x = xp.ones((1,), dtype=da)
        assert xp.result_type(x, db) == getattr(xp, expected)


@pytest.mark.parametrize("a,b", PAIRS, ids=[f"{a}-{b}" for a, b in PAIRS])
def test_binary_op_pair(xp, a, b):
    """The promoted dtype is what an operator actually returns (== works for every kind)."""
    x, _ = _one(xp, a)
    y, _ = _one(xp, b)
    expected = EXPECTED.get((a, b))
    if expected is None:
        with pytest.raises(TypeError):
            x == y
        with pytest.raises(TypeError):
            xp.equal(x, y)
        return
    r = xp.where(xp.asarray([True, False]), x, y)
    assert r.dtype == getattr(xp, expected)
    assert np.array_equal(to_numpy(r), np.ones(2, dtype=expected))
    eq = x == y
    assert eq.dtype == xp.bool and bool(xp.all(eq))
    if expected != "bool":
        s = xp.add(x, y)
        assert s.dtype == getattr(xp, expected)
        assert np.array_equal(to_numpy(s), np.full(2, 2, dtype=expected))


@pytest.mark.parametrize("a,b", PAIRS, ids=[f"{a}-{b}" for a, b in PAIRS])
def test_can_cast(xp, a, b):
    """can_cast(from, to) is True exactly where promoting from with to gives to."""
    da, db = get_dtype(xp, a), get_dtype(xp, b)
    assert xp.can_cast(da, db) is (EXPECTED.get((a, b)) == b)


def test_result_type_many_associative(xp):
    names = [n for n in ("int8", "uint8", "int16", "float32", "float64", "complex64")]
    ds = [get_dtype(xp, n) for n in names]
    assert xp.result_type(ds[0], ds[1], ds[2]) == xp.int16
    assert xp.result_type(ds[3], ds[4], ds[5]) == xp.complex128
    assert xp.result_type(ds[5], ds[3]) == xp.complex64
    with pytest.raises(TypeError):
        xp.result_type(ds[0], ds[3])  # int8 with float32: mixed kinds are undefined
    with pytest.raises(TypeError):
        xp.result_type(xp.uint64, xp.int64)


# ------------------------------------------------------------------- Python scalars
# (scalar type, array kind) -> supported by the standard: the result has the array's dtype
# (complex scalar with a real floating array: the complex dtype of the same precision).
SCALARS = {bool: True, int: 3, float: 2.5, complex: 1 + 2j}


def _expected_scalar_dtype(name, stype):
    k = np.dtype(name).kind
    if k == "b":
        return name if stype is bool else None
    if k in "iu":
        return name if stype is int else None
    if k == "f":
        if stype in (int, float):
            return name
        if stype is complex:
            return {"float32": "complex64", "float64": "complex128"}[name]
        return None
    return name if stype in (int, float, complex) else None


# only the combinations the standard defines (the others: test_python_scalar_invalid)
SCALAR_CASES = [(n, t) for n in ALL_DTYPE_NAMES for t in SCALARS
                if _expected_scalar_dtype(n, t) is not None]


@pytest.mark.parametrize("name,stype", [
    pytest.param(n, t, id=f"{n}-{t.__name__}")
    for n, t in SCALAR_CASES])
def test_python_scalar_with_array(xp, name, stype):
    expected = _expected_scalar_dtype(name, stype)
    x, _ = _one(xp, name, 1)
    s = SCALARS[stype]
    exp_dtype = getattr(xp, expected)
    np_x = np.ones(2, dtype=name)
    if np.dtype(name).kind == "b":
        results = [(x & s, np_x & s), (s | x, s | np_x), (x == s, np_x == s)]
    else:
        results = [(x + s, np_x + s), (s + x, s + np_x), (x * s, np_x * s), (s - x, s - np_x)]
    for r, ref in results:
        assert r.dtype == exp_dtype, (f"{name} with Python {stype.__name__}: {r.dtype} != "
                                      f"{exp_dtype}")
        np.testing.assert_array_equal(to_numpy(r), np.asarray(ref).astype(exp_dtype.name))
    assert (x == s).dtype == xp.bool
    assert xp.result_type(x, s) == exp_dtype


INVALID_SCALAR = [("bool", 1), ("bool", 1.5), ("bool", 1j), ("int8", 1.5), ("int32", 1j),
                  ("uint8", 2.0), ("int64", 1j)]


@pytest.mark.parametrize("name,value", INVALID_SCALAR,
                         ids=[f"{n}-{type(v).__name__}" for n, v in INVALID_SCALAR])
def test_python_scalar_invalid(xp, name, value):
    """Mixes numr rejects (the standard leaves them unspecified) raise TypeError."""
    x, _ = _one(xp, name, 1)
    with pytest.raises(TypeError):
        x + value
    with pytest.raises(TypeError):
        value + x
    with pytest.raises(TypeError):
        xp.add(x, value)


@pytest.mark.parametrize("name", ["int8", "uint8", "int16", "uint32"])
def test_python_int_out_of_bounds(xp, name):
    x, _ = _one(xp, name, 1)
    big = int(np.iinfo(name).max) + 1
    with pytest.raises((OverflowError, TypeError, ValueError)):
        x + big


def test_scalars_only_result_type(xp):
    info = xp.__array_namespace_info__().default_dtypes()
    assert xp.result_type(1, 2.0) == info["real floating"]
    assert xp.result_type(1) == info["integral"]
    assert xp.result_type(True) == xp.bool
    assert xp.result_type(1j, 1.0) == info["complex floating"]


def test_scalar_with_dtype_result_type(xp):
    f32 = get_dtype(xp, "float32")
    assert xp.result_type(f32, 1.0) == f32
    assert xp.result_type(xp.int8, 1) == xp.int8
    with pytest.raises(TypeError):
        xp.result_type(xp.int8, 1.0)
