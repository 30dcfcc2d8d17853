"""Shared fixtures of numr's own test suite.

``xp`` is parametrised over every numr namespace: cpu always; webgpu and cuda when the
namespace imports and its ``__array_namespace_info__().devices()`` is non-empty.
Unavailable backends stay in the parametrisation as skipped cases with the reason.

Environment:
  NUMR_TEST_BACKENDS=cpu,webgpu   only these backends (default: all three, unavailable skipped)
  NUMR_HYPOTHESIS_PROFILE=dev|ci|thorough   hypothesis profile (default: ci when CI=true,
                                  else dev); ci: 6 examples, fixed seeds; dev: 40; thorough: 300
  NUMR_HYPOTHESIS_MAX_EXAMPLES=N  override the profile's max_examples (e.g. 10 on slow devices)
  NUMR_TEST_SLOW=1                also run the tests marked ``slow`` (GiB sizes, 2^32-element
                                  reductions, long compiles, whole consumer suites): the
                                  NVIDIA acceptance runs set it; CI and ``bash .ci/test`` skip
                                  them, each with this reason
"""

import faulthandler
import importlib
import os
import signal
import sys

import pytest
from hypothesis import HealthCheck, settings

# .ci/guard.py sends SIGUSR1 when the run reaches its time limit: every process (xdist
# workers included) then prints the stacks of all its threads, naming the tests still running.
if hasattr(signal, "SIGUSR1") and sys.__stderr__ is not None:
    faulthandler.register(signal.SIGUSR1, file=sys.__stderr__, all_threads=True)

from _support import SLOW, requested_backends, unavailable  # noqa: E402  (NUMR_TEST_SLOW=1)
_SLOW_REASON = "slow: runs with NUMR_TEST_SLOW=1 (the NVIDIA acceptance runs)"

_HC = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much,
       HealthCheck.differing_executors]
# ci: few examples and a fixed seed per test (a CI gate must not be flaky); dev: random
# examples, remembered in .hypothesis/ so failures replay; thorough: for bug hunting.
# ci draws 6 examples a test: on lavapipe the first example of a dtype compiles the kernels
# and the others mostly re-run them (the dev profile draws 40 random ones, thorough 300)
settings.register_profile("ci", max_examples=6, deadline=None, print_blob=True,
                          database=None, derandomize=True, suppress_health_check=_HC)
settings.register_profile("dev", max_examples=40, deadline=None, print_blob=True,
                          suppress_health_check=_HC)
settings.register_profile("thorough", max_examples=300, deadline=None, print_blob=True,
                          suppress_health_check=_HC)
_profile = os.environ.get("NUMR_HYPOTHESIS_PROFILE") or (
    "ci" if os.environ.get("CI", "").lower() in ("1", "true", "yes") else "dev")
if os.environ.get("NUMR_HYPOTHESIS_MAX_EXAMPLES"):
    settings.register_profile(f"{_profile}-n", settings.get_profile(_profile),
                              max_examples=int(os.environ["NUMR_HYPOTHESIS_MAX_EXAMPLES"]))
    _profile = f"{_profile}-n"
settings.load_profile(_profile)

ALL_BACKENDS = ("cpu", "webgpu", "cuda")




def selected_backends():
    env = os.environ.get("NUMR_TEST_BACKENDS", "").strip()
    if not env:
        return ALL_BACKENDS
    names = tuple(n.strip().lower() for n in env.split(",") if n.strip())
    unknown = [n for n in names if n not in ALL_BACKENDS]
    if unknown:
        raise pytest.UsageError(f"NUMR_TEST_BACKENDS: unknown backend(s) {unknown}; "
                                f"choose from {ALL_BACKENDS}")
    return names


_PROBED = {}


def probe_backend(name):
    """(module, None) when the namespace is usable, else (None, reason)."""
    if name in _PROBED:
        return _PROBED[name]
    try:
        mod = importlib.import_module(f"numr_array_api.{name}")
    except Exception as e:  # ImportError, BackendUnavailable, driver errors
        res = (None, f"numr_array_api.{name} does not import: {type(e).__name__}: {e}")
    else:
        try:
            devs = mod.__array_namespace_info__().devices()
        except Exception as e:
            res = (None, f"numr_array_api.{name}: devices() failed: {type(e).__name__}: {e}")
        else:
            if len(devs):
                res = (mod, None)
            else:  # the cause: what creating an array on the default device says
                try:
                    mod.zeros(1)
                    why = ""
                except Exception as e:
                    why = f" ({type(e).__name__}: {e})"
                res = (None, f"numr_array_api.{name}: no devices{why}")
    _PROBED[name] = res
    return res


