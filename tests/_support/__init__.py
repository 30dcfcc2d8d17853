"""Helpers shared by numr's own tests (import as ``from _support import ...``)."""

from .helpers import *  # noqa: F401,F403
from .helpers import __all__  # noqa: F401
