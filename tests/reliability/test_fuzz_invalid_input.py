"""Invalid input fuzzing: every public function of every namespace (cpu, webgpu,
cuda when present) and of ``numr_array_api.ext``, called with Hypothesis-drawn arguments
(wrong types, dtypes, shapes, axes, devices, indices, keywords, huge sizes), either raises a
``NumrError`` or succeeds with NumPy's values; the process survives and a normal op works
after every call.

Arguments are drawn per parameter name (``x``, ``axis``, ``dtype``, ``device``, ...) from
pools that mix valid and invalid values, so one strategy serves every function and a new
function is fuzzed as soon as it is listed. ``test_coverage_is_every_public_name`` fails when
a namespace gains a public name this file does not classify.

A call whose arguments do not bind to the signature (an unknown keyword) raises Python's
own TypeError, as any Python function does; that is the one non-numr error accepted.

Profiles: NUMR_STRESS=ci (default) draws FUZZ_EXAMPLES examples per function; full draws
many more (see conftest.py).
"""

import inspect
import math
import os
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import numr_array_api
import numr_array_api.ext as ext
from numr_array_api.errors import NumrError

from .conftest import root_conftest, sized

probe_backend = root_conftest().probe_backend
selected_backends = root_conftest().selected_backends

pytestmark = pytest.mark.filterwarnings("ignore")

# NUMR_FUZZ_EXAMPLES overrides the profile (the GPU acceptance script sets it)
FUZZ_EXAMPLES = int(os.environ.get("NUMR_FUZZ_EXAMPLES") or sized(3, 60))

# ---- the coverage list ---------------------------------------------------------------------
# Public names that are not functions: dtypes, constants, classes, submodules.
NOT_FUNCTIONS = frozenset({
    "Array", "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64", "complex64", "complex128", "e", "inf", "nan", "newaxis",
    "pi", "linalg", "fft", "ArrayGraph", "HostFallbackWarning", "HostReadWarning", "runtime",
})

# Functions beyond the standard, by namespace (fuzzed like the others). NumPy's
# nan-reductions are in every namespace (docs/semantics.md).
NAN_FUNCTIONS = frozenset("""nansum nanprod nanmean nanvar nanstd nanmax nanmin nanargmax
nanargmin nancumsum nancumprod""".split())
RUNTIME_EXTRAS = {
    "webgpu": frozenset({"capabilities", "capture_graph", "custom_kernel", "empty_cache",
                         "memory_stats", "raw_handle", "set_memory_limit", "synchronize",
                         "set_fusion", "get_fusion", "fusion", "fusion_stats"}),
    "cuda": frozenset({"capture_graph", "copy_from_device_pipelined", "custom_kernel",
                       "empty_cache", "memory_stats", "preload", "raw_handle",
                       "set_memory_limit", "synchronize", "warmup_sobol"}),
}

STANDARD = frozenset("""
abs acos acosh add all any arange argmax argmin argsort asarray asin asinh astype atan atan2
atanh bitwise_and bitwise_invert bitwise_left_shift bitwise_or bitwise_right_shift bitwise_xor
broadcast_arrays broadcast_shapes broadcast_to can_cast ceil clip concat conj copysign cos cosh
count_nonzero cumulative_prod cumulative_sum diff divide empty empty_like equal exp expand_dims
expm1 eye finfo flip floor floor_divide from_dlpack full full_like greater greater_equal hypot
iinfo imag isdtype isfinite isin isinf isnan less less_equal linspace log log10 log1p log2
logaddexp logical_and logical_not logical_or logical_xor matmul matrix_transpose max maximum
mean meshgrid min minimum moveaxis multiply negative nextafter nonzero not_equal ones ones_like
permute_dims positive pow prod real reciprocal remainder repeat reshape result_type roll round
searchsorted sign signbit sin sinh sort sqrt square squeeze stack std subtract sum take
take_along_axis tan tanh tensordot tile tril triu trunc unique_all unique_counts unique_inverse
unique_values unstack var vecdot where zeros zeros_like __array_namespace_info__
""".split())

LINALG = frozenset("""
cholesky cross det diagonal eig eigh eigvals eigvalsh inv matmul matrix_norm matrix_power
matrix_rank matrix_transpose outer pinv qr slogdet solve svd svdvals tensordot trace vecdot
vector_norm
""".split())