def _backend_params():
    params = []
    for name in selected_backends():
        mod, reason = probe_backend(name)
        marks = [getattr(pytest.mark, name)] if name != "cpu" else []
        if mod is None:
            marks.append(pytest.mark.skip(reason=reason))
        params.append(pytest.param(name, id=name, marks=marks))
    return params


def pytest_sessionstart(session):
    """A backend that NUMR_TEST_BACKENDS names must work: one that cannot be created stops
    the run with the cause (a broken backend must never pass as skipped tests). Backends not
    named are optional: unavailable ones are skipped, with the reason in the summary."""
    broken = []
    for name in requested_backends():
        mod, reason = probe_backend(name)
        if mod is None:
            broken.append(reason)
    if broken:
        raise pytest.UsageError("NUMR_TEST_BACKENDS asks for a backend that cannot be used "
                                "(so its tests would all be skipped):\n  " + "\n  ".join(broken))


# Folders whose tests are kernel checks over parameter grids (dtype x size x layout x ...):
# CI runs a cover of each grid, the GPU runs the whole grid (NUMR_TEST_SLOW=1)
_GRID_FOLDERS = ("webgpu_kernels", "ext")
_GRID_REASON = ("grid: CI runs each value of each parameter once (a cover of this test's "
                "grid); NUMR_TEST_SLOW=1 runs the whole grid")
_BACKEND_PARAMS = ("xp", "backend")


def _grid_cover(items):
    """The items outside a cover of their test's parameter grid: per test function and
    backend, an item is kept while it brings a value of some parameter not seen yet, so each
    value of each parameter runs at least once; tests with one parameter run whole."""
    groups = {}
    for item in items:
        cs = getattr(item, "callspec", None)
        if cs is None or item.get_closest_marker("slow") is not None:
            continue
        parts = item.path.parts
        if "tests" not in parts or parts[parts.index("tests") + 1] not in _GRID_FOLDERS:
            continue
        # values, not indices: one parametrize of several names over a product list is a
        # grid too (repr: values may be unhashable)
        axes = {(k, repr(v)) for k, v in cs.params.items() if k not in _BACKEND_PARAMS}
        if len({k for k, _ in axes}) < 2:
            continue
        key = (str(item.path), item.originalname,
               tuple(repr(cs.params.get(k)) for k in _BACKEND_PARAMS))
        groups.setdefault(key, []).append((item, axes))
    out = []
    for members in groups.values():
        seen = set()
        for item, axes in members:
            if axes - seen:
                seen |= axes
            else:
                out.append(item)
    return out


def pytest_collection_modifyitems(config, items):
    if SLOW:
        return
    skip = pytest.mark.skip(reason=_SLOW_REASON)
    for item in items:
        if item.get_closest_marker("slow") is not None:
            item.add_marker(skip)
    grid = pytest.mark.skip(reason=_GRID_REASON)
    for item in _grid_cover(items):
        item.add_marker(grid)


def pytest_configure(config):
    # NumPy's floating-point RuntimeWarnings (invalid value / divide by zero) raised inside the
    # cpu backend on special values are expected in these tests; keep the output readable.
    config.addinivalue_line("filterwarnings",
                            "ignore:.*encountered in .*:RuntimeWarning")


@pytest.fixture(autouse=True)
def _semantics(request):
    """Tests marked ``strict_semantics`` check the strict mode's refusals; every other test
    runs in the mode the process starts in (compatible unless NUMR_SEMANTICS says so)."""
    if request.node.get_closest_marker("strict_semantics") is None:
        yield
        return
    import numr_array_api
    with numr_array_api.semantics("strict"):
        yield


