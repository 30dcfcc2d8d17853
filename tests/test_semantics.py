"""The compatible semantics against NumPy 2, and the strict mode's refusals of the same calls.

Where the standard leaves a choice, the compatible mode (the default) must give NumPy's
result dtype and values on every backend; docs/semantics.md lists each choice, including the
one documented difference (floating functions of integers compute in the default float).
The strict mode must refuse every such call with a TypeError / IndexError naming the mode.
"""

import itertools
import os
import subprocess
import sys
import threading

import numpy as np
import pytest

import numr_array_api
from numr_array_api.errors import DTypeMismatch, InvalidArgument, InvalidIndex

from _support import (ALL_DTYPE_NAMES, assert_close, assert_equal, get_dtype, has_dtype,
                      to_numpy)

PAIRS = [(a, b) for a, b in itertools.product(ALL_DTYPE_NAMES, repeat=2)]
MIXED = [(a, b) for a, b in PAIRS if np.dtype(a).kind != np.dtype(b).kind
         or {a, b} == {"uint64", "int64"}]


def _default_float(xp):
    return xp.__array_namespace_info__().default_dtypes()["real floating"]


def _sample(name):
    # values every dtype holds exactly, 0 and a negative where signed
    base = {"b": [True, False, True], "u": [3, 0, 200], "i": [3, 0, -7],
            "f": [1.5, -0.0, 7.0], "c": [1.5 + 1j, -2j, 7.0]}[np.dtype(name).kind]
    return np.asarray(base, dtype=name)


def _expected_dtype(xp, numpy_dtype):
    """NumPy's result dtype, as a device without float64 holds it (its default float)."""
    name = np.dtype(numpy_dtype).name
    if has_dtype(xp, name):
        return name
    return {"f": _default_float(xp).name,
            "c": {"float32": "complex64"}.get(_default_float(xp).name, "complex128")}[
        np.dtype(numpy_dtype).kind]


@pytest.mark.parametrize("a,b", MIXED, ids=[f"{a}-{b}" for a, b in MIXED])
def test_mixed_pairs_promote_as_numpy(xp, a, b):
    """result_type and add / multiply / equal of every mixed-kind pair: NumPy 2's dtype
    and values (integers holding -7 and 200 are exact in every floating result)."""
    da, db = get_dtype(xp, a), get_dtype(xp, b)
    want = _expected_dtype(xp, np.promote_types(a, b))
    assert xp.result_type(da, db).name == want
    x1, x2 = xp.asarray(_sample(a)), xp.asarray(_sample(b))
    n1, n2 = _sample(a), _sample(b)
    for fname, ref in (("add", np.add), ("multiply", np.multiply), ("equal", np.equal)):
        if "b" in (np.dtype(a).kind + np.dtype(b).kind) and fname != "equal" and \
                np.dtype(np.promote_types(a, b)).kind == "b":
            continue
        got = getattr(xp, fname)(x1, x2)
        with np.errstate(all="ignore"):
            exp = ref(n1, n2)
        assert_close(got, exp, exp.dtype.name if fname == "equal" else want,
                     ctx=f"{fname}({a}, {b})")


@pytest.mark.parametrize("a", ALL_DTYPE_NAMES)
@pytest.mark.parametrize("scalar", [1, 2.5, 1j, True], ids=["int", "float", "complex", "bool"])
def test_python_scalars_follow_nep50(xp, a, scalar):
    d = get_dtype(xp, a)
    x = xp.asarray(_sample(a))
    with np.errstate(all="ignore"):
        try:
            exp = np.add(_sample(a), scalar)
        except (TypeError, OverflowError):
            pytest.skip("NumPy refuses the pair as well")
    if exp.dtype.kind == "b":
        pytest.skip("bool + bool is NumPy's logical or; numr refuses arithmetic on bool")
    got = xp.add(x, scalar)
    assert_close(got, exp, _expected_dtype(xp, exp.dtype), ctx=f"{a} + {scalar!r}")
    assert_close(scalar + x, exp, _expected_dtype(xp, exp.dtype), ctx=f"{scalar!r} + {a}")
    assert d is not None


