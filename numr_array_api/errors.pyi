from numr_array_api._core.errors import *
from numr_array_api._core.errors import __all__ as __all__
