"""pytest plugin: run scikit-learn's / SciPy's own array-API tests on a numr namespace.

Loaded by conformance/consumers/run.py (``-p plugin`` with this folder on sys.path). It is
configured through the environment:

    NUMR_CONSUMERS_SUITE    sklearn | scipy
    NUMR_CONSUMERS_BACKEND  cpu | webgpu | cuda      (the namespace numr_array_api.<backend>)
    NUMR_CONSUMERS_LOG      JSON-lines file: one record per test start and per test outcome
    NUMR_CONSUMERS_EXCLUDE  optional file of node ids to deselect (tests already run before a
                            crashed worker was restarted, and the crashing test itself)
    NUMR_CONSUMERS_TEST_TIMEOUT  seconds one test may run before the worker is killed (a hang
                            is then recorded as a crash of that test); default 300
    NUMR_CONSUMERS_CPU_ONLY_TESTS=1  SciPy: numr's GPU namespaces also run the tests SciPy
                            marks CPU-only (run.py --cpu-only-tests)
    NUMR_CONSUMERS_SCIPY_ROUTES=1    SciPy: numr_array_api.scipy.enable() at configure time
                            (run.py --scipy-routes)

What it changes in the suites, and nothing else:

- scikit-learn parametrises its array-API tests at import time through
  ``sklearn.utils._array_api.yield_namespaces`` / ``yield_namespace_device_dtype_combinations``
  / ``yield_mixed_namespace_input_permutations``. They are replaced (before any test module is
  imported) by generators that yield array-api-strict exactly as scikit-learn does (the
  baseline) and the numr namespace on its devices with float64 and float32; the NumPy, CuPy,
  PyTorch and dpnp entries are dropped (this run is about numr; strict is the reference).
  scikit-learn has no generic GPU skip list: it skips by namespace / device name, and float64
  through ``_max_precision_float_dtype``, which reads numr's info API.
- SciPy parametrises the ``xp`` fixture of scipy/conftest.py over ``xp_available_backends``.
  The fixture's parameters become [array_api_strict, numr namespace]; numr's module name is
  added to the conftest's ``xp_known_backends`` so that ``np_only`` markers skip it, and, for
  a GPU namespace, to ``xp_skip_cpu_only_backends`` so that ``skip_xp_backends(cpu_only=True)``
  / ``xfail_xp_backends(cpu_only=True)`` apply to it exactly as to CuPy or a CUDA PyTorch.
  A marker naming a backend (``skip_xp_backends("array_api_strict", ...)``) names strict, not
  numr: numr runs those tests, and the runner reports a numr failure there as "the suite skips
  strict by name".
"""

import faulthandler
import json
import os
import sys
import time
import traceback

import pytest

SUITE = os.environ.get("NUMR_CONSUMERS_SUITE", "")
BACKEND = os.environ.get("NUMR_CONSUMERS_BACKEND", "cpu")
NUMR_NS = f"numr_array_api.{BACKEND}"
STRICT_NS = "array_api_strict"
GPU = BACKEND in ("webgpu", "cuda")
_LOG_PATH = os.environ.get("NUMR_CONSUMERS_LOG")
# SciPy: run its CPU-only tests on numr's GPU namespaces too; route SciPy to numr
CPU_ONLY_TESTS = os.environ.get("NUMR_CONSUMERS_CPU_ONLY_TESTS") == "1"
SCIPY_ROUTES = os.environ.get("NUMR_CONSUMERS_SCIPY_ROUTES") == "1"
_TIMEOUT = float(os.environ.get("NUMR_CONSUMERS_TEST_TIMEOUT", "300"))

_log = open(_LOG_PATH, "a", buffering=1) if _LOG_PATH else None


def _emit(rec):
    if _log is not None:
        # flushed to the kernel: a worker that dies afterwards cannot lose the record
        _log.write(json.dumps(rec) + "\n")
        _log.flush()


def numr_devices():
    """numr's devices for the float64 and float32 runs, as the strings sklearn passes to
    ``asarray(device=...)``: both on the default device. NUMR_CONSUMERS_SECOND_DEVICE=1 puts
    the float32 run on the second device (as strict's ``device1``). Not the default: on
    lavapipe the second WebGPU adapter is Mesa's OpenGL backend, which lacks int64, and
    scikit-learn's labels are int64 (BackendLimitation in most tests)."""
    import importlib

    xp = importlib.import_module(NUMR_NS)
    info = xp.__array_namespace_info__()
    default = info.default_device()
    devs = [str(d) for d in info.devices()]
    first = str(default) if default is not None else devs[0]
    others = [d for d in devs if d != first]
    if os.environ.get("NUMR_CONSUMERS_SECOND_DEVICE") == "1" and others:
        return first, others[0]
    return first, first