@pytest.mark.parametrize("fname", ["exp", "log1p", "sqrt", "sin", "tanh", "atan2", "hypot",
                                   "logaddexp", "divide"])
@pytest.mark.parametrize("a", ["bool", "int8", "uint16", "int32", "int64", "uint64"])
def test_floating_functions_of_integers_give_the_default_float(xp, fname, a):
    """NumPy picks float16 / float32 / float64 by the integer's width; numr computes in the
    default float (as PyTorch does): the values are NumPy's on the input cast to it."""
    get_dtype(xp, a)
    f = _default_float(xp)
    n = np.abs(_sample(a)) if a != "bool" else _sample(a)
    x = xp.asarray(n)
    fn = getattr(xp, fname)
    ref = getattr(np, {"atan2": "arctan2"}.get(fname, fname))
    args = (x,) if fname in ("exp", "log1p", "sqrt", "sin", "tanh") else (x, x)
    with np.errstate(all="ignore"):
        exp = ref(*[n.astype(f.name)] * len(args))
    assert_close(fn(*args), exp, f, transcendental=True, ctx=f"{fname}({a})")


def test_integer_reciprocal_is_refused(xp):
    """NumPy's reciprocal of an integer is integral (1 // x): refused rather than answered
    in floating point."""
    with pytest.raises(TypeError):
        xp.reciprocal(xp.asarray([1, 2]))


def test_statistics_of_integers_and_bools(xp):
    f = _default_float(xp)
    n = np.asarray([[1, 2, 3], [4, 5, 7]])
    x = xp.asarray(n)
    assert_close(xp.mean(x), np.mean(n.astype(f.name)), f)
    assert_close(xp.mean(x, axis=0), np.mean(n.astype(f.name), axis=0), f)
    assert_close(xp.var(x, correction=1), np.var(n.astype(f.name), ddof=1), f)
    assert_close(xp.std(x, axis=1), np.std(n.astype(f.name), axis=1), f)
    assert_close(xp.mean(x, dtype=xp.float32), np.mean(n, dtype=np.float32), "float32")
    assert_close(xp.std(xp.asarray(n * 1.0), dtype=xp.float32), np.std(n, dtype=np.float32),
                 "float32")
    b = np.asarray([[True, False], [False, False]])
    xb = xp.asarray(b)
    for fname in ("max", "min"):
        for axis in (None, 0, 1):
            assert_equal(getattr(xp, fname)(xb, axis=axis), getattr(np, fname)(b, axis=axis),
                         "bool", ctx=f"{fname}(bool, axis={axis})")
    assert int(xp.argmax(xb)) == int(np.argmax(b))
    assert_equal(xp.argmin(xb, axis=1), np.argmin(b, axis=1))
    with pytest.raises(InvalidArgument):
        xp.max(xp.asarray(np.zeros((0,), dtype=bool)))
    with pytest.raises(TypeError):
        xp.mean(xp.asarray([1.0]), dtype=xp.int64)


