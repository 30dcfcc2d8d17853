"""Without CuPy, a driver or a device: import works, no devices, BackendUnavailable."""

import os
import subprocess
import sys
import textwrap

import pytest

from numr_array_api.backends.cuda_runtime import memory

_CHECK = textwrap.dedent("""
    import numr_array_api.cuda as xp
    from numr_array_api._core.errors import BackendUnavailable
    info = xp.__array_namespace_info__()
    assert info.devices() == (), info.devices()
    assert xp.__array_api_version__ == "2025.12"
    assert "float64" in info.dtypes()
    for make in (lambda: xp.asarray([1, 2]), lambda: xp.zeros(3), lambda: xp.arange(4),
                 lambda: xp.ones((2,), device="cuda:0"), lambda: xp.memory_stats(),
                 lambda: xp.capture_graph(lambda: None), lambda: xp.synchronize(),
                 lambda: xp.preload()):
        try:
            make()
        except BackendUnavailable as e:
            assert e.backend == "cuda" and e.reason, e
            print("REASON:", e.reason)
        else:
            raise AssertionError("no BackendUnavailable")
    import numr_array_api.cpu as cpu
    try:
        cpu.ones(2).to_device("cuda:0")
    except BackendUnavailable:
        pass
    else:
        raise AssertionError("to_device('cuda') worked without a device")
    print("OK")
""")


def _run(prelude, env_extra=None):
    env = dict(os.environ)
    env.update(env_extra or {})
    r = subprocess.run([sys.executable, "-c", prelude + _CHECK], capture_output=True, text=True,
                       env=env, timeout=300)
    assert r.returncode == 0 and "OK" in r.stdout, r.stdout + r.stderr
    return r.stdout


def test_without_cupy():
    # CuPy made unimportable: the reason names CuPy and how to install it
    out = _run("import sys; sys.modules['cupy'] = None\n")
    assert "CuPy cannot be imported" in out and "cupy-cuda13x" in out


def test_disabled_by_env():
    out = _run("", {"NUMR_CUDA_DISABLE": "1"})
    assert "NUMR_CUDA_DISABLE" in out


def test_in_process_when_no_device():
    import numr_array_api.cuda as xp
    if xp.__array_namespace_info__().devices():
        pytest.skip("this machine has a CUDA device")
    from numr_array_api._core.errors import BackendUnavailable
    with pytest.raises(BackendUnavailable, match="unavailable"):
        xp.asarray([1.0])
    # 2025.12: a namespace without devices reports no default device
    assert xp.__array_namespace_info__().default_device() is None


def test_env_mib(monkeypatch):
    from numr_array_api._core import environment
    from numr_array_api._core.errors import InvalidArgument
    name = memory.ENV_FREE_LIST

    def setenv(value):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
        environment.reload(name)
    try:
        setenv("1.5")
        assert memory.env_mib(name, 7) == 3 * (1 << 19)
        setenv(None)
        assert memory.env_mib(name, 7) == 7 << 20
        setenv("lots")
        with pytest.raises(InvalidArgument, match=name):
            memory.env_mib(name, 7)
    finally:
        monkeypatch.undo()
        environment.reload(name)


def test_buckets():
    assert memory.bucket(1) == 512 and memory.bucket(513) == 1024
    for size in (1, 100, 4096, (1 << 20) + 1, 3 << 20, (1 << 30) + 5):
        b = memory.bucket(size)
        assert size <= b <= size * 1.125 + 512
        assert memory.bucket(b) == b
