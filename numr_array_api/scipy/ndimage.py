"""scipy.ndimage for numr arrays, on the arrays' own device.

Every public function of ``scipy.ndimage``, with SciPy's name and signature:

- numr cpu arrays: SciPy itself on the NumPy payload (an ``output=`` array is written in
  place, as SciPy writes it);
- numr cuda arrays: ``cupyx.scipy.ndimage`` on the CuPy payload (no copy), except the
  functions SciPy itself keeps from CuPy (its ``CUPY_BLOCKLIST``);
- numr webgpu arrays: numr's WGSL kernels for the filters (correlate / convolve, uniform,
  Gaussian and their derivatives, Prewitt / Sobel / Laplace, minimum / maximum, rank,
  median, percentile) and the grey morphology built on minimum / maximum (erosion,
  dilation, opening, closing, gradient, Laplace, tophats) and the Fourier-domain filters
  (Gaussian, uniform, shift; ellipsoid for 1-d input); everything else raises ``BackendLimitation`` naming the function
  (``implemented`` says which, so ``numr_array_api.scipy``'s routing sends those calls to
  SciPy's own code instead). The data never goes to the host; a footprint or structure
  given as a device array is read back explicitly (a few bytes the host branches on).

docs/scipy-ndimage.md lists the arguments the webgpu kernels cover and the accuracy
measured against SciPy.
"""

from __future__ import annotations

import functools
import inspect

from .._core.array import Array
from .._core.dtypes import DType
from .._core.errors import BackendLimitation
from . import _bridge

__all__ = [
    "affine_transform", "binary_closing", "binary_dilation", "binary_erosion",
    "binary_fill_holes", "binary_hit_or_miss", "binary_opening", "binary_propagation",
    "black_tophat", "center_of_mass", "convolve", "convolve1d", "correlate", "correlate1d",
    "distance_transform_bf", "distance_transform_cdt", "distance_transform_edt", "extrema",
    "find_objects", "fourier_ellipsoid", "fourier_gaussian", "fourier_shift",
    "fourier_uniform", "gaussian_filter", "gaussian_filter1d", "gaussian_gradient_magnitude",
    "gaussian_laplace", "generate_binary_structure", "generic_filter", "generic_filter1d",
    "generic_gradient_magnitude", "generic_laplace", "geometric_transform", "grey_closing",
    "grey_dilation", "grey_erosion", "grey_opening", "histogram", "iterate_structure",
    "label", "labeled_comprehension", "laplace", "map_coordinates", "maximum",
    "maximum_filter", "maximum_filter1d", "maximum_position", "mean", "median",
    "median_filter", "minimum", "minimum_filter", "minimum_filter1d", "minimum_position",
    "morphological_gradient", "morphological_laplace", "percentile_filter", "prewitt",
    "rank_filter", "rotate", "shift", "sobel", "spline_filter", "spline_filter1d",
    "standard_deviation", "sum", "sum_labels", "uniform_filter", "uniform_filter1d",
    "value_indices", "variance", "vectorized_filter", "watershed_ift", "white_tophat", "zoom",
    "implemented",
]

# functions with numr webgpu kernels (backends/webgpu/scipy/ndimage/filters.py)
WEBGPU = frozenset({
    "correlate1d", "convolve1d", "correlate", "convolve", "uniform_filter1d",
    "uniform_filter", "gaussian_filter1d", "gaussian_filter", "prewitt", "sobel", "laplace",
    "gaussian_laplace", "gaussian_gradient_magnitude", "generic_laplace",
    "generic_gradient_magnitude", "minimum_filter1d", "maximum_filter1d", "minimum_filter",
    "maximum_filter", "median_filter", "rank_filter", "percentile_filter",
    # grey morphology (backends/webgpu/scipy/ndimage/morphology.py)
    "grey_erosion", "grey_dilation", "grey_opening", "grey_closing",
    "morphological_gradient", "morphological_laplace", "white_tophat", "black_tophat",
    # Fourier-domain filters (backends/webgpu/scipy/ndimage/fourier.py)
    "fourier_gaussian", "fourier_uniform", "fourier_ellipsoid", "fourier_shift"})

