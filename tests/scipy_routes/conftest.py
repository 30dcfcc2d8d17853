"""A case CuPy's cupyx.scipy does not support (numr's cuda path reports it as
BackendLimitation naming cupyx.scipy, and the routing then runs SciPy's own code) is CuPy's
limit, not numr's: such a test is skipped with cupyx's message, never passed."""

import os

import pytest

import numr_array_api as numr
from numr_array_api.errors import BackendLimitation


@pytest.fixture
def no_host_copies():
    """Any host copy raises (the policy "raise"): what these tests check runs on the arrays'
    own device. Test files take it as ``pytestmark = pytest.mark.usefixtures(...)``."""
    with numr.host_conversion("raise"):
        yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    outcome = yield
    exc = outcome.excinfo
    if exc is not None and issubclass(exc[0], BackendLimitation) and \
            "cupyx.scipy" in str(exc[1]):
        outcome.force_exception(pytest.skip.Exception(f"cupyx.scipy: {exc[1]}",
                                                      _use_item_location=True))


def pytest_collection_modifyitems(items):
    # every test file here but those that route SciPy itself or mock CuPy runs under "raise"
    # (the hook sees the whole session's items: only this directory's are checked)
    here = os.path.dirname(os.path.abspath(__file__))
    own = ("test_routing.py", "test_ndimage_scipy_suite.py", "test_cuda_bridge.py")
    for item in items:
        name = item.fspath.basename
        if os.path.dirname(str(item.fspath)) == here and name.startswith("test_") \
                and name not in own:
            assert "no_host_copies" in item.fixturenames, \
                f"{item.nodeid}: take the no_host_copies fixture (pytestmark)"
