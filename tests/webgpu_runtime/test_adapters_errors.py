"""Adapter listing and selection (subprocesses with env vars), device loss mapping."""

import pytest

from numr_array_api._core.errors import InvalidArgument

from .conftest import run_py


def test_list_adapters(W):
    ads = W.list_adapters()
    assert ads and [a["index"] for a in ads] == list(range(len(ads)))
    for a in ads:
        assert {"name", "backend", "type", "features", "limits"} <= set(a)
        assert "max-buffer-size" in a["limits"]


def test_default_prefers_native_backend(W, client):
    ads = W.list_adapters()
    if any(a["backend"].lower() in ("vulkan", "metal", "d3d12") for a in ads):
        assert client.info["backend"].lower() in ("vulkan", "metal", "d3d12")


def test_bad_index(W):
    with pytest.raises(InvalidArgument):
        W.get_client(len(W.list_adapters()) + 3)


_SHOW = ("import numr_array_api.backends.webgpu as W; c = W.get_client(); "
         "print('SEL', c.index, c.info['backend'], c.info['name'])")


def test_env_selection_by_index_and_name(W):
    ads = W.list_adapters()
    # the last adapter that can grant a device: native backends always can; headless
    # OpenGL sometimes cannot (test_adapter_without_64bit_features covers that case)
    native = [a for a in ads if a["backend"].lower() in ("vulkan", "metal", "d3d12")]
    last = (native or ads)[-1]
    r = run_py(_SHOW, {"NUMR_WEBGPU_ADAPTER": str(last["index"])})
    assert r.returncode == 0, r.stderr[-2000:]
    assert f"SEL {last['index']} {last['backend']}" in r.stdout
    name = ads[0]["name"]
    sub = name.split()[0].upper()  # case-insensitive substring
    r = run_py(_SHOW, {"NUMR_WEBGPU_ADAPTER": sub})
    assert r.returncode == 0 and "SEL" in r.stdout, r.stderr[-2000:]
    chosen = int(r.stdout.split("SEL ")[1].split()[0])
    assert sub.lower() in ads[chosen]["name"].lower()
    r = run_py(_SHOW, {"NUMR_WEBGPU_ADAPTER": "no-such-adapter-xyz"})
    assert r.returncode != 0 and "InvalidArgument" in r.stderr and "matches no adapter" in r.stderr
    r = run_py(_SHOW, {"NUMR_WEBGPU_POWER_PREFERENCE": "low-power"})
    assert r.returncode == 0 and "SEL" in r.stdout, r.stderr[-2000:]
    r = run_py(_SHOW, {"NUMR_WEBGPU_POWER_PREFERENCE": "fastest"})
    assert r.returncode != 0 and "NUMR_WEBGPU_POWER_PREFERENCE" in r.stderr


def test_device_loss_maps_to_device_lost():
    code = """
import numpy as np
import numr_array_api.backends.webgpu as W
from numr_array_api._core.errors import DeviceLost
x = W.from_numpy(np.arange(8, dtype=np.float32))
dev, q = W.raw_handle()
dev.destroy()
for attempt in range(2):
    try:
        W.to_numpy(W.copy(x[::2]))
    except DeviceLost as e:
        print("LOST", type(e).__name__)
    else:
        print("NO ERROR")
"""
    r = run_py(code)
    assert r.returncode == 0, r.stderr[-3000:]
    assert r.stdout.count("LOST DeviceLost") == 2, r.stdout + r.stderr[-2000:]


_POOR = ("import json, numr_array_api.backends.webgpu as W; print('POOR', json.dumps("
         "[f\"{a['name']} ({a['backend']})\" for a in W.list_adapters() if 'shader-f64' not in "
         "a['features'] and 'shader-int64' not in a['features']]))")


def test_adapter_without_64bit_features(W):
    """On an adapter lacking shader-f64 / shader-int64 (e.g. the OpenGL one next to lavapipe,
    listed when NUMR_WEBGPU_ADAPTER asks for OpenGL), every dtype still round-trips (raw word
    copies) and 64-bit casts raise BackendLimitation."""
    import json
    r = run_py(_POOR, {"NUMR_WEBGPU_ADAPTER": "opengl"})
    assert r.returncode == 0, r.stderr[-2000:]
    poor = json.loads(r.stdout.split("POOR ", 1)[1])
    if not poor:
        pytest.skip("every adapter here has shader-f64 and shader-int64")
    code = """
import numpy as np, warnings
import numr_array_api.backends.webgpu as W
from numr_array_api._core import dtypes as D
from numr_array_api._core.errors import BackendLimitation
c = W.get_client()
assert 'float64' not in c.capabilities()['native_dtypes']
for dt in D.ALL_DTYPES:
    a = (np.arange(60) * 1.7 - 20).astype(dt.np).reshape(3, 4, 5)
    s = W.from_numpy(a)
    assert W.to_numpy(s[::-1, 1::2]).tobytes() == np.ascontiguousarray(a[::-1, 1::2]).tobytes()
    for dd in (D.bool_, D.int8, D.uint16, D.int32, D.uint32, D.float16, D.float32, D.complex64):
        if not c.native(dt) and dt is not D.float16:
            continue
        with np.errstate(all='ignore'), warnings.catch_warnings():
            warnings.simplefilter('ignore')
            e = a.astype(dd.np)
        assert np.array_equal(W.to_numpy(W.astype(s, dd)), e), (dt, dd)
try:
    W.astype(W.from_numpy(np.zeros(3)), D.float32)
except BackendLimitation as e:
    print("LIMIT", e)
print("OK")
"""
    r = run_py(code, {"NUMR_WEBGPU_ADAPTER": poor[0]})
    if r.returncode and "grants no device" in r.stderr:  # e.g. headless OpenGL on NVIDIA
        pytest.skip(f"adapter {poor[0]} grants no device here")
    assert r.returncode == 0, r.stderr[-3000:]
    assert "OK" in r.stdout and "LIMIT" in r.stdout and "shader-f64" in r.stdout


