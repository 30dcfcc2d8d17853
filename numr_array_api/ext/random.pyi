from types import ModuleType
from typing import Any, Final, overload

from numr_array_api._core.array import Array
from numr_array_api._core.dtypes import DType
from numr_array_api._typing.types import DeviceLike as _DeviceLike

__all__ = ["sobol", "halton", "latin_hypercube", "SOBOL_MAX_DIM", "HALTON_MAX_DIM"]

SOBOL_MAX_DIM: Final[int]
HALTON_MAX_DIM: Final[int]

# seed: an int, a numpy.random.SeedSequence or Generator, or None (fresh entropy).
# Without xp the points are a numr array (of cpu, or of the namespace owning device);
# with xp, an array of that namespace.
@overload
def sobol(n: int, d: int, /, *, skip: int = 0, bits: int = 32, scramble: bool = False,
          seed: Any = None, dtype: DType | None = None, device: _DeviceLike | None = None,
          xp: None = None) -> Array: ...
@overload
def sobol(n: int, d: int, /, *, skip: int = 0, bits: int = 32, scramble: bool = False,
          seed: Any = None, dtype: Any = None, device: Any = None, xp: ModuleType) -> Any: ...
@overload
def halton(n: int, d: int, /, *, skip: int = 0, scramble: bool = False, seed: Any = None,
           dtype: DType | None = None, device: _DeviceLike | None = None,
           xp: None = None) -> Array: ...
@overload
def halton(n: int, d: int, /, *, skip: int = 0, scramble: bool = False, seed: Any = None,
           dtype: Any = None, device: Any = None, xp: ModuleType) -> Any: ...
@overload
def latin_hypercube(n: int, d: int, /, *, seed: Any, dtype: DType | None = None,
                    device: _DeviceLike | None = None, xp: None = None) -> Array: ...
@overload
def latin_hypercube(n: int, d: int, /, *, seed: Any, dtype: Any = None, device: Any = None,
                    xp: ModuleType) -> Any: ...
