from collections.abc import Callable
from typing import Any, TypeVar, overload

from . import linalg as linalg, random as random, reductions as reductions

__all__ = ["linalg", "random", "reductions", "register"]

_F = TypeVar("_F", bound=Callable[..., Any])

# register(op, backend) is a decorator; register(op, backend, fn) registers fn directly
@overload
def register(op: str, backend: str, fn: None = None) -> Callable[[_F], _F]: ...
@overload
def register(op: str, backend: str, fn: _F) -> _F: ...
