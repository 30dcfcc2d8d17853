"""SciPy on numr arrays, on their own device (numr's ``cupyx.scipy``).

- ``numr_array_api.scipy.fft``: a backend for ``scipy.fft``'s public protocol
  (``scipy.fft.set_backend``): the array API's transforms through the array's namespace and
  the DCT / DST (types 1 to 4) from its FFT (``_dct.py``), so a webgpu or cuda array
  never goes to the host.
- ``numr_array_api.scipy.special``, ``.ndimage``, ``.signal``: SciPy's functions for numr
  arrays of every backend: SciPy itself on cpu arrays, ``cupyx.scipy`` on the memory of cuda
  arrays, numr's WGSL kernels on webgpu arrays (docs/scipy-gpu.md lists what each covers).
- ``enable()`` / ``disable()``: route SciPy's own ``scipy.special`` / ``ndimage`` /
  ``signal`` functions to those for numr arrays (opt-in, SciPy 1.17 and 1.18, with
  ``SCIPY_ARRAY_API=1``). Without it SciPy runs its compiled code on a host copy of a device
  array (numr's host-conversion policy decides whether that warns or raises).
"""

from ._routing import SUPPORTED, check_dispatch, disable, enable, enabled

__all__ = ["enable", "disable", "enabled", "check_dispatch", "SUPPORTED"]
