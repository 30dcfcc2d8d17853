"""SciPy on numr arrays, on their own device.

- ``numr_array_api.scipy.fft``: a backend for ``scipy.fft``'s public protocol
  (``scipy.fft.set_backend``): the array API's transforms through the array's namespace and
  the DCT / DST of types 2 and 3 from its FFT (``_dct.py``), so a webgpu or cuda array
  never goes to the host.

SciPy's special, ndimage and signal functions have no public dispatch for other array
libraries; on numr device arrays they still run on a host copy (numr's host-conversion
policy decides whether that warns or raises; docs/guides/scipy.md).
"""