@pytest.fixture(autouse=True)
def _big_tests_one_at_a_time(request):
    """Tests marked ``bigmem`` (hundreds of MB on lavapipe, whose device memory is the
    host's) and the GiB GPU tests (marked gpu and slow: 10-40 GiB each) run one at a time
    across the xdist workers, under a file lock, and give their pooled buffers back after:
    two at once ran CI past its 4 GB, and several at once ran an H100 out of memory."""
    node = request.node
    if node.get_closest_marker("bigmem") is None and (
            node.get_closest_marker("gpu") is None or node.get_closest_marker("slow") is None):
        yield
        return
    import fcntl
    import tempfile

    with open(os.path.join(tempfile.gettempdir(), "numr-big-tests.lock"), "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            _release_webgpu()  # this worker's earlier tests' pooled buffers go back first
            yield
        finally:
            _release_webgpu()
            fcntl.flock(f, fcntl.LOCK_UN)


@pytest.fixture(scope="module", autouse=True)
def _release_device_caches():
    """After each test module, give the webgpu client's pooled buffers, plans and recorded
    graphs back (Client.empty_cache): one process runs thousands of tests, and what one
    module cached would otherwise stay for the whole run (CI's memory bound is 4 GB on a
    machine where the lavapipe "GPU" is the host's memory)."""
    yield
    _release_webgpu()


def _release_webgpu():
    """empty_cache() on every WebGPU client this process made (none: nothing to do)."""
    mod = sys.modules.get("numr_array_api.backends.webgpu.runtime.client")
    if mod is None:
        return
    import gc
    gc.collect()
    for client in list(mod._clients.values()):
        client.empty_cache()


@pytest.fixture(scope="session", params=_backend_params())
def xp(request):
    """A numr array API namespace (numr_array_api.cpu / .webgpu / .cuda)."""
    mod, reason = probe_backend(request.param)
    if mod is None:
        pytest.skip(reason)
    return mod


@pytest.fixture(scope="session")
def backend_name(xp):
    return xp.__name__.rsplit(".", 1)[-1]


def _missing_dtypes(item):
    """Standard dtypes the tested namespace's default device lacks (e.g. float64 on a WebGPU
    adapter without shader-f64)."""
    xp = getattr(item, "funcargs", {}).get("xp")
    if xp is None:
        return ()
    from _support import ALL_DTYPE_NAMES
    have = set(xp.__array_namespace_info__().dtypes())
    return tuple(n for n in ALL_DTYPE_NAMES if n not in have)


def _about_missing(message, missing):
    """Whether a BackendLimitation's message is about one of the ``missing`` dtypes: it names
    the dtype or an adapter feature that dtype needs (the library's own table)."""
    import re
    from numr_array_api._core import dtypes as D
    from numr_array_api.backends.webgpu.runtime.dtypes import DTYPE_FEATURES
    needs = {d.name: DTYPE_FEATURES.get(d, ()) for d in D.ALL_DTYPES}
    return any(re.search(rf"\b{d}\b", message) or any(f in message for f in needs.get(d, ()))
               for d in missing)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A BackendLimitation about a dtype the device lacks (per its info API; the error names
    the dtype or the adapter feature that brings it) is a skip, not a failure: tests that use
    e.g. float64 incidentally cannot run there. Any other BackendLimitation fails the test,
    on every device."""
    outcome = yield
    rep = outcome.get_result()
    if call.when != "call" or call.excinfo is None:
        return
    from numr_array_api._core.errors import BackendLimitation
    exc = call.excinfo.value
    if isinstance(exc, BaseExceptionGroup):
        excs = exc.exceptions
    else:
        excs = (exc,)
    if not all(isinstance(e, BackendLimitation) for e in excs):
        return
    missing = _missing_dtypes(item)
    if missing and all(_about_missing(str(e), missing) for e in excs):
        rep.outcome = "skipped"
        rep.longrepr = (str(item.path), item.location[1] or 0,
                        f"Skipped: device lacks {', '.join(missing)}: {excs[0]}")


_FAKE = {}


@pytest.fixture
def webgpu_two_devices(monkeypatch):
    """(webgpu namespace, device 0, device 1): the second adapter when there is one, else a
    second wgpu device opened on adapter 0 and registered as ``webgpu:1`` (a real, separate
    wgpu device: its buffers cannot be bound with the first one's, like another adapter's).
    CI's lavapipe lists one adapter (its OpenGL twin is not listed), so the tests of several
    devices run there on this second device."""
    try:
        import numr_array_api.webgpu as xp
        devs = xp.__array_namespace_info__().devices()
    except Exception as e:  # noqa: BLE001
        unavailable("webgpu", f"{type(e).__name__}: {e}")
    if not devs:
        unavailable("webgpu", "no WebGPU adapter")
    if len(devs) > 1:
        return xp, devs[0], devs[1]
    from numr_array_api._core.device import Device
    from numr_array_api.backends.webgpu.runtime import client as client_mod
    # the backend itself, not the locking proxy the namespace holds (monkeypatch restores
    # attributes on a plain object)
    be = vars(xp._backend).get("_backend", xp._backend)
    d0 = devs[0]
    # one fake per process: numr's caches key on the client's index (one client per index
    # for a process's life), so a fresh fake under a reused index would meet the last
    # one's cached plans and buffers
    fake = _FAKE.get(d0.index)
    if fake is None or fake.index != len(be._all_devices):
        fake = _FAKE[d0.index] = client_mod.WgpuClient(d0.index)
        fake.index = len(be._all_devices)
    d1 = Device("webgpu", fake.index)
    monkeypatch.setattr(be, "_all_devices", be._all_devices + (d1,))
    monkeypatch.setattr(be, "_devices", tuple(devs) + (d1,))
    monkeypatch.setitem(be._clients, fake.index, fake)
    monkeypatch.setitem(client_mod._clients, fake.index, fake)
    return xp, d0, d1