FFT = frozenset("""
fft fftfreq fftn fftshift hfft ifft ifftn ifftshift ihfft irfft irfftn rfft rfftfreq rfftn
""".split())

EXT = {"linalg": frozenset({"gemm_epilogue", "gemm_epilogue_bwd"}),
       "random": frozenset({"sobol", "halton", "latin_hypercube"}),
       "reductions": frozenset({"nansum", "nanmean"})}
EXT_CONSTANTS = frozenset({"ACTIVATIONS", "SOBOL_MAX_DIM", "HALTON_MAX_DIM"})

# Results compared with NumPy's function of the same name (when NumPy succeeds too): pure
# functions whose value is determined by the inputs (not empty*, not decompositions with
# sign / order freedom, not the sets' order).
NOT_COMPARED = frozenset({
    "empty", "empty_like", "asarray", "from_dlpack", "__array_namespace_info__", "finfo",
    "iinfo", "result_type", "can_cast", "isdtype", "unique_all", "unique_counts",
    "unique_inverse", "unique_values", "eig", "eigh", "eigvals", "eigvalsh", "svd", "qr",
    "cholesky", "pinv", "matrix_rank", "inv", "solve", "det", "slogdet", "matrix_power",
    "argsort", "sort", "argmax", "argmin", "std", "var", "mean", "sum", "prod",
    "cumulative_sum", "cumulative_prod", "linspace", "arange", "searchsorted", "nonzero",
    "meshgrid", "broadcast_arrays", "unstack", "matrix_norm", "vector_norm", "svdvals",
    "hfft", "ihfft", "irfft", "irfftn", "rfftn", "fftn", "ifftn", "pow", "copysign",
    "nextafter", "remainder", "floor_divide", "divide", "logaddexp", "hypot", "atan2",
    "bitwise_left_shift", "bitwise_right_shift", "round", "astype",
})


def _backends():
    out = []
    for name in selected_backends():
        mod, reason = probe_backend(name)
        out.append(pytest.param(name, id=name,
                                marks=[] if mod else [pytest.mark.skip(reason=reason)]))
    return out


def _public(m):
    return {k for k in dir(m) if not k.startswith("_")} | (
        {"__array_namespace_info__"} if hasattr(m, "__array_namespace_info__") else set())


def covered(backend):
    """(qualified function name -> callable) for one namespace, by the coverage list."""
    xp = probe_backend(backend)[0]
    names = {n: getattr(xp, n) for n in STANDARD | NAN_FUNCTIONS |
             RUNTIME_EXTRAS.get(backend, frozenset())}
    names.update({f"linalg.{n}": getattr(xp.linalg, n) for n in LINALG})
    names.update({f"fft.{n}": getattr(xp.fft, n) for n in FFT})
    return names


def covered_ext():
    return {f"ext.{m}.{n}": getattr(getattr(ext, m), n) for m, ns in EXT.items() for n in ns}


@pytest.mark.parametrize("backend", _backends())
def test_coverage_is_every_public_name(backend):
    xp = probe_backend(backend)[0]
    extras = RUNTIME_EXTRAS.get(backend, frozenset()) | NAN_FUNCTIONS
    assert _public(xp) - NOT_FUNCTIONS == STANDARD | extras, (
        "a public function of the namespace is missing from (or stale in) the fuzz coverage "
        "list", sorted((_public(xp) - NOT_FUNCTIONS) ^ (STANDARD | extras)))
    assert _public(xp.linalg) == LINALG
    assert _public(xp.fft) == FFT
    assert set(covered(backend)) >= {n for n in STANDARD}


def test_ext_coverage_is_every_public_name():
    for m, names in EXT.items():
        mod = getattr(ext, m)
        assert set(mod.__all__) - EXT_CONSTANTS == names, (m, sorted(mod.__all__))
        assert {k for k in dir(mod) if not k.startswith("_") and callable(getattr(mod, k))
                and getattr(getattr(mod, k), "__module__", "").startswith(mod.__name__)} \
            <= names | EXT_CONSTANTS


