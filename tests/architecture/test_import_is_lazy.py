"""Importing a device namespace loads no GPU library and probes no device: the namespace is
built on its first use (numr_array_api._core.namespace.populate_lazily).

Each check runs in a fresh interpreter, where nothing has imported the namespaces yet. An
import hook records every attempt to import wgpu / CuPy (present or not), so the checks
mean the same on a host without them.
"""

import os
import pickle
import subprocess
import sys
import textwrap
import threading
import time
import types

import pytest

import numr_array_api
from numr_array_api._core.namespace import populate_lazily
from numr_array_api.backends.ndlike.cpu import CPUBackend

_ROOT = os.path.dirname(os.path.dirname(numr_array_api.__file__))

_PRELUDE = """
import sys
attempts = []

class Recorder:
    # sees every import of the watched libraries, then lets the real finders answer
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("wgpu", "cupy"):
            attempts.append(name)
        return None

sys.meta_path.insert(0, Recorder())
"""


def _run(code):
    env = dict(os.environ)
    env["PYTHONPATH"] = _ROOT + os.pathsep + env.get("PYTHONPATH", "")
    env.setdefault("XDG_RUNTIME_DIR", "/tmp")
    r = subprocess.run([sys.executable, "-c", _PRELUDE + textwrap.dedent(code)],
                       capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-3000:]
    return r.stdout


def test_webgpu_import_loads_no_wgpu_and_probes_no_adapter():
    out = _run("""
        import numr_array_api.webgpu as xp
        assert attempts == [], attempts
        assert "wgpu" not in sys.modules
        # adapter enumeration lives in the runtime, which imports wgpu: not loaded at all
        loaded = [m for m in sys.modules if m.startswith("numr_array_api.backends.webgpu")]
        assert loaded == [], loaded
        # the dtypes and constants are plain attributes from import on
        assert xp.float32.name == "float32" and xp.pi > 3 and xp.newaxis is None
        assert "float64" in vars(xp) and xp.__array_api_version__ == "2025.12"
        assert attempts == [], attempts
        if not xp.__array_namespace_info__().devices():
            print("NO ADAPTER")
        else:
            assert float(xp.sum(xp.ones(3))) == 3.0
            assert "wgpu" in sys.modules
            print("FIRST USE OK")
    """)
    if "NO ADAPTER" in out:
        pytest.skip("no WebGPU adapter")
    assert "FIRST USE OK" in out


def test_cuda_import_loads_no_cupy():
    out = _run("""
        import numr_array_api.cuda as xp
        assert attempts == [], attempts
        assert "cupy" not in sys.modules
        assert "numr_array_api.backends.ndlike.cuda" not in sys.modules
        assert xp.int64.name == "int64" and xp.e > 2
        assert attempts == [], attempts
        devices = xp.__array_namespace_info__().devices()
        # the first use asked for CuPy (found or not)
        assert any(a.split(".")[0] == "cupy" for a in attempts), attempts
        if devices:
            assert float(xp.sum(xp.ones(3))) == 3.0
        print("OK", len(devices))
    """)
    assert "OK" in out


def test_a_lazy_namespace_looks_as_an_eager_one():
    # the cuda namespace: the same machinery as webgpu's, and cheap to build without CuPy
    _run("""
        import numr_array_api.cpu as cpu
        public = [n for n in dir(cpu) if not n.startswith("_")] + ["__array_namespace_info__"]

        import numr_array_api.cuda.linalg as linalg  # before the build
        assert linalg.solve.__module__ == "numr_array_api.cuda.linalg"
        import numr_array_api.cuda as xp
        assert xp.linalg is linalg and xp.linalg.matmul is xp.matmul
        assert set(public) <= set(dir(xp)), set(public) - set(dir(xp))
        assert all(hasattr(xp, n) for n in public)
        assert not hasattr(xp, "no_such_function") and not hasattr(xp, "__wrapped__")
        assert "__getattr__" not in vars(xp) and "__getattr__" not in vars(linalg)
        assert xp.sum.__module__ == "numr_array_api.cuda" and xp.sum.__qualname__ == "sum"
        assert xp.synchronize.__module__ == "numr_array_api.cuda.runtime"

        ns = {}
        exec("from numr_array_api.cuda import *", ns)
        assert {"sum", "linalg", "float32", "synchronize"} <= set(ns)
    """)


def test_star_import_and_pickling_build_the_namespace():
    blob = _run("""
        import pickle
        import numr_array_api.cuda as xp
        print(pickle.dumps([xp.sum, xp.linalg.solve, xp.synchronize]).hex())
    """).strip()
    # a fresh interpreter whose first touch of the namespace is unpickling its functions
    _run(f"""
        import pickle
        fns = pickle.loads(bytes.fromhex({blob!r}))
        import numr_array_api.cuda as xp
        assert fns == [xp.sum, xp.linalg.solve, xp.synchronize]
        ns = {{}}
        exec("from numr_array_api.webgpu import *", ns)
        assert {{"sum", "linalg", "float32", "synchronize", "HostReadWarning"}} <= set(ns)
        assert "wgpu" in sys.modules
    """)


def test_first_use_from_many_threads_builds_once():
    made = []

    def make_backend():
        made.append(threading.get_ident())
        time.sleep(0.2)  # every thread arrives while the build runs
        return CPUBackend()

    name = "numr_array_api._lazy_namespace_under_test"
    mod = types.ModuleType(name)
    sys.modules[name] = mod
    try:
        populate_lazily(mod.__dict__, make_backend)
        assert made == [] and mod.float32.name == "float32"
        got, errors = [], []

        def touch():
            try:
                got.append((mod.sum, mod.linalg.solve, mod._ctx))
            except BaseException as e:  # noqa: BLE001 - reported below
                errors.append(e)

        threads = [threading.Thread(target=touch) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == [] and len(made) == 1
        assert len(got) == 8 and len(set(map(id, (g[0] for g in got)))) == 1
        assert float(mod.sum(mod.ones(3))) == 3.0
        assert pickle.loads(pickle.dumps(mod.sum)) is mod.sum
    finally:
        for m in (name, f"{name}.linalg", f"{name}.fft"):
            sys.modules.pop(m, None)
