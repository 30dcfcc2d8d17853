"""Adapter enumeration and selection.

Selection order for ``index=None``: ``NUMR_WEBGPU_ADAPTER`` (an index or a case-insensitive
substring of "name (backend)"), otherwise the best adapter for
``NUMR_WEBGPU_POWER_PREFERENCE`` (``high-performance`` default, ``low-power``). Native
backends (Vulkan, Metal, D3D12) always rank above OpenGL, whose compute support is the
weakest.

An OpenGL adapter that drives a device a native adapter drives too (Mesa's llvmpipe on any
Linux desktop, NVIDIA's GL driver beside its Vulkan one) is not listed: it would be a second
``webgpu`` device that is the same hardware with fewer dtypes, and opening it makes drivers
print errors. ``NUMR_WEBGPU_ADAPTER=opengl`` (or any choice naming OpenGL) lists it again.
"""

import contextlib
import os
import re
import sys
import tempfile
import threading

import wgpu

from ...._core import environment
from ...._core.errors import BackendUnavailable, InvalidArgument
from .dtypes import DTYPE_FEATURES, dtypes_for_features  # noqa: F401  (DTYPE_FEATURES re-exported)

OPTIONAL_FEATURES = ("shader-f16", "shader-f64", "shader-int64", "subgroup",
                     "timestamp-query", "immediates")
_NATIVE_BACKENDS = ("vulkan", "metal", "d3d12")
_TYPE_RANK = {
    "high-performance": {"discretegpu": 0, "integratedgpu": 1, "virtualgpu": 2, "cpu": 3},
    "low-power": {"integratedgpu": 0, "discretegpu": 1, "virtualgpu": 2, "cpu": 3},
}

_adapters = None
_enum_lock = threading.Lock()
_quiet_lock = threading.RLock()  # one fd-2 redirection at a time

# Lines the drivers print on fd 2 while wgpu probes them, that say nothing about numr's
# adapters: Mesa's EGL probe of the OpenGL backend without a desktop session; wgpu-native's
# indirect-dispatch validation failing to build on an OpenGL ES adapter too old for compute
# (NVIDIA's EGL, seen on the H100 / H200: numr ranks that adapter last and never needs it).
_PROBE_NOISE = re.compile(
    rb"^((error: )?XDG_RUNTIME_DIR is invalid or not set in the environment\.?"
    rb"|indirect-validation error: ComputePipeline\(Internal\(\"The selected version "
    rb"doesn't support Features\(.*\)\"\)\))\s*$")


@contextlib.contextmanager
def quiet_driver():
    """Hold back the drivers' probe chatter (``_PROBE_NOISE``) written to fd 2 by C code.

    While the block runs, fd 2 is pointed at a temporary file; afterwards everything it
    caught except those lines goes to the real fd 2. Output of other threads in that window
    is delayed, never lost (a file, not a pipe, so no writer can block).
    NUMR_WEBGPU_PROBE_STDERR=keep turns this off.
    """
    if environment.get("NUMR_WEBGPU_PROBE_STDERR").lower() == "keep":
        yield
        return
    try:
        sys.stderr.flush()
    except Exception:  # noqa: BLE001 - a closed or replaced sys.stderr: nothing to flush
        pass
    with _quiet_lock, tempfile.TemporaryFile() as cap:
        saved = os.dup(2)
        try:
            os.dup2(cap.fileno(), 2)
            try:
                yield
            finally:
                os.dup2(saved, 2)
        finally:
            os.close(saved)
            cap.seek(0)
            kept = b"".join(line for line in cap.read().splitlines(keepends=True)
                            if not _PROBE_NOISE.match(line))
            if kept:
                os.write(2, kept)


def enumerate_adapters():
    """``wgpu.gpu.enumerate_adapters_sync()`` without the drivers' probe chatter: Mesa's
    OpenGL (EGL) probe writes "XDG_RUNTIME_DIR is invalid" to fd 2 several times."""
    with quiet_driver():
        return list(wgpu.gpu.enumerate_adapters_sync())


def _raw_adapters():
    global _adapters
    with _enum_lock:
        if _adapters is None:
            try:
                found = enumerate_adapters()
            except Exception as exc:  # a missing or broken wgpu-native library
                raise BackendUnavailable("webgpu", f"adapter enumeration failed: {exc}") \
                    from exc
            _adapters = _without_shadowed(found)
    return _adapters


