"""A case CuPy's cupyx.scipy does not support (numr's cuda path reports it as
BackendLimitation naming cupyx.scipy, and the routing then runs SciPy's own code) is CuPy's
limit, not numr's: such a test is skipped with cupyx's message, never passed."""

import pytest

from numr_array_api.errors import BackendLimitation


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    outcome = yield
    exc = outcome.excinfo
    if exc is not None and issubclass(exc[0], BackendLimitation) and \
            "cupyx.scipy" in str(exc[1]):
        outcome.force_exception(pytest.skip.Exception(f"cupyx.scipy: {exc[1]}",
                                                      _use_item_location=True))