# ---- argument pools --------------------------------------------------------------------------
class Opaque:
    """An object no function accepts."""

    def __repr__(self):
        return "Opaque()"


HUGE_INTS = [2 ** 40, 2 ** 62, 2 ** 63, 2 ** 64, 2 ** 70, -(2 ** 63) - 1]
SMALL_INTS = [0, 1, 2, 3, -1, -2, 5, -7]
BAD = [None, "a", Opaque(), 1.5, float("nan"), True, b"ab", {}, [1, [2]], np.float32(1.0),
       np.ones(2), (), 1j]
SHAPES = [(), (0,), (3,), (2, 3), (2, 0), (-1,), (2 ** 40,), (2 ** 62,), (2 ** 40, 2 ** 40),
          (1.5,), ("a",), [2, 3], 3, 0, -3, (2 ** 63,)]
AXES = [None, 0, 1, -1, 2, -3, 5, (0,), (0, 1), (0, 0), (1, -1), 1.5, "a", 2 ** 63, (),
        [0]]
BOOLS = [True, False, None, "a", 2, [1], float("nan"), np.float64(0.0), np.True_, 2 ** 70]
STRINGS = ["a", "", "ortho", "forward", "backward", "left", "right", "xy", "ij", "reduced",
           "complete", "fro", "nuc", "relu", "gelu", "bogus", None, 3]


def _arrays(xp, other):
    """Builders of the array pool for namespace ``xp``: valid arrays of several dtypes and
    shapes, NaN / empty / 0-d / strided edge cases, and arrays of another namespace or
    device (``other``)."""
    A = np.asarray
    f32 = lambda v: xp.asarray(A(v, dtype=np.float32))  # noqa: E731
    pool = [
        lambda: f32(np.arange(6).reshape(2, 3) - 2.5),
        lambda: f32([[4.0, 1.0], [1.0, 3.0]]),
        lambda: f32([1.0, np.nan, -np.inf, 0.0]),
        lambda: f32(2.0),
        lambda: xp.zeros((0, 3), dtype=xp.float32),
        lambda: xp.asarray(A([3, 1, 2, 1], dtype=np.int64)),
        lambda: xp.asarray(A([[0, 1, 1], [1, 0, 0]], dtype=np.int32)),
        lambda: xp.asarray(A([200, 0, 7], dtype=np.uint8)),
        lambda: xp.asarray(A([-128, 5], dtype=np.int8)),
        lambda: xp.asarray(A([[True, False, True], [False, False, True]])),
        lambda: xp.asarray(A([1 + 2j, -1j], dtype=np.complex64)),
        lambda: f32(np.arange(12.0).reshape(3, 4))[:, ::2],
        lambda: xp.broadcast_to(f32([1.0, 2.0, 3.0]), (2, 3)),
        lambda: xp.asarray(A([0, 2, 1], dtype=np.int64)),
        lambda: xp.asarray(A([2 ** 62, -5], dtype=np.int64)),
    ]
    if xp.float64 in xp.__array_namespace_info__().dtypes().values():
        pool.append(lambda: xp.asarray(A([0.5, -1e300, 3.0])))
    pool += other
    return pool


def _others(backend):
    """Arrays the namespace must refuse with DeviceMismatch: another namespace's, another
    device's."""
    out = []
    xp = probe_backend(backend)[0]
    for name in ("cpu", "webgpu"):
        mod = probe_backend(name)[0] if name in selected_backends() else None
        if mod is not None and mod is not xp:
            out.append(lambda m=mod: m.asarray(np.arange(3, dtype=np.float32)))
    devices = xp.__array_namespace_info__().devices()
    if len(devices) > 1:
        out.append(lambda: xp.asarray(np.arange(3, dtype=np.float32), device=devices[1]))
    return out


def _dtypes(xp):
    return [xp.float32, xp.int64, xp.int8, xp.uint8, xp.bool, xp.complex64, xp.int32,
            "float32", np.float32, np.dtype("float32"), None, 5, xp.float64]


def _devices(xp):
    info = xp.__array_namespace_info__()
    return list(info.devices()) + [None, "cpu", "cpu:1", "webgpu:9", "cuda:0", "cuda:99",
                                   "bogus", 3, info.default_device()]


