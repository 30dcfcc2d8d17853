"""CUDA runtime tests. Tests marked ``gpu`` are skipped (with the reason) where the cuda
namespace has no device; the unavailability tests run everywhere, CI included."""

import pytest

import numr_array_api.cuda as _ns

_DEVICES = _ns.__array_namespace_info__().devices()
_REASON = None if _DEVICES else f"no CUDA device: {_ns._backend.rt.reason}"


def pytest_collection_modifyitems(config, items):
    if _REASON is None:
        return
    for item in items:
        if item.get_closest_marker("gpu") is not None and "cuda_runtime" in str(item.fspath):
            item.add_marker(pytest.mark.skip(reason=_REASON))


@pytest.fixture
def cx():
    """The cuda namespace, with a clean allocator state after the test."""
    yield _ns
    _ns.synchronize()
    for i in range(len(_DEVICES)):
        _ns.set_memory_limit(None, device=i)


@pytest.fixture
def n_devices():
    return len(_DEVICES)