# --------------------------------------------------------------------------- scikit-learn
def _patch_sklearn():
    import sklearn.utils._array_api as aa

    dev64, dev32 = numr_devices()

    def yield_namespaces(include_numpy_namespaces=True):
        yield STRICT_NS
        yield NUMR_NS

    def yield_namespace_device_dtype_combinations(include_numpy_namespaces=True):
        # strict exactly as scikit-learn yields it: the baseline ids stay the upstream ones
        yield STRICT_NS, "CPU_DEVICE", "float64"
        yield STRICT_NS, "device1", "float32"
        yield NUMR_NS, dev64, "float64"
        yield NUMR_NS, dev32, "float32"

    def yield_mixed_namespace_input_permutations():
        ND = aa.NamespaceAndDevice
        # strict twins of the numr <-> NumPy pairs (scikit-learn's own list pairs strict only
        # with PyTorch), so that those numr tests have a baseline
        yield ND(STRICT_NS, "CPU_DEVICE"), ND("numpy", None), "array_api_strict CPU_DEVICE to numpy"
        yield ND("numpy", None), ND(STRICT_NS, "CPU_DEVICE"), "numpy to array_api_strict CPU_DEVICE"
        yield ND(NUMR_NS, dev64), ND("numpy", None), f"{NUMR_NS} {dev64} to numpy"
        yield ND("numpy", None), ND(NUMR_NS, dev64), f"numpy to {NUMR_NS} {dev64}"
        yield (ND(STRICT_NS, "device1"), ND(NUMR_NS, dev32),
               f"array_api_strict device1 to {NUMR_NS} {dev32}")
        # its strict twin: strict on another device
        yield (ND(STRICT_NS, "device1"), ND(STRICT_NS, "CPU_DEVICE"),
               "array_api_strict device1 to array_api_strict CPU_DEVICE")

    aa.yield_namespaces = yield_namespaces
    aa.yield_namespace_device_dtype_combinations = yield_namespace_device_dtype_combinations
    aa.yield_mixed_namespace_input_permutations = yield_mixed_namespace_input_permutations
    # estimator_checks imported the originals by name before this plugin ran (sklearn's own
    # conftest imports it): rebind them there too.
    import sklearn.utils.estimator_checks as ec

    for name in ("yield_namespaces", "yield_namespace_device_dtype_combinations",
                 "yield_mixed_namespace_input_permutations"):
        if hasattr(ec, name):
            setattr(ec, name, getattr(aa, name))


# --------------------------------------------------------------------------- SciPy
_scipy_done = False


def _scipy_conftest(config):
    for plugin in config.pluginmanager.get_plugins():
        if hasattr(plugin, "xp_available_backends") and hasattr(plugin, "xp_known_backends"):
            return plugin
    return None


def _patch_scipy_conftest(conftest):
    global _scipy_done
    if _scipy_done:
        return
    _scipy_done = True
    conftest.xp_known_backends.add(NUMR_NS)
    if GPU and not CPU_ONLY_TESTS:
        conftest.xp_skip_cpu_only_backends.add(NUMR_NS)


@pytest.hookimpl(tryfirst=True)
def pytest_generate_tests(metafunc):
    if SUITE != "scipy" or "xp" not in metafunc.fixturenames:
        return
    defs = metafunc._arg2fixturedefs.get("xp", ())
    if not defs or defs[-1].params is None:
        return
    conftest = _scipy_conftest(metafunc.config)
    if conftest is not None:
        _patch_scipy_conftest(conftest)
    _adapt_devices_fixture(metafunc)
    fd = defs[-1]
    ids = [getattr(p, "id", None) for p in fd.params]
    if NUMR_NS in ids and len(ids) == 2:
        return
    import importlib

    strict = [p for p in fd.params if getattr(p, "id", None) == STRICT_NS]
    numr = pytest.param(importlib.import_module(NUMR_NS), id=NUMR_NS,
                        marks=pytest.mark.array_api_backends)
    fd.params = tuple(strict) + (numr,)


def _adapt_devices_fixture(metafunc):
    """SciPy's ``devices`` fixture returns ``info.devices() + [None]``: it assumes the list
    of the 2024.12 standard (array-api-strict is pinned to 2024.12 there). numr implements
    2025.12, where ``devices()`` is a tuple, and the concatenation raises TypeError before the
    test starts. For numr namespaces only, the fixture gets ``list(devices()) + [None]``: the
    same devices, so the test itself runs unchanged. (Recorded in the results as a harness
    adaptation.)"""
    defs = metafunc._arg2fixturedefs.get("devices", ())
    if not defs:
        return
    fd = defs[-1]
    if getattr(fd.func, "_numr_adapted", False):
        return
    orig = fd.func

    def devices(xp):
        if getattr(xp, "__name__", "").startswith("numr_array_api."):
            return list(xp.__array_namespace_info__().devices()) + [None]
        return orig(xp)

    devices._numr_adapted = True
    fd.func = devices