ARRAY_PARAMS = {"x", "x1", "x2", "a", "b", "grad", "bias", "residual", "condition", "indices",
                "obj", "min", "max", "sorter", "prepend", "append", "rtol", "repeats",
                "from_", "to", "fill_value", "type", "arrays", "arrays_and_dtypes", "start",
                "stop", "step", "inputs", "outputs", "example_inputs", "ord"}
INT_PARAMS = {"n", "k", "n_rows", "n_cols", "num", "shift", "offset", "bits", "skip", "seed",
              "d", "source", "destination", "correction", "workgroups", "s", "repetitions"}
BOOL_PARAMS = {"keepdims", "endpoint", "copy", "stable", "descending", "invert",
               "include_initial", "upper", "full_matrices", "scramble"}
STR_PARAMS = {"norm", "mode", "side", "indexing", "activation", "kind", "entry_point",
              "wgsl_source", "params", "overrides"}


def param_strategy(name, xp, arrays):
    """Values for a parameter called ``name``: mostly those of its kind, some of any kind."""
    arr = st.sampled_from(arrays).map(lambda f: f())
    bad = st.sampled_from(BAD)
    ints = st.sampled_from(SMALL_INTS + HUGE_INTS)
    if name in ("shape", "shapes"):
        kind = st.sampled_from(SHAPES)
    elif name in ("axis", "axes"):
        # arrays where an int is expected: refused with a numr error naming the argument
        kind = st.one_of(st.sampled_from(AXES), st.just(((0,), (0,))), st.just((1, 0)),
                         arr)
    elif name == "dtype":
        kind = st.sampled_from(_dtypes(xp))
    elif name == "device":
        kind = st.sampled_from(_devices(xp))
    elif name == "xp":
        kind = st.sampled_from([xp, None, "a", np])
    elif name == "fn":
        kind = st.sampled_from([lambda a: a + 1, lambda a: a.bogus, "a", None])
    elif name in BOOL_PARAMS:
        kind = st.sampled_from(BOOLS)
    elif name in STR_PARAMS:
        kind = st.sampled_from(STRINGS)
    elif name in INT_PARAMS:
        kind = st.one_of(ints, st.sampled_from(SHAPES), arr)
    elif name in ("arrays", "arrays_and_dtypes", "inputs", "outputs"):
        kind = st.lists(st.one_of(arr, st.sampled_from(_dtypes(xp))), max_size=3).map(
            lambda v: v if len(v) % 2 else tuple(v))
    elif name in ARRAY_PARAMS:
        kind = st.one_of(arr, ints, st.sampled_from([1.0, True, -0.5, 1j]))
    else:
        kind = st.one_of(arr, ints)
    return st.one_of(kind, kind, kind, bad, arr, ints)


@st.composite
def calls(draw, fn, xp, arrays):
    """(args, kwargs) for ``fn``: each parameter drawn from its pool, optional ones
    sometimes left out, and rarely an unknown keyword."""
    args, kwargs = [], {}
    sig = inspect.signature(fn)
    P = inspect.Parameter
    skipping = False
    for p in sig.parameters.values():
        optional = p.default is not P.empty or p.kind in (P.VAR_POSITIONAL, P.VAR_KEYWORD)
        if optional and draw(st.booleans()):
            if p.kind in (P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD):
                skipping = True  # later positionals go by keyword (or not at all)
            continue
        if p.kind is P.VAR_POSITIONAL:
            args.extend(draw(st.lists(param_strategy(p.name, xp, arrays), max_size=3)))
        elif p.kind is P.VAR_KEYWORD:
            continue
        elif p.kind is P.KEYWORD_ONLY or (p.kind is P.POSITIONAL_OR_KEYWORD and skipping):
            kwargs[p.name] = draw(param_strategy(p.name, xp, arrays))
        elif p.kind is P.POSITIONAL_ONLY and skipping:
            break
        else:
            args.append(draw(param_strategy(p.name, xp, arrays)))
    if draw(st.integers(0, 19)) == 0:
        kwargs["bogus_keyword"] = 1
    return args, kwargs


# ---- the property ----------------------------------------------------------------------------
def _host(v):
    if isinstance(v, numr_array_api.Array):
        return np.asarray(v._ctx.be.to_numpy(v._data))
    return v


