from typing import Any, TypeVar

__all__ = ["nansum", "nanmean"]

# any array-API array: the result is an array of its namespace
_A = TypeVar("_A")

def nansum(x: _A, /, *, axis: int | tuple[int, ...] | None = None, dtype: Any = None,
           keepdims: bool = False) -> _A: ...
def nanmean(x: _A, /, *, axis: int | tuple[int, ...] | None = None,
            keepdims: bool = False) -> _A: ...
