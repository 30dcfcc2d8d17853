"""Choosing the namespace, device and floating dtype an ext function works in."""

import importlib
import operator
import re

from .._core.errors import BackendUnavailable, DTypeMismatch, InvalidArgument

_BACKEND_NAMESPACES = {"cpu": "numr_array_api.cpu", "cuda": "numr_array_api.cuda",
                       "webgpu": "numr_array_api.webgpu"}


def _import_numr(kind):
    name = _BACKEND_NAMESPACES[kind]
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        raise BackendUnavailable(kind, f"cannot import {name} ({exc}); pass xp= explicitly") from exc


def namespace_of_device(device):
    # A numr Device may carry its namespace; otherwise its printed form ("cuda:0",
    # "webgpu:1", "cpu") names the backend. Foreign devices (torch.device, ...) need xp=.
    kind = getattr(device, "kind", None)
    if type(device).__module__.startswith("numr_array_api") and kind in _BACKEND_NAMESPACES:
        return _import_numr(kind)
    for attr in ("__array_namespace__", "namespace"):
        ns = getattr(device, attr, None)
        if ns is not None:
            return ns() if callable(ns) else ns
    text = device if isinstance(device, str) else str(device)
    m = re.match(r"^\W*(?:Device\()?\W*(cpu|cuda|webgpu)\b", text, re.IGNORECASE)
    if m is None:
        raise InvalidArgument("device", f"cannot infer an array namespace from {device!r}; pass xp=")
    return _import_numr(m.group(1).lower())


def resolve(xp, device):
    """``xp`` if given, else the namespace of ``device``, else ``numr_array_api.cpu``."""
    if xp is not None:
        if not hasattr(xp, "asarray"):
            raise InvalidArgument("xp", f"{xp!r} is not an array namespace")
        return xp
    if device is not None:
        return namespace_of_device(device)
    return _import_numr("cpu")


def _info(xp):
    f = getattr(xp, "__array_namespace_info__", None)
    return f() if f is not None else None


def float_dtypes(xp, device):
    """{"float32": dtype, "float64": dtype} for the floats ``xp`` has on ``device``."""
    info = _info(xp)
    if info is not None:
        try:
            return dict(info.dtypes(device=device, kind="real floating"))
        except Exception:  # pragma: no cover - namespaces with partial info objects
            pass
    return {k: getattr(xp, k) for k in ("float32", "float64") if hasattr(xp, k)}


def real_float_dtype(xp, dtype, device, arg="dtype"):
    """Validate ``dtype`` (None: the namespace's default real floating dtype)."""
    if dtype is None:
        info = _info(xp)
        if info is not None:
            try:
                return info.default_dtypes(device=device)["real floating"]
            except Exception:  # pragma: no cover
                pass
        return xp.float64
    floats = float_dtypes(xp, device)
    for d in floats.values():
        if dtype == d:
            return dtype
    raise DTypeMismatch(
        f"'{arg}' must be a real floating dtype of {getattr(xp, '__name__', xp)} "
        f"({', '.join(floats)}), got {dtype}", lhs=dtype)


def is_float32(xp, dtype):
    return dtype == getattr(xp, "float32", None)


def has_float64(xp, device):
    return "float64" in float_dtypes(xp, device)


def check_int(value, arg, low=None, high=None):
    if isinstance(value, bool):
        raise InvalidArgument(arg, "must be an integer, got bool")
    try:
        value = operator.index(value)
    except TypeError:
        raise InvalidArgument(arg, f"must be an integer, got {type(value).__name__}") from None
    if low is not None and value < low:
        raise InvalidArgument(arg, f"must be >= {low}, got {value}")
    if high is not None and value > high:
        raise InvalidArgument(arg, f"must be <= {high}, got {value}")
    return int(value)


def broadcast_shapes(*shapes):
    """Broadcast shape of ``shapes`` (ValueError if they do not broadcast). Pure Python:
    ``np.broadcast_shapes`` costs tens of microseconds, a noticeable share of a small GEMM."""
    ndim = max((len(s) for s in shapes), default=0)
    out = [1] * ndim
    for s in shapes:
        off = ndim - len(s)
        for i, n in enumerate(s):
            cur = out[off + i]
            if n != cur:
                if cur == 1:
                    out[off + i] = n
                elif n != 1:
                    raise ValueError(f"shapes {shapes} do not broadcast")
    return tuple(out)