def _without_shadowed(found):
    """``found`` less the OpenGL adapters of devices a native adapter drives (unless
    NUMR_WEBGPU_ADAPTER asks for OpenGL)."""
    if "opengl" in environment.get("NUMR_WEBGPU_ADAPTER").lower():
        return found
    infos = [a.info for a in found]
    native = {_name(i) for i in infos if str(i.get("backend_type", "")).lower()
              in _NATIVE_BACKENDS}
    # a GL renderer string may carry the bus and CPU extension after the device's name
    # (NVIDIA: "NVIDIA H200/PCIe/SSE2" beside the Vulkan adapter "NVIDIA H200")
    return [a for a, i in zip(found, infos)
            if not (str(i.get("backend_type", "")).lower() == "opengl"
                    and _name(i).split("/")[0].strip() in native)]


def _name(info):
    return info.get("device", "") or info.get("description", "")


def _describe(i, a):
    info = a.info
    return {
        "index": i,
        "name": _name(info),
        "vendor": info.get("vendor", ""),
        "description": info.get("description", ""),
        "backend": info.get("backend_type", ""),
        "type": info.get("adapter_type", ""),
        "features": sorted(a.features),
        "limits": dict(a.limits),
    }


def is_cpu(info):
    """Whether an adapter description (list_adapters) is a CPU adapter (lavapipe: the
    work runs on the host's own cores, so GPU-sized batching and spinning only cost)."""
    return str(info.get("type", "")).lower().replace(" ", "") == "cpu"


def list_adapters():
    """Every adapter wgpu sees, as dicts (index, name, vendor, backend, type, features, limits)."""
    return [_describe(i, a) for i, a in enumerate(_raw_adapters())]


def adapter(index):
    ads = _raw_adapters()
    if not 0 <= index < len(ads):
        raise InvalidArgument("index", f"no WebGPU adapter {index}; {len(ads)} available")
    return ads[index]


def _rank(desc, pref):
    native = 0 if desc["backend"].lower() in _NATIVE_BACKENDS else 1
    kind = _TYPE_RANK[pref].get(desc["type"].replace(" ", "").lower(), 4)
    return (native, kind, desc["index"])


def select_index(index=None):
    """Resolve which adapter index a client should use."""
    descs = list_adapters()
    if not descs:
        raise BackendUnavailable(
            "webgpu", "no WebGPU adapter found: install your GPU's Vulkan / Metal / D3D12 "
            "driver, or Mesa's Vulkan drivers to run on the CPU (Debian / Ubuntu: apt install "
            "mesa-vulkan-drivers)")
    if index is not None:
        adapter(index)
        return index
    choice = environment.get("NUMR_WEBGPU_ADAPTER")
    if choice:
        if choice.lstrip("-").isdigit():
            idx = int(choice)
            adapter(idx)
            return idx
        hits = [d for d in descs if choice.lower() in f"{d['name']} ({d['backend']})".lower()]
        if not hits:
            names = ", ".join(f"{d['index']}: {d['name']} ({d['backend']})" for d in descs)
            raise InvalidArgument("NUMR_WEBGPU_ADAPTER",
                                  f"{choice!r} matches no adapter name; adapters are {names}")
        descs = hits
    pref = environment.get("NUMR_WEBGPU_POWER_PREFERENCE").lower()
    if pref not in _TYPE_RANK:
        raise InvalidArgument("NUMR_WEBGPU_POWER_PREFERENCE",
                              f"{pref!r} is not 'high-performance' or 'low-power'")
    return min(descs, key=lambda d: _rank(d, pref))["index"]


def native_dtypes(source):
    """The numr dtypes kernels compute on natively, in ``ALL_DTYPES`` order.

    ``source``: a WgpuClient (its device's granted features), an adapter index, an adapter
    description from ``list_adapters()`` (a dict), or an iterable of feature names. An index
    or description needs no device: the client requests every optional feature its adapter
    offers, so the adapter's features are the device's.
    """
    if isinstance(source, dict):
        feats = source["features"]
    elif isinstance(source, int):
        feats = adapter(source).features
    elif hasattr(source, "features"):
        feats = source.features
    else:
        feats = source
    return dtypes_for_features(feats)

