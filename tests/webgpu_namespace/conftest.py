"""Fixtures of the webgpu-namespace tests: skipped when no adapter is available."""

import pytest


@pytest.fixture(scope="session")
def wx():
    import numr_array_api.webgpu as wx
    if not wx.__array_namespace_info__().devices():
        pytest.skip("no WebGPU adapter")
    return wx