# SciPy 1.17's list of functions it never hands to CuPy (read from SciPy when present)
_CUPY_BLOCKLIST = ("distance_transform_bf", "distance_transform_cdt", "find_objects",
                   "geometric_transform", "vectorized_filter")


def _cupy_blocklist():
    try:
        from scipy.ndimage import _support_alternative_backends as sab
        return tuple(getattr(sab, "CUPY_BLOCKLIST", _CUPY_BLOCKLIST))
    except ImportError:
        return _CUPY_BLOCKLIST


def implemented(name: str, backend: str) -> bool:
    """True where numr computes ``scipy.ndimage.<name>`` for arrays of ``backend`` itself:
    cpu where SciPy has it, cuda where cupyx.scipy.ndimage has it and SciPy delegates it,
    webgpu where numr has a kernel."""
    if name not in __all__ or name == "implemented":
        return False
    if backend == "webgpu":
        return name in WEBGPU
    if backend == "cuda" and name in _cupy_blocklist():
        return False
    if backend in ("cpu", "cuda"):
        return _bridge.native_function("ndimage", name, backend) is not None
    return False


def _webgpu(name):
    if name not in WEBGPU:
        return None
    from ..backends.webgpu.scipy.ndimage import filters, fourier, morphology
    for mod in (filters, morphology, fourier):
        f = getattr(mod, name, None)
        if f is not None:
            return f
    return None


# arguments that are parameters, not data: given as numr arrays (SciPy's own tests pass
# ``origin=xp.asarray(...)``), they are read to the host explicitly, as the few numbers
# they are, so the host-conversion policy never sees an implicit transfer
_PARAMETERS = frozenset({"origin", "size", "sigma", "cval", "order", "truncate", "radius",
                         "rank", "percentile", "shift", "n", "axis", "axes", "mode"})


def _host_parameters(signature, args, kwargs):
    if signature is None:
        return args, kwargs
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError:
        return args, kwargs          # the implementation raises SciPy's error
    changed = False
    for key, value in bound.arguments.items():
        if key in _PARAMETERS and isinstance(value, Array):
            bound.arguments[key] = value.to_device("cpu")._data.tolist()
            changed = True
    return (bound.args, bound.kwargs) if changed else (args, kwargs)


_GREY = frozenset({"grey_erosion", "grey_dilation", "grey_opening", "grey_closing",
                   "morphological_gradient", "morphological_laplace", "white_tophat",
                   "black_tophat"})


def _cupyx_morphology_footprint(name, kwargs):
    """SciPy takes a ``structure`` alone (its shape is the footprint); cupyx.scipy asks
    for a size or a footprint too: the footprint SciPy would use is given."""
    st = kwargs.get("structure")
    if name not in _GREY or st is None or kwargs.get("size") is not None \
            or kwargs.get("footprint") is not None:
        return kwargs
    import numpy as np
    return dict(kwargs, footprint=np.ones(tuple(st.shape) if hasattr(st, "shape")
                                          else np.shape(st), dtype=bool))


def _make(name):
    import scipy.ndimage
    original = getattr(scipy.ndimage, name, None)
    # SciPy's own function, also when numr's routing has wrapped it already
    original = getattr(original, "__numr_routed__", original)
    try:
        signature = inspect.signature(original) if original is not None else None
    except (TypeError, ValueError):
        signature = None

    def function(*args, **kwargs):
        backend = _bridge.backend_of(args, kwargs)
        if backend is None:
            if original is None:
                raise BackendLimitation("cpu", f"scipy.ndimage.{name}",
                                        "the installed SciPy has no such function")
            return original(*args, **kwargs)
        if backend == "webgpu":
            impl = _webgpu(name)
            if impl is None:
                raise BackendLimitation("webgpu", f"scipy.ndimage.{name}",
                                        "numr has no webgpu kernel for it")
            args, kwargs = _host_parameters(signature, args, kwargs)
            return impl(*args, **kwargs)
        # numr dtypes (output=xp.float32) as NumPy's, which SciPy and cupyx understand
        args = tuple(a.np if isinstance(a, DType) else a for a in args)
        kwargs = {k: v.np if isinstance(v, DType) else v for k, v in kwargs.items()}
        if backend == "cuda":
            kwargs = _cupyx_morphology_footprint(name, kwargs)
        result = _bridge.call_native("ndimage", name, args, kwargs)
        # SciPy returns the output= array itself: give back the caller's numr array
        for a in _bridge.numr_arrays((args, kwargs)):
            if getattr(result, "_data", None) is a._data:
                return a
        return result

    if original is not None:
        function = functools.wraps(original, updated=())(function)
    else:
        function.__name__ = function.__qualname__ = name
    function.__module__ = __name__
    return function