_ASSERTIONS = ("assert_allclose", "assert_array_equal", "assert_equal", "assert_array_less",
               "assert_array_almost_equal", "assert_almost_equal",
               "assert_array_almost_equal_nulp", "assert_array_max_ulp")


def _let_assertions_read_results():
    """Under host conversion "raise" a test's own check still reads results to the host:
    numpy.testing's assertions (which SciPy's xp_assert_* end in for namespaces other than
    CuPy and PyTorch) run with conversion allowed, so the policy judges the code under test."""
    import numr_array_api as numr
    if numr.get_host_conversion() != "raise":
        return
    import functools

    import numpy.testing as npt

    for name in _ASSERTIONS:
        f = getattr(npt, name, None)
        if f is None or getattr(f, "_numr_reads", False):
            continue

        def reading(*args, _f=f, **kwargs):
            with numr.host_conversion("allow"):
                return _f(*args, **kwargs)

        functools.update_wrapper(reading, f)
        reading._numr_reads = True
        setattr(npt, name, reading)
    _let_test_code_read_results()


def _let_test_code_read_results():
    """Under "raise", a conversion asked for by the test's own code (``np.asarray(result)``
    in a test body: its check, not the code under test) is allowed; one asked for anywhere
    else (SciPy's functions) still raises. The asker is the first frame outside numr and
    NumPy; test code is a file in a ``tests`` folder."""
    from numr_array_api._core import array as numr_array
    original = numr_array.check_host_conversion
    if getattr(original, "_numr_tests_read", False):
        return

    def check(device, what):
        f = sys._getframe(1)
        while f is not None:
            path = f.f_code.co_filename.replace("\\", "/")
            if "/numr_array_api/" not in path and "/numpy/" not in path:
                if "/tests/" in path:
                    return None
                break
            f = f.f_back
        return original(device, what)

    check._numr_tests_read = True
    numr_array.check_host_conversion = check


HARNESS_ADAPTATIONS = [
    "under host conversion 'raise', numpy.testing's assertions and the test files' own code "
    "read results with conversion allowed (a test's check is not the code under test; a "
    "conversion inside SciPy still raises)",
    "SciPy's `devices` fixture: `list(info.devices()) + [None]` for numr namespaces (SciPy "
    "concatenates a list; numr's `devices()` is the tuple of the 2025.12 standard)",
]


# --------------------------------------------------------------------------- both
# Under pytest-xdist (run.py --workers N) the workers run the tests and write their records;
# the controller writes only the session end and the tests whose worker died (xdist reports
# those as failures "worker 'gwN' crashed while running ...", then replaces the worker).
_role = "single"


def pytest_configure(config):
    global _role
    if hasattr(config, "workerinput"):
        _role = "worker"
    elif getattr(config.option, "numprocesses", None):
        _role = "controller"
    if SUITE == "sklearn":
        _patch_sklearn()
    if SUITE == "scipy" and SCIPY_ROUTES:
        import numr_array_api.scipy
        numr_array_api.scipy.enable()
    _let_assertions_read_results()
    _emit({"event": "configure", "suite": SUITE, "backend": BACKEND, "pid": os.getpid(),
           "time": time.time()})


def pytest_collection_modifyitems(config, items):
    path = os.environ.get("NUMR_CONSUMERS_EXCLUDE")
    if not path or not os.path.exists(path):
        _emit({"event": "collected", "n": len(items)})
        return
    with open(path) as f:
        drop = {line.rstrip("\n") for line in f if line.strip()}
    keep = [it for it in items if it.nodeid not in drop]
    deselected = [it for it in items if it.nodeid in drop]
    if deselected:
        config.hook.pytest_deselected(items=deselected)
    items[:] = keep
    _emit({"event": "collected", "n": len(items), "excluded": len(deselected)})


_current = {}


def _frames(tb):
    """(innermost frame overall, innermost numr frame, innermost consumer frame) as
    'path:line in func', paths shortened to their package."""
    inner = numr = consumer = None
    for fs in traceback.extract_tb(tb):
        p = fs.filename.replace("\\", "/")
        short = p
        for pkg in ("numr_array_api/", "sklearn/", "scipy/", "array_api_compat/",
                    "array_api_extra/", "array_api_strict/", "numpy/"):
            i = p.rfind("/" + pkg)
            if i >= 0:
                short = p[i + 1:]
                break
        where = f"{short}:{fs.lineno} in {fs.name}"
        inner = where
        if "numr_array_api/" in p:
            numr = where
        elif ("/sklearn/" in p or "/scipy/" in p) and "/tests/" not in p \
                and "/_testing" not in p and "estimator_checks" not in p:
            consumer = where
    return inner, numr, consumer


