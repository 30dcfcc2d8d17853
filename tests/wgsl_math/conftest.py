import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(scope="session")
def harness():
    try:
        from harness import Harness
        return Harness()
    except Exception as e:  # no wgpu, no adapter
        from _support import unavailable
        unavailable("webgpu", f"no usable WebGPU adapter: {type(e).__name__}: {e}")


@pytest.fixture(scope="session", params=["f32", "f64"])
def ftype(request, harness):
    if not harness.supports(request.param):
        pytest.skip(f"adapter lacks features for {request.param}")
    return request.param