def _np_arg(v):
    if isinstance(v, numr_array_api.Array):
        return _host(v)
    if type(v) is list or type(v) is tuple:
        return type(v)(_np_arg(b) for b in v)
    np_dtype = getattr(v, "np", None)
    if np_dtype is not None and not isinstance(v, np.ndarray):
        return np_dtype
    return v


def _numpy_function(qualname):
    mod = np
    *path, name = qualname.split(".")
    for part in path:
        mod = getattr(mod, part, None)
        if mod is None:
            return None
    return getattr(mod, name, None)


def _same(got, want, qualname):
    if isinstance(got, (tuple, list)):
        assert isinstance(want, (tuple, list)) and len(got) == len(want), qualname
        for g, w in zip(got, want):
            _same(g, w, qualname)
        return
    g = _host(got)
    if not isinstance(g, np.ndarray) or not isinstance(want, (np.ndarray, np.generic)):
        return
    w = np.asarray(want)
    assert g.shape == w.shape, f"{qualname}: shape {g.shape}, NumPy {w.shape}"
    if g.size == 0 or g.dtype.kind not in "biufc" or w.dtype.kind not in "biufc":
        return
    loose = np.float32 in (g.dtype, w.dtype) or np.complex64 in (g.dtype, w.dtype)
    gv, wv = g.astype(np.complex128), w.astype(np.complex128)
    ok = np.isclose(gv, wv, rtol=1e-3 if loose else 1e-9, atol=1e-5 if loose else 1e-12,
                    equal_nan=True)
    assert ok.all(), f"{qualname}: {g!r} differs from NumPy's {w!r}"


# NUMR_FUZZ_TRACE=path appends every call to that file before making it: after a crash or a
# poisoned device context, the file's last lines name the call that did it
_TRACE = os.environ.get("NUMR_FUZZ_TRACE")


CALLS = []  # one entry per fuzzed call, for the count printed at the module's end


@pytest.fixture(scope="module", autouse=True)
def _report_call_count():
    yield
    print(f"\nfuzz: {len(CALLS)} calls checked on one backend each, "
          f"{len(OUTCOME_CALLS)} calls compared across backends")


def check_call(qualname, fn, args, kwargs, compare=True):
    CALLS.append(qualname)
    if _TRACE:
        with open(_TRACE, "a") as f:
            f.write(f"{os.getpid()} {qualname}{_show(args, kwargs)}\n")
    try:
        inspect.signature(fn).bind(*args, **kwargs)
        binds = True
    except TypeError:
        binds = False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = fn(*args, **kwargs)
    except NumrError:
        return
    except TypeError as e:
        if not binds:
            return  # Python's own signature check
        raise AssertionError(f"{qualname}{_show(args, kwargs)} raised a plain TypeError: {e}")
    except Exception as e:
        raise AssertionError(f"{qualname}{_show(args, kwargs)} raised {type(e).__name__}, "
                             f"not a NumrError: {e}") from e
    assert binds, f"{qualname} accepted arguments that do not bind to its signature"
    short = qualname.split(".")[-1]
    if not compare or short in NOT_COMPARED or qualname.startswith("ext."):
        return
    if isinstance(got, numr_array_api.Array) and got.size > 10 ** 6:
        return
    ref = _numpy_function(qualname)
    if ref is None:
        return
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            want = ref(*[_np_arg(a) for a in args],
                       **{k: _np_arg(v) for k, v in kwargs.items() if k != "device"})
    except Exception:
        return  # NumPy refuses what numr accepts (stricter or looser rules): nothing to compare
    if _floating_of_integers(got, want, args):
        # the one documented difference (docs/semantics.md): a floating function of integers
        # computes in the default float where NumPy picks float16 / float32 by width
        ft = _host(got).dtype
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            want = ref(*[_np_arg(a).astype(ft) if _is_integral(a) else _np_arg(a)
                         for a in args],
                       **{k: _np_arg(v) for k, v in kwargs.items() if k != "device"})
    _same(got, want, qualname)


def _is_integral(v):
    return isinstance(v, numr_array_api.Array) and v.dtype.kind in "biu"