# SciPy's functions for numr arrays (each wraps SciPy's, so signature and docstring are SciPy's)
affine_transform = _make("affine_transform")
binary_closing = _make("binary_closing")
binary_dilation = _make("binary_dilation")
binary_erosion = _make("binary_erosion")
binary_fill_holes = _make("binary_fill_holes")
binary_hit_or_miss = _make("binary_hit_or_miss")
binary_opening = _make("binary_opening")
binary_propagation = _make("binary_propagation")
black_tophat = _make("black_tophat")
center_of_mass = _make("center_of_mass")
convolve = _make("convolve")
convolve1d = _make("convolve1d")
correlate = _make("correlate")
correlate1d = _make("correlate1d")
distance_transform_bf = _make("distance_transform_bf")
distance_transform_cdt = _make("distance_transform_cdt")
distance_transform_edt = _make("distance_transform_edt")
extrema = _make("extrema")
find_objects = _make("find_objects")
fourier_ellipsoid = _make("fourier_ellipsoid")
fourier_gaussian = _make("fourier_gaussian")
fourier_shift = _make("fourier_shift")
fourier_uniform = _make("fourier_uniform")
gaussian_filter = _make("gaussian_filter")
gaussian_filter1d = _make("gaussian_filter1d")
gaussian_gradient_magnitude = _make("gaussian_gradient_magnitude")
gaussian_laplace = _make("gaussian_laplace")
generate_binary_structure = _make("generate_binary_structure")
generic_filter = _make("generic_filter")
generic_filter1d = _make("generic_filter1d")
generic_gradient_magnitude = _make("generic_gradient_magnitude")
generic_laplace = _make("generic_laplace")
geometric_transform = _make("geometric_transform")
grey_closing = _make("grey_closing")
grey_dilation = _make("grey_dilation")
grey_erosion = _make("grey_erosion")
grey_opening = _make("grey_opening")
histogram = _make("histogram")
iterate_structure = _make("iterate_structure")
label = _make("label")
labeled_comprehension = _make("labeled_comprehension")
laplace = _make("laplace")
map_coordinates = _make("map_coordinates")
maximum = _make("maximum")
maximum_filter = _make("maximum_filter")
maximum_filter1d = _make("maximum_filter1d")
maximum_position = _make("maximum_position")
mean = _make("mean")
median = _make("median")
median_filter = _make("median_filter")
minimum = _make("minimum")
minimum_filter = _make("minimum_filter")
minimum_filter1d = _make("minimum_filter1d")
minimum_position = _make("minimum_position")
morphological_gradient = _make("morphological_gradient")
morphological_laplace = _make("morphological_laplace")
percentile_filter = _make("percentile_filter")
prewitt = _make("prewitt")
rank_filter = _make("rank_filter")
rotate = _make("rotate")
shift = _make("shift")
sobel = _make("sobel")
spline_filter = _make("spline_filter")
spline_filter1d = _make("spline_filter1d")
standard_deviation = _make("standard_deviation")
sum = _make("sum")
sum_labels = _make("sum_labels")
uniform_filter = _make("uniform_filter")
uniform_filter1d = _make("uniform_filter1d")
value_indices = _make("value_indices")
variance = _make("variance")
vectorized_filter = _make("vectorized_filter")
watershed_ift = _make("watershed_ift")
white_tophat = _make("white_tophat")
zoom = _make("zoom")
