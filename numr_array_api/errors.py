"""numr's error taxonomy (``import numr_array_api.errors``): every exception numr raises on
bad input is a ``NumrError`` and also the built-in the array API standard expects, so
``except ValueError`` and ``except numr_array_api.errors.DeviceMismatch`` both work.

========================  ==================  =================================================
class                     built-in            raised for
========================  ==================  =================================================
InvalidArgument           ValueError          a value the function does not accept
InvalidType               TypeError           an argument of the wrong type
DTypeMismatch             TypeError           a dtype not accepted / two that do not promote
ShapeMismatch             ValueError          shapes that must agree do not
DeviceMismatch            ValueError          arrays on different devices combined
NamespaceMismatch         ValueError+TypeError an array of another numr namespace
InvalidIndex              IndexError          an index key out of range or malformed
OutOfRange                OverflowError       a Python int beyond a dtype's range
OutOfMemory               MemoryError         an allocation failed (names the request)
BackendLimitation         NotImplementedError the backend cannot do this (a real limit)
BackendUnavailable        RuntimeError        no library / driver / device for the backend
DeviceLost                RuntimeError        the device was lost
HostTransferError         RuntimeError        refused implicit device-to-host conversion
========================  ==================  =================================================
"""

from ._core.errors import *  # noqa: F401,F403
from ._core.errors import __all__  # noqa: F401