def _floating_of_integers(got, want, args):
    g = _host(got)
    return (isinstance(g, np.ndarray) and isinstance(want, (np.ndarray, np.generic))
            and g.dtype.kind == "f" and np.asarray(want).dtype.kind == "f"
            and g.dtype.itemsize > np.asarray(want).dtype.itemsize
            and any(_is_integral(a) for a in args))


def _show(args, kwargs):
    def r(v):
        if isinstance(v, numr_array_api.Array):
            return f"<{v.dtype} {v.shape} on {v.device}>"
        if isinstance(v, (list, tuple)):
            return type(v)(r(b) for b in v)
        return v
    parts = [repr(r(a)) for a in args] + [f"{k}={r(v)!r}" for k, v in kwargs.items()]
    return f"({', '.join(parts)})"


def still_works(xp):
    """A normal op after the fuzzed call: the namespace is usable."""
    x = xp.asarray([1.0, 2.0, 3.0], dtype=xp.float32)
    assert float(xp.sum(x * 2)) == 12.0


def _cases():
    out = []
    for p in _backends():
        backend = p.values[0]
        mod = probe_backend(backend)[0]
        if mod is None:
            out.append(pytest.param(backend, "-", marks=p.marks, id=f"{backend}-unavailable"))
            continue
        for name in sorted(covered(backend)):
            out.append(pytest.param(backend, name, id=f"{backend}-{name}"))
    return out


_ARRAYS = {}


def _pool(backend):
    if backend not in _ARRAYS:
        xp = probe_backend(backend)[0]
        _ARRAYS[backend] = _arrays(xp, _others(backend))
    return _ARRAYS[backend]


_SETTINGS = settings(max_examples=FUZZ_EXAMPLES, deadline=None, database=None,
                     derandomize=not sized(False, True),
                     suppress_health_check=list(HealthCheck))


def _reset_memory_limit(xp):
    for d in xp.__array_namespace_info__().devices():
        xp.set_memory_limit(None, device=d)


def _reset_fusion(xp):
    # fusion left on would defer every later test's elementwise work in this worker (an
    # out-of-memory request then fails at its flush instead of its call)
    xp.set_fusion(False)


# functions that change process-wide state on success, and how to undo it after each call
RESET = {"set_memory_limit": _reset_memory_limit, "set_fusion": _reset_fusion,
         "fusion": _reset_fusion}


@pytest.mark.parametrize("backend,qualname", _cases())
def test_fuzz_namespace_function(backend, qualname):
    xp = probe_backend(backend)[0]
    fn = covered(backend)[qualname]
    pool = _pool(backend)
    reset = RESET.get(qualname)

    @_SETTINGS
    @given(call=calls(fn, xp, pool))
    def run(call):
        args, kwargs = call
        try:
            check_call(qualname, fn, args, kwargs)
        finally:
            if reset is not None:
                reset(xp)
        still_works(xp)

    run()


def _ext_cases():
    out = []
    for p in _backends():
        backend = p.values[0]
        if probe_backend(backend)[0] is None:
            continue
        for name in sorted(covered_ext()):
            out.append(pytest.param(backend, name, id=f"{backend}-{name}"))
    return out


@pytest.mark.parametrize("backend,qualname", _ext_cases())
def test_fuzz_ext_function(backend, qualname):
    xp = probe_backend(backend)[0]
    fn = covered_ext()[qualname]
    pool = _pool(backend)

    @_SETTINGS
    @given(call=calls(fn, xp, pool))
    def run(call):
        args, kwargs = call
        check_call(qualname, fn, args, kwargs, compare=False)
        still_works(xp)

    run()


@pytest.mark.parametrize("backend", _backends())
def test_fuzzing_leaves_the_namespace_correct(backend):
    """After a burst of invalid calls, a mixed computation still equals NumPy's."""
    xp = probe_backend(backend)[0]
    for bad in (lambda: xp.sum(xp.ones(3), axis=7), lambda: xp.zeros((2 ** 62,)),
                lambda: xp.asarray(Opaque()), lambda: xp.take(xp.ones(3), xp.asarray([9]))):
        with pytest.raises(NumrError):
            bad()
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = xp.asarray(a)
    got = _host(xp.cumulative_sum(x @ xp.matrix_transpose(x) + 1, axis=1))
    np.testing.assert_allclose(got, np.cumsum(a @ a.T + 1, axis=1), rtol=1e-6)
    assert math.isclose(float(xp.max(x)), 11.0)


