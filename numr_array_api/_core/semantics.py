"""The semantics switch: where the standard leaves a choice, NumPy 2's answer or a refusal.

``compatible`` (the default) does what NumPy 2 and CuPy do wherever the standard says
"implementation-defined", "should", or says nothing: mixed-kind promotion, integer inputs to
floating functions, NumPy dtype objects and dtype strings, ``min`` / ``max`` of bool.
SciPy, scikit-learn and xarray are written and tested against those libraries.

``strict`` refuses every such call with a clear error, as array-api-strict does: for library
authors checking that their code is portable. What the standard defines is identical in
both modes.

The mode is process-wide (``set_semantics``; the ``NUMR_SEMANTICS`` environment variable,
read once at import) with a per-thread / per-task override (``with semantics("strict"):``,
a ``ContextVar``). It is consulted only where a call would otherwise be refused, so neither
mode costs anything on the paths the standard defines. docs/semantics.md has the table of
every choice.
"""

import contextlib
import contextvars

from . import environment

__all__ = ["COMPATIBLE", "STRICT", "MODES", "strict", "get_semantics", "set_semantics",
           "semantics"]

COMPATIBLE = "compatible"
STRICT = "strict"
MODES = (COMPATIBLE, STRICT)

_scoped = contextvars.ContextVar("numr_semantics", default=None)


def _check(mode, source):
    if mode not in MODES:
        from .errors import InvalidArgument
        raise InvalidArgument("mode", f"{source}: semantics must be one of {MODES}, got "
                                      f"{mode!r}")
    return mode


def _from_environment():
    return _check(environment.get("NUMR_SEMANTICS").lower(), "NUMR_SEMANTICS")


_process = [_from_environment()]


def strict():
    """Whether calls the standard leaves open are refused (strict) in the current context."""
    m = _scoped.get()
    return (_process[0] if m is None else m) == STRICT


def get_semantics():
    """The mode in effect here: ``"compatible"`` or ``"strict"``."""
    m = _scoped.get()
    return _process[0] if m is None else m


def set_semantics(mode):
    """Set the process-wide mode (``"compatible"`` or ``"strict"``); returns the previous one.

    A ``with semantics(...)`` block in progress keeps its own mode until it ends.
    """
    _check(mode, "set_semantics")
    previous = _process[0]
    _process[0] = mode
    return previous


@contextlib.contextmanager
def semantics(mode):
    """Run a block in ``mode``: ``with numr_array_api.semantics("strict"): ...``.

    The override belongs to the current thread (or asyncio task); other threads keep the
    process-wide mode.
    """
    _check(mode, "semantics")
    token = _scoped.set(mode)
    try:
        yield mode
    finally:
        _scoped.reset(token)
