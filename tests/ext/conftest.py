"""Namespaces the ext tests run on: NumPy (through array_api_compat), array-api-strict,
and numr's cpu namespace once it imports."""

import pytest

from ext_testutil import NAMESPACES


@pytest.fixture(params=[xp for _, xp in NAMESPACES], ids=[n for n, _ in NAMESPACES])
def xp(request):
    return request.param
