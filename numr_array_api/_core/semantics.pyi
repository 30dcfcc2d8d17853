from contextlib import AbstractContextManager
from typing import Final, Literal, TypeAlias

__all__ = ["COMPATIBLE", "STRICT", "MODES", "strict", "get_semantics", "set_semantics",
           "semantics"]

_Mode: TypeAlias = Literal["compatible", "strict"]

COMPATIBLE: Final = "compatible"
STRICT: Final = "strict"
MODES: Final[tuple[_Mode, _Mode]]

def strict() -> bool: ...
def get_semantics() -> _Mode: ...
def set_semantics(mode: _Mode) -> _Mode: ...
def semantics(mode: _Mode) -> AbstractContextManager[_Mode]: ...
