"""numr's own notes on public functions, appended to the standard's description.

Keys as in standard.py: 'sum', 'linalg.svd', 'fft.rfft', 'Array.__add__', 'info.dtypes'.
A note says what numr adds, refuses, or does differently on one backend; what holds for
every function (errors are numr's taxonomy, webgpu's host round trips warn once with
HostFallbackWarning and are listed in docs/webgpu.md) is said once in the documentation,
not here. Keep each note true on every backend it does not name.
"""

_PROMOTION = ("Mixed-kind promotion (an integer array with a floating one) is not defined by "
              "the standard: numr promotes as NumPy 2 does in the compatible semantics (the "
              "default) and raises DTypeMismatch (a TypeError) in the strict mode "
              "(docs/semantics.md).")
_NAN = ("NumPy's function of that name (not in the standard; xarray and Cubed look it up on "
        "the namespace), built from this namespace's own operations, so it runs on the "
        "array's device. NumPy's signature; ``out`` must be None. docs/semantics.md.")
_COPY = "The result never aliases the input (NumPy and CuPy return views here; numr copies)."
_REDUCE_WEBGPU = ("webgpu: runs on the GPU; it round-trips through the host (warned) only "
                  "where the adapter lacks a feature the dtype needs (shader-int64 for 64-bit "
                  "integers, shader-f64 for float64).")
_LINALG_WEBGPU = "webgpu: runs on the GPU (docs/webgpu-linalg.md)."
_EIG_WEBGPU = ("webgpu: on the GPU (float64 / complex128 need the adapter's shader-f64).")
_FFT = ("The result keeps the input's precision: float32 / complex64 in, complex64 / float32 "
        "out; float16 input is computed in float32. webgpu: on the GPU (complex128 needs the "
        "adapter's shader-f64).")
_LINALG_PREC = "float32 input is computed and returned in float32 (NumPy may widen to float64)."
_DATA_DEP = ("The output shape depends on the data: on webgpu the size is read back to the host "
             "(a small synchronising read).")

