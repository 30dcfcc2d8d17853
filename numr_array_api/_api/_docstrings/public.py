"""What counts as the public API, for the documentation tests and the docs build.

The namespaces have no ``__all__`` (the standard's names plus runtime extras); their public
functions are the module attributes that are Python functions with a public name, plus the
standard's ``__array_namespace_info__``. ``ext`` and its submodules declare ``__all__``.
"""

import importlib
import types

__all__ = ["NAMESPACES", "EXT_MODULES", "SUBMODULES", "load", "public_functions",
           "array_members"]

NAMESPACES = ("numr_array_api.cpu", "numr_array_api.cuda", "numr_array_api.webgpu")
SUBMODULES = ("linalg", "fft")
EXT_MODULES = ("numr_array_api.ext", "numr_array_api.ext.linalg", "numr_array_api.ext.random",
               "numr_array_api.ext.reductions")


def load(name):
    """The module ``name``, or None when it cannot be imported here (cuda without CuPy
    imports and reports no devices; a broken install would not)."""
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def public_functions(module):
    """{name: function} of ``module``'s public functions (and classes named in ``__all__``
    or the standard's info class)."""
    names = getattr(module, "__all__", None)
    out = {}
    for name in (names if names is not None else list(vars(module))):
        obj = getattr(module, name)
        if name == "__array_namespace_info__" or (
                not name.startswith("_") and isinstance(obj, (types.FunctionType,
                                                              types.BuiltinFunctionType))):
            out[name] = obj
    return out


def array_members(cls):
    """{name: function or property} of an array class of a namespace (``type(x)``): the
    methods, properties and operators defined by numr on it and its bases."""
    from ..._core.array import Array
    out = {}
    for klass in reversed([c for c in cls.__mro__ if issubclass(c, Array)]):
        for name, obj in vars(klass).items():
            if isinstance(obj, (types.FunctionType, property)) and (
                    not name.startswith("_") or (name.endswith("__") and name != "__init__")):
                out[name] = obj
    return out