def test_searching_and_sets_across_kinds(xp):
    hay = np.asarray([1, 3, 5, 7])
    needles = np.asarray([0.5, 3.0, 3.5, 9.0])
    for side in ("left", "right"):
        assert_equal(xp.searchsorted(xp.asarray(hay), xp.asarray(needles), side=side),
                     np.searchsorted(hay, needles, side=side))
        assert int(xp.searchsorted(xp.asarray(hay), 3.5, side=side)) == \
            int(np.searchsorted(hay, 3.5, side=side))
    c = np.asarray([True, False, True])
    exp = np.where(c, np.asarray([1, 2, 3]), np.asarray([0.5, 1.5, 2.5]))
    assert_close(xp.where(xp.asarray(c), xp.asarray([1, 2, 3]), xp.asarray([0.5, 1.5, 2.5])),
                 exp, "float64" if has_dtype(xp, "float64") else "float32")
    assert_close(xp.where(xp.asarray(c), xp.asarray([1, 2, 3]), 0.5),
                 np.where(c, [1, 2, 3], 0.5), _default_float(xp))
    assert_equal(xp.isin(xp.asarray([1, 2, 3]), xp.asarray([2.0, 2.5])),
                 np.isin([1, 2, 3], [2.0, 2.5]))
    assert_equal(xp.isin(xp.asarray([1, 2, 3]), 2.0), np.isin([1, 2, 3], 2.0))
    ints, floats = np.asarray([1, 2]), np.asarray([0.5], dtype=np.float32)
    got = xp.concat([xp.asarray(ints, dtype=xp.int16), xp.asarray(floats)])
    assert_close(got, np.concatenate([ints.astype(np.int16), floats]), "float32")
    assert_close(xp.stack([xp.asarray([1, 2], dtype=xp.uint8), xp.asarray([True, False])]),
                 np.stack([np.asarray([1, 2], np.uint8), [True, False]]), "uint8")


def test_clip_diff_and_setitem_as_numpy(xp):
    n = np.asarray([1, 2, 3, 4])
    f = _default_float(xp)
    assert_close(xp.clip(xp.asarray(n), 1.5, 3.5), np.clip(n, 1.5, 3.5).astype(f.name), f)
    assert_close(xp.diff(xp.asarray(n), prepend=xp.asarray([0.5])),
                 np.diff(n, prepend=[0.5]).astype(f.name), f)
    x = xp.asarray(n)
    x[1] = 7.9
    x[2:] = xp.asarray([-1.5, 9.9])
    m = n.copy()
    m[1] = 7.9
    m[2:] = [-1.5, 9.9]
    assert_equal(x, m)
    with pytest.raises(ValueError):
        x[0] = float("nan")
    with pytest.raises(TypeError):  # complex into real: NumPy discards the imaginary part
        x[0:1] = xp.asarray([1j]) if has_dtype(xp, "complex64") else 1j
    b = xp.asarray([True, False])
    b[1] = 2
    assert_equal(b, np.asarray([True, True]))


def test_linalg_and_fft_of_integers(xp):
    f = _default_float(xp)
    n = np.asarray([[2, 1], [1, 3]])
    x = xp.asarray(n)
    assert_close(xp.linalg.inv(x), np.linalg.inv(n.astype(f.name)), f)
    assert_close(xp.linalg.det(x), np.linalg.det(n.astype(f.name)), f)
    assert_close(xp.linalg.vector_norm(x), np.linalg.norm(n.astype(f.name)), f)
    assert_close(xp.matmul(x, xp.asarray(n * 0.5)), n @ (n * 0.5), f)
    assert_close(xp.linalg.solve(x, xp.asarray([[1], [2]])),
                 np.linalg.solve(n.astype(f.name), np.asarray([[1.0], [2.0]])), f)
    assert_equal(xp.linalg.matrix_power(x, 2), np.linalg.matrix_power(n, 2), x.dtype)
    if has_dtype(xp, "complex64"):
        c = "complex128" if f.name == "float64" else "complex64"
        assert_close(xp.fft.fft(xp.asarray([1, 2, 3, 4])), np.fft.fft([1, 2, 3, 4]), c)
        assert_close(xp.fft.rfft(xp.asarray([1, 2, 3, 4])), np.fft.rfft([1, 2, 3, 4]), c)


@pytest.mark.parametrize("key", [True, False, (Ellipsis, True), (slice(None), False),
                                 (True, Ellipsis), (None, True), np.True_],
                         ids=["True", "False", "ellipsis-True", "slice-False", "True-ellipsis",
                              "None-True", "np.True_"])
