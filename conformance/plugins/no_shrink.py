"""pytest plugin for array-api-tests runs on slow namespaces (``run.py --no-shrink``).

Loads a copy of the suite's Hypothesis profile without the shrink phase: a failing test is
reported with the first failing example instead of a minimal one, which on a namespace
whose every call costs tens of milliseconds (Cubed plans and stores each computation) cuts
a failing test from minutes to seconds. Pass / fail outcomes are the same.
"""

import pytest
from hypothesis import Phase, settings


@pytest.hookimpl(trylast=True)
def pytest_configure(config):
    base = settings.get_profile("array-api-tests")
    settings.register_profile("array-api-tests-no-shrink", base,
                              phases=[p for p in base.phases if p is not Phase.shrink])
    settings.load_profile("array-api-tests-no-shrink")