NOTES = {
    "nansum": "Sum ignoring NaNs (NaNs count as 0). " + _NAN,
    "nanprod": "Product ignoring NaNs (NaNs count as 1). " + _NAN,
    "nanmean": "Mean of the non-NaN elements; NaN for an all-NaN slice. " + _NAN,
    "nanvar": ("Variance of the non-NaN elements with ``ddof`` delta degrees of freedom; NaN "
               "where fewer than ``ddof + 1`` remain. " + _NAN),
    "nanstd": "Square root of ``nanvar``. " + _NAN,
    "nanmax": "Maximum ignoring NaNs; NaN for an all-NaN slice. " + _NAN,
    "nanmin": "Minimum ignoring NaNs; NaN for an all-NaN slice. " + _NAN,
    "nanargmax": ("Index of the maximum ignoring NaNs; -1 for an all-NaN slice, as CuPy "
                  "(NumPy raises ValueError, which would need a host read). " + _NAN),
    "nanargmin": ("Index of the minimum ignoring NaNs; -1 for an all-NaN slice, as CuPy "
                  "(NumPy raises ValueError, which would need a host read). " + _NAN),
    "nancumsum": "Cumulative sum with NaNs as 0; ``axis=None`` flattens. " + _NAN,
    "nancumprod": "Cumulative product with NaNs as 1; ``axis=None`` flattens. " + _NAN,
    "asarray": (
        "``obj`` may be an array of this namespace (returned as is unless ``copy`` or "
        "``dtype`` ask for a copy), an array of another numr namespace (copied through the "
        "host: an explicit transfer, not subject to the host-conversion policy), a Python "
        "scalar or nested sequence, or a NumPy array / any object NumPy can convert; host data "
        "is converted on the host and copied to the device once."),
    "from_dlpack": (
        "An array of another numr namespace is copied through the host (an explicit "
        "transfer, not subject to the host-conversion policy)."),
    "astype": "Casting a complex array to a real dtype raises DTypeMismatch.",
    "finfo": "The fields are Python ``float`` / ``int`` (NumPy returns NumPy scalars).",
    "iinfo": "The fields are Python ``int``.",
    "arange": "A floating-point range has exactly ``ceil((stop - start) / step)`` elements.",
    "add": _PROMOTION,
    "floor_divide": (
        "Floating-point operands: ``floor(x1 / x2)`` as the standard prefers (``inf // 2`` is "
        "``inf``), not Python's rules. Integer division by zero is unspecified by the "
        "standard; webgpu gives 0, NumPy's value."),
    "remainder": "Integer remainder by zero is unspecified by the standard; webgpu gives 0.",
    "pow": ("Integer ``pow`` with a negative exponent is unspecified by the standard; webgpu "
            "gives 0 unless the base is +-1."),
    "maximum": "NaN propagates on every backend.",
    "minimum": "NaN propagates on every backend.",
    "real": _COPY,
    "imag": _COPY,
    "round": "Halves round to even.",
    "bitwise_left_shift": ("webgpu: a shift count outside ``[0, bits)`` gives 0 (unspecified "
                           "by the standard)."),
    "bitwise_right_shift": ("webgpu: a shift count outside ``[0, bits)`` gives the sign fill "
                            "(unspecified by the standard)."),
    "sum": ("Sums of small integer dtypes return the default integer dtype of the same "
            "signedness. webgpu: float sums add at most about 1000 elements in sequence, then "
            "combine partial sums as a tree. " + _REDUCE_WEBGPU),
    "prod": ("Products of small integer dtypes return the default integer dtype of the same "
             "signedness. " + _REDUCE_WEBGPU),
    "max": "NaN propagates. " + _REDUCE_WEBGPU,
    "min": "NaN propagates. " + _REDUCE_WEBGPU,
    "mean": "The mean of an empty reduction is NaN. " + _REDUCE_WEBGPU,
    "var": ("webgpu computes in one pass (Welford per element, Chan's merge between partial "
            "states), stable for large means and small variances. " + _REDUCE_WEBGPU),
    "std": "As ``var``. " + _REDUCE_WEBGPU,
    "argmax": "The first index of the largest value (of the first NaN). " + _REDUCE_WEBGPU,
    "argmin": "The first index of the smallest value (of the first NaN). " + _REDUCE_WEBGPU,
    "cumulative_sum": ("Sums of small integer dtypes return the default integer dtype of the "
                       "same signedness. webgpu: a device-wide scan on the GPU."),
    "cumulative_prod": ("Products of small integer dtypes return the default integer dtype of "
                        "the same signedness."),
    "sort": "``descending=True`` with ``stable=True`` keeps equal elements in their input order.",
    "unique_all": "Each NaN is a distinct value. " + _DATA_DEP,
    "unique_counts": "Each NaN is a distinct value. " + _DATA_DEP,
    "unique_inverse": "Each NaN is a distinct value. " + _DATA_DEP,
    "unique_values": "Each NaN is a distinct value. " + _DATA_DEP,
    "nonzero": _DATA_DEP,
    "searchsorted": ("The standard leaves an invalid ``sorter`` unspecified: webgpu reads element "
                     "0 for an entry outside ``[0, n)`` where NumPy raises."),
    "repeat": ("With an array ``repeats`` the output size depends on the data: webgpu reads "
               "``repeats`` back to the host."),
    "vecdot": "Small integer dtypes are not widened: the result has the promoted input dtype.",
    "matmul": "webgpu: runs on the GPU. The ``@`` operator calls this function.",
    "linalg.eig": "Always complex output, also when every eigenvalue is real. " + _EIG_WEBGPU,
    "linalg.eigvals": "Always complex output. " + _EIG_WEBGPU,
    "linalg.solve": ("``x2`` is a vector only when it is 1-D; stacks broadcast. A singular "
                     "matrix raises InvalidArgument (a ValueError). " + _LINALG_WEBGPU),
    "linalg.inv": "A singular matrix raises InvalidArgument (a ValueError). " + _LINALG_WEBGPU,
    "linalg.cholesky": ("A matrix that is not positive definite raises InvalidArgument (a "
                        "ValueError). " + _LINALG_WEBGPU),
    "linalg.pinv": ("The default ``rtol`` is ``max(M, N) * eps`` of the dtype; an array ``rtol`` "
                    "is accepted. " + _LINALG_WEBGPU),
    "linalg.matrix_rank": ("The default ``rtol`` is ``max(M, N) * eps`` of the dtype. "
                           + _LINALG_WEBGPU),
    "linalg.trace": "Small integer dtypes are widened as in ``sum``. " + _LINALG_WEBGPU,
    "linalg.diagonal": _COPY,
    "linalg.svd": _LINALG_PREC + " " + _LINALG_WEBGPU,
    "linalg.svdvals": _LINALG_PREC + " " + _LINALG_WEBGPU,
    "linalg.qr": _LINALG_PREC + " " + _LINALG_WEBGPU,
    "linalg.eigh": _LINALG_PREC + " " + _LINALG_WEBGPU,
    "linalg.eigvalsh": _LINALG_PREC + " " + _LINALG_WEBGPU,
    "linalg.det": _LINALG_PREC + " " + _LINALG_WEBGPU,
    "linalg.slogdet": _LINALG_PREC + " " + _LINALG_WEBGPU,
    "linalg.matmul": "The same function as the namespace's ``matmul``.",
    "linalg.tensordot": "The same function as the namespace's ``tensordot``.",
    "linalg.vecdot": "The same function as the namespace's ``vecdot``.",
    "linalg.matrix_transpose": "The same function as the namespace's ``matrix_transpose``.",
    "fft.fft": _FFT, "fft.ifft": _FFT, "fft.rfft": _FFT, "fft.irfft": _FFT, "fft.hfft": _FFT,
    "fft.ihfft": _FFT, "fft.fftn": _FFT, "fft.ifftn": _FFT, "fft.rfftn": _FFT,
    "fft.irfftn": _FFT,
    "fft.fftshift": _COPY,
    "fft.ifftshift": _COPY,
    "Array.__init__": ("Arrays are made by namespace functions (``asarray``, ``zeros``, ...); "
                       "calling ``Array()`` raises TypeError."),
    "Array.nbytes": "Number of bytes the array's elements occupy (``size * itemsize``).",
    "Array.__len__": "Length of the first axis; a 0-d array raises TypeError.",
    "Array.__iter__": "Iterates over the first axis (``x[0]``, ``x[1]``, ...); 0-d raises.",
    "Array.__repr__": ("``Array([...], dtype=...)``, with ``device=`` for non-cpu arrays; "
                       "reads the data back to the host."),
    "Array.__array__": (
        "NumPy's conversion protocol (``numpy.asarray(x)``). Free (zero-copy) for cpu arrays; "
        "for cuda and webgpu arrays a device-to-host copy governed by the process-wide "
        "host-conversion policy (``numr_array_api.set_host_conversion``: 'allow', 'warn' "
        "(the default) or 'raise')."),
    "Array.__copy__": "Returns the array itself (``copy.copy``); use ``asarray(x, copy=True)``.",
    "Array.__deepcopy__": "A new array with the same data (``asarray(x, copy=True)``).",
    "Array.__reduce__": ("Pickles the data through a host copy; unpickling recreates the array "
                         "in the same namespace and on the same device."),
    "Array.__array_namespace__": "Returns this array's numr namespace module.",
    "Array.to_device": ("A device of another numr namespace ('cpu', 'webgpu:0', 'cuda:0') "
                        "moves the data through the host into that namespace; this is an "
                        "explicit transfer, not subject to the host-conversion policy."),
    "info.default_device": "None when the namespace has no device here (e.g. cuda without a GPU).",
    "info.dtypes": ("webgpu: float64 / complex128 need the adapter's shader-f64 and "
                    "shader-int64 features, int64 / uint64 need shader-int64; float16 is "
                    "always available (computed in float32)."),
    "info.default_dtypes": ("webgpu: float32 / int32 on an adapter without 64-bit support, "
                            "else float64 / int64."),
}