# ---- the same outcome on every backend -------------------------------------------------------
def _to(xp, v):
    """``v`` with every numr array rebuilt in namespace ``xp`` (same values and dtype)."""
    if isinstance(v, numr_array_api.Array):
        return xp.asarray(_host(v))
    if type(v) is list or type(v) is tuple:
        return type(v)(_to(xp, b) for b in v)
    if type(v) is dict:
        return {k: _to(xp, b) for k, b in v.items()}
    return v


def _outcome(fn, args, kwargs):
    try:
        inspect.signature(fn).bind(*args, **kwargs)
    except TypeError:
        return "signature"  # Python's own check, as for any function
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            got = fn(*args, **kwargs)
            # read small results back: a GPU namespace's deferred checks (indices in
            # bounds, ...) raise at the read
            for r in got if isinstance(got, tuple) else (got,):
                if isinstance(r, numr_array_api.Array) and r.size < 10 ** 6:
                    _host(r)
    except NumrError as e:
        return type(e).__name__
    except Exception as e:  # noqa: BLE001 - the class is the outcome compared
        return f"{type(e).__name__} (not a NumrError)"
    return "ok"


# Value-dependent errors NumPy raises and a GPU namespace cannot raise without reading the
# data back (CuPy does not either): the outcomes each backend may give, documented where named.
VALUE_DEPENDENT = {
    # docs/webgpu.md "Semantics the kernels guarantee": a negative integer exponent gives 0
    # unless the base is +-1; NumPy (cpu) refuses it
    "pow": {"InvalidArgument", "ok"},
}

OUTCOME_CALLS = []  # (function, backends compared) per drawn call, for the printed count


def _agreeing_cases():
    names = [n for n in ("cpu", "webgpu", "cuda") if n in selected_backends()
             and probe_backend(n)[0] is not None]
    if len(names) < 2:
        return [pytest.param("-", marks=pytest.mark.skip(
            reason="fewer than two backends selected and available"))]
    first = probe_backend(names[0])[0]
    return [pytest.param(q, id=q) for q in sorted(covered(names[0]))
            if q.split(".")[-1] not in RUNTIME_EXTRAS.get(names[0], ())
            and hasattr(first, q.split(".")[0]) and q.split(".")[-1] not in
            ("__array_namespace_info__", "from_dlpack")]


@pytest.mark.parametrize("qualname", _agreeing_cases())
def test_fuzz_outcome_is_the_same_on_every_backend(qualname):
    """A drawn call (hostile values of every kind; no ``device`` argument, arrays rebuilt
    in each namespace) succeeds on every backend or raises the same numr error class on
    every backend. One difference is documented: a BackendLimitation where the other
    backend computes (a dtype or size the adapter lacks)."""
    names = [n for n in ("cpu", "webgpu", "cuda") if n in selected_backends()
             and probe_backend(n)[0] is not None]
    spaces = {n: probe_backend(n)[0] for n in names}
    base = spaces[names[0]]
    fns = {}
    for n, xp in spaces.items():
        obj = xp
        for part in qualname.split("."):
            obj = getattr(obj, part)
        fns[n] = obj
    pool = _arrays(base, [])

    @_SETTINGS
    @given(call=calls(fns[names[0]], base, pool))
    def run(call):
        args, kwargs = call
        kwargs.pop("device", None)
        outs = {n: _outcome(fns[n], _to(xp, args), _to(xp, kwargs))
                for n, xp in spaces.items()}
        OUTCOME_CALLS.append((qualname, len(outs)))
        kinds = {o for o in outs.values() if o != "BackendLimitation"}
        if kinds <= VALUE_DEPENDENT.get(qualname, set()):
            kinds = set()
        assert len(kinds) <= 1, f"{qualname}{_show(args, kwargs)}: {outs}"
        assert not any("not a NumrError" in o for o in outs.values()), \
            f"{qualname}{_show(args, kwargs)}: {outs}"
        for xp in spaces.values():
            still_works(xp)

    run()