def test_no_adapter_says_what_to_install_once(monkeypatch):
    from numr_array_api._core.errors import BackendUnavailable
    from numr_array_api.backends.webgpu.ops import device
    from numr_array_api.backends.webgpu.runtime import adapters
    monkeypatch.setattr(adapters, "list_adapters", lambda: [])
    idx, ads, why = device.probe()
    assert idx is None and ads == []
    assert "mesa-vulkan-drivers" in why and "unavailable" not in why
    msg = str(BackendUnavailable("webgpu", why))
    assert msg.count("unavailable") == 1 and msg.count("no WebGPU adapter") == 1


def test_an_opengl_default_adapter_is_named_with_what_it_lacks():
    import warnings

    from numr_array_api._core import dtypes as dt
    from numr_array_api.backends.webgpu.ops import device
    desc = {"backend": "OpenGL", "name": "llvmpipe (LLVM 15.0.6, 256 bits)"}
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        device._warn_fallback(desc, frozenset(dt.ALL_DTYPES) - {dt.float64, dt.int64})
    (w,) = got
    assert issubclass(w.category, device.AdapterWarning)
    msg = str(w.message)
    assert "OpenGL" in msg and "llvmpipe" in msg and "float64" in msg and "int64" in msg
    assert "default float is float32" in msg and "mesa-vulkan-drivers" in msg


class _Adapter:
    def __init__(self, device, backend):
        self.info = {"device": device, "backend_type": backend}


def test_an_opengl_twin_of_a_native_adapter_is_not_listed(monkeypatch):
    """One device is one webgpu device: the OpenGL adapter of hardware a Vulkan adapter
    drives (llvmpipe on a Mesa desktop, NVIDIA's GL beside its Vulkan) is left out, an
    OpenGL-only device stays, and NUMR_WEBGPU_ADAPTER=opengl lists the twin again."""
    from numr_array_api._core import environment
    from numr_array_api.backends.webgpu.runtime import adapters
    found = [_Adapter("llvmpipe (LLVM 15)", "Vulkan"), _Adapter("llvmpipe (LLVM 15)", "OpenGL"),
             _Adapter("Some GPU", "OpenGL"), _Adapter("NVIDIA H200", "Vulkan"),
             _Adapter("NVIDIA H200", "OpenGL"), _Adapter("NVIDIA H200", "Vulkan"),
             _Adapter("NVIDIA H200/PCIe/SSE2", "OpenGL"), _Adapter("NVIDIA H2000/PCIe", "OpenGL")]
    monkeypatch.delenv("NUMR_WEBGPU_ADAPTER", raising=False)
    environment.reload("NUMR_WEBGPU_ADAPTER")
    kept = adapters._without_shadowed(found)
    assert [(a.info["device"], a.info["backend_type"]) for a in kept] == [
        ("llvmpipe (LLVM 15)", "Vulkan"), ("Some GPU", "OpenGL"), ("NVIDIA H200", "Vulkan"),
        ("NVIDIA H200", "Vulkan"), ("NVIDIA H2000/PCIe", "OpenGL")]
    monkeypatch.setenv("NUMR_WEBGPU_ADAPTER", "OpenGL")
    environment.reload("NUMR_WEBGPU_ADAPTER")
    try:
        assert adapters._without_shadowed(found) == found
    finally:
        monkeypatch.delenv("NUMR_WEBGPU_ADAPTER")
        environment.reload("NUMR_WEBGPU_ADAPTER")


def test_opengl_is_chosen_by_name_when_asked():
    r = run_py(_SHOW, {"NUMR_WEBGPU_ADAPTER": "opengl"})
    if r.returncode and ("matches no adapter" in r.stderr or "grants no device" in r.stderr):
        pytest.skip("no OpenGL adapter here that grants a device")
    assert r.returncode == 0, r.stderr[-2000:]
    assert "OpenGL" in r.stdout and "SEL" in r.stdout, r.stdout