def _strict_mentions(item):
    """Lines of the test function (and of the test class's setup) that single out
    array-api-strict by name, e.g. ``if is_array_api_strict(xp): <another expectation>``:
    then strict's pass says nothing about numr's failure."""
    import inspect

    fn = getattr(item, "function", None)
    if fn is None:
        return []
    try:
        src = inspect.getsource(fn)
    except (OSError, TypeError):
        return []
    return [line.strip() for line in src.splitlines()
            if "array_api_strict" in line or "is_array_api_strict" in line][:3]


_PEERS = ("cupy", "torch")


def _peer_markers(item):
    """The test's skip / xfail markers that name CuPy or PyTorch (``skip_xp_backends("cupy",
    reason=...)``): a failure of numr there is one its GPU peers are excused from by name."""
    out = []
    for m in item.iter_markers():
        if m.name in ("skip_xp_backends", "xfail_xp_backends") and \
                any(a in _PEERS for a in m.args):
            out.append(f"{m.name}({', '.join(repr(a) for a in m.args)}, "
                       f"reason={m.kwargs.get('reason', '')!r})")
    return out


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    if call.excinfo is not None and rep.outcome == "failed" and not hasattr(rep, "wasxfail"):
        e = call.excinfo
        msg = str(e.value).strip().splitlines()
        inner, numr, consumer = _frames(e.tb)
        _current.setdefault(item.nodeid, {}).setdefault("exc", {
            "strict_in_test": _strict_mentions(item),
            "peers_by_name": _peer_markers(item),
            "type": e.typename,
            "message": (msg[0] if msg else "")[:400],
            "where": inner,
            "numr_frame": numr,
            "consumer_frame": consumer,
            "when": call.when,
        })


def pytest_runtest_logstart(nodeid, location):
    if _role == "controller":
        return
    _current[nodeid] = {}
    _emit({"event": "start", "id": nodeid, "time": time.time()})
    # A hung test is killed with a traceback on stderr; the runner records it as a crash.
    # (under xdist the controller then reports the worker as crashed)
    faulthandler.dump_traceback_later(_TIMEOUT, exit=True)


def pytest_runtest_logreport(report):
    if _role == "controller":
        text = str(getattr(report, "longrepr", "") or "")
        if report.failed and "crashed while running" in text:
            _emit({"event": "finish", "id": report.nodeid, "outcome": "crashed",
                   "exc": {"type": "worker died", "message": text.strip().splitlines()[-1][:400],
                           "where": None, "numr_frame": None, "consumer_frame": None}})
        return
    st = _current.setdefault(report.nodeid, {})
    if report.when == "call" or report.outcome != "passed":
        if hasattr(report, "wasxfail"):
            res = "xpassed" if report.outcome == "passed" else "xfailed"
            st.setdefault("reason", str(report.wasxfail)[:300])
        elif report.outcome == "skipped":
            res = "skipped"
            if isinstance(report.longrepr, tuple) and len(report.longrepr) == 3:
                st.setdefault("reason", str(report.longrepr[2])[:300])
        elif report.outcome == "failed":
            res = "failed" if report.when == "call" else "error"
        else:
            res = "passed"
        # the first non-passing phase decides (a teardown error after a pass is an error)
        if st.get("outcome") in (None, "passed"):
            st["outcome"] = res
    st["duration"] = st.get("duration", 0.0) + getattr(report, "duration", 0.0)


def pytest_runtest_logfinish(nodeid, location):
    if _role == "controller":
        return
    faulthandler.cancel_dump_traceback_later()
    st = _current.pop(nodeid, {})
    rec = {"event": "finish", "id": nodeid, "outcome": st.get("outcome", "passed"),
           "duration": round(st.get("duration", 0.0), 3)}
    if "reason" in st:
        rec["reason"] = st["reason"]
    if "exc" in st and rec["outcome"] in ("failed", "error"):
        rec["exc"] = st["exc"]
    _emit(rec)


def pytest_sessionfinish(session, exitstatus):
    faulthandler.cancel_dump_traceback_later()
    if _role == "worker":
        return
    _emit({"event": "sessionfinish", "exitstatus": int(exitstatus), "time": time.time()})


def pytest_unconfigure(config):
    if _log is not None:
        _log.flush()
