"""Every backend implements numr_array_api.backends.interface.Backend, and the front-end
calls nothing the interface does not declare."""

import inspect
import pathlib
import re

import pytest

import numr_array_api
from numr_array_api.backends.interface import ATTRIBUTES, Backend
from numr_array_api.backends.ndlike.cpu import CPUBackend

ROOT = pathlib.Path(numr_array_api.__file__).parent
METHODS = {n for n, v in vars(Backend).items() if inspect.isfunction(v)
           and not n.startswith("_")}


def _backend_classes():
    classes = [CPUBackend]
    try:
        from numr_array_api.backends.webgpu.backend import WebGPUBackend
        classes.append(WebGPUBackend)
    except ImportError:  # no wgpu: the class cannot be built
        pass
    try:
        from numr_array_api.backends.ndlike.cuda import CuPyBackend
        classes.append(CuPyBackend)
    except ImportError:
        pass
    return classes


def test_front_end_calls_only_declared_members():
    used = set()
    for sub in ("_api", "_core"):
        for p in (ROOT / sub).rglob("*.py"):
            used |= set(re.findall(r"\bbe\.([A-Za-z_][A-Za-z0-9_]*)", p.read_text()))
    undeclared = sorted(n for n in used if n not in METHODS and n not in ATTRIBUTES)
    assert undeclared == []


@pytest.mark.parametrize("cls", _backend_classes(), ids=lambda c: c.__name__)
def test_backend_implements_every_method_with_the_interface_signature(cls):
    assert issubclass(cls, Backend)
    assert not getattr(cls, "__abstractmethods__", None)
    for name in sorted(METHODS):
        want = list(inspect.signature(getattr(Backend, name)).parameters)
        got = inspect.signature(getattr(cls, name)).parameters
        names = list(got)
        # an implementation may add optional parameters after the interface's own
        assert names[:len(want)] == want, f"{cls.__name__}.{name}{tuple(names)} != {want}"
        extra = [got[n] for n in names[len(want):]]
        assert all(p.default is not inspect.Parameter.empty or p.kind in (
            p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in extra), f"{cls.__name__}.{name}"


def test_cpu_backend_defines_every_attribute():
    be = CPUBackend()
    missing = [a for a in ATTRIBUTES if not hasattr(be, a)]
    assert missing == []


def test_webgpu_host_fallbacks_are_interface_methods():
    hf = pytest.importorskip("numr_array_api.backends.webgpu.ops.host_fallback")
    assert set(hf.FALLBACK_METHODS) <= METHODS