def test_boolean_scalar_index(xp, key):
    for n in (np.asarray(3.0), np.arange(6.0).reshape(2, 3)):
        try:
            want = n[key]
        except IndexError:  # a slice of a 0-d array
            with pytest.raises(IndexError):
                xp.asarray(n)[key]
            continue
        assert_equal(xp.asarray(n)[key], want, ctx=f"{n.shape}[{key!r}]")
    x = xp.asarray(np.zeros((2, 3)))
    x[key] = 1.0
    m = np.zeros((2, 3))
    m[key] = 1.0
    assert_equal(x, m)


def test_boolean_scalar_index_with_integers_is_refused(xp):
    x = xp.asarray(np.zeros((2, 3)))
    with pytest.raises(InvalidIndex, match="boolean scalar"):
        x[0, True]
    with pytest.raises(InvalidIndex, match="boolean scalar"):
        x[True, True]


SPELLINGS = [np.float32, np.dtype("float32"), "float32", "f4", np.int16, "int16", bool, int,
             float, "bool"]


@pytest.mark.parametrize("spelling", SPELLINGS, ids=repr)
def test_numpy_dtype_spellings(xp, spelling):
    want = np.dtype(spelling).name
    get_dtype(xp, want)
    d = getattr(xp, want)
    x = xp.asarray([1, 0, 2])
    assert xp.astype(x, spelling).dtype == d
    assert xp.zeros((2,), dtype=spelling).dtype == d
    assert xp.asarray([1, 2], dtype=spelling).dtype == d
    assert xp.full((1,), 1, dtype=spelling).dtype == d
    assert xp.result_type(spelling, d) == d
    assert xp.isdtype(spelling, np.dtype(spelling).kind == "f" and "real floating" or
                      ("bool" if want == "bool" else "integral"))
    assert xp.can_cast(spelling, d)
    assert xp.sum(xp.asarray([1, 2]), dtype=spelling).dtype == d


@pytest.mark.parametrize("spelling", ["float", "object", "U5", object, str, "not-a-dtype",
                                      np.datetime64])
def test_dtypes_numr_has_not_are_refused(xp, spelling):
    if spelling == "float":  # NumPy's name of float64: accepted where the device has it
        assert xp.zeros(1, dtype=spelling).dtype == get_dtype(xp, "float64")
        return
    with pytest.raises(TypeError):
        xp.zeros(1, dtype=spelling)


def test_can_cast_follows_numpy_safe_casts(xp):
    for a, b in PAIRS:
        if not (has_dtype(xp, a) and has_dtype(xp, b)):
            continue
        assert xp.can_cast(getattr(xp, a), getattr(xp, b)) == np.can_cast(a, b, "safe"), (a, b)


# ---- the strict mode ------------------------------------------------------------------------
STRICT_REFUSALS = [
    ("add int+float", lambda xp: xp.add(xp.asarray([1]), xp.asarray([1.5])), TypeError),
    ("int + python float", lambda xp: xp.asarray([1]) + 1.5, TypeError),
    ("bool + python int", lambda xp: xp.asarray([True]) + 1, TypeError),
    ("uint64 + int64", lambda xp: xp.asarray([1], dtype=xp.uint64) + xp.asarray([1]),
     TypeError),
    ("exp(int)", lambda xp: xp.exp(xp.asarray([1])), TypeError),
    ("mean(int)", lambda xp: xp.mean(xp.asarray([1])), TypeError),
    ("mean(dtype=)", lambda xp: xp.mean(xp.asarray([1.0]), dtype=xp.float32), TypeError),
    ("max(bool)", lambda xp: xp.max(xp.asarray([True])), TypeError),
    ("searchsorted int/float", lambda xp: xp.searchsorted(xp.asarray([1, 2]),
                                                          xp.asarray([1.5])), TypeError),
    ("matmul int/float", lambda xp: xp.asarray([[1]]) @ xp.asarray([[1.5]]), TypeError),
    ("inv(int)", lambda xp: xp.linalg.inv(xp.asarray([[1, 0], [0, 1]])), TypeError),
    ("x[True]", lambda xp: xp.asarray(1.0)[True], IndexError),
    ("dtype string", lambda xp: xp.zeros(1, dtype="float32"), TypeError),
    ("dtype type", lambda xp: xp.astype(xp.asarray([1]), np.float32), TypeError),
    ("result_type string", lambda xp: xp.result_type("float32", xp.float32), TypeError),
    ("setitem float into int", lambda xp: xp.asarray([1, 2]).__setitem__(0, 1.5), TypeError),
    ("where mixed", lambda xp: xp.where(xp.asarray([True]), xp.asarray([1]),
                                        xp.asarray([1.5])), TypeError),
    ("concat mixed", lambda xp: xp.concat([xp.asarray([1]), xp.asarray([1.5])]), TypeError),
    ("list index", lambda xp: xp.asarray([1, 2, 3])[[0, 2]], IndexError),
    ("take int", lambda xp: xp.take(xp.asarray([1, 2, 3]), 1), TypeError),
]


def test_list_and_int_indices_as_numpy(xp):
    n = np.arange(24).reshape(2, 3, 4)
    x = xp.asarray(n)
    for key in ([1, 0], (slice(None), [2, 0, 2]), (Ellipsis, [0, 1, 1]), [True, False], []):
        assert_equal(x[key], n[key], ctx=repr(key))
    y = xp.asarray(n)
    y[:, [0, 2]] = 0
    m = n.copy()
    m[:, [0, 2]] = 0
    assert_equal(y, m)
    assert_equal(xp.take(x, 1, axis=1), np.take(n, 1, axis=1))
    with pytest.raises(IndexError):
        x[[0.5]]


@pytest.mark.strict_semantics
@pytest.mark.parametrize("call,cls", [c[1:] for c in STRICT_REFUSALS],
                         ids=[c[0] for c in STRICT_REFUSALS])
def test_strict_mode_refuses(xp, call, cls):
    with pytest.raises(cls):
        call(xp)


@pytest.mark.parametrize("call", [c[1] for c in STRICT_REFUSALS],
                         ids=[c[0] for c in STRICT_REFUSALS])
def test_compatible_mode_answers(xp, call):
    call(xp)


def test_mode_switches(xp):
    assert numr_array_api.get_semantics() == "compatible"
    x = xp.asarray([1])
    with numr_array_api.semantics("strict"):
        assert numr_array_api.get_semantics() == "strict"
        with pytest.raises(DTypeMismatch, match="compatible semantics"):
            x + xp.asarray([1.5])
        with numr_array_api.semantics("compatible"):
            assert float((x + xp.asarray([1.5]))[0]) == 2.5
    previous = numr_array_api.set_semantics("strict")
    try:
        assert previous == "compatible"
        with pytest.raises(TypeError):
            x + 1.5
    finally:
        numr_array_api.set_semantics(previous)
    assert float((x + 1.5)[0]) == 2.5
    with pytest.raises(ValueError, match="semantics"):
        numr_array_api.set_semantics("numpy")


def test_scoped_mode_belongs_to_its_thread(xp):
    seen = {}
    started, release = threading.Event(), threading.Event()

    def other():
        started.wait()
        seen["mode"] = numr_array_api.get_semantics()
        seen["sum"] = float((xp.asarray([1]) + 0.5)[0])
        release.set()

    t = threading.Thread(target=other)
    t.start()
    with numr_array_api.semantics("strict"):
        started.set()
        release.wait(30)
    t.join(30)
    assert seen == {"mode": "compatible", "sum": 1.5}


def test_environment_variable_sets_the_starting_mode():
    code = ("import numr_array_api, numr_array_api.cpu as xp\n"
            "print(numr_array_api.get_semantics())\n"
            "try:\n    xp.asarray([1]) + 1.5\nexcept TypeError:\n    print('refused')\n")
    env = dict(os.environ, NUMR_SEMANTICS="strict")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.stdout.split() == ["strict", "refused"], out.stderr
    env["NUMR_SEMANTICS"] = "loose"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode != 0 and "NUMR_SEMANTICS" in out.stderr
