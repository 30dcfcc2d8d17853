"""Moving arrays between namespaces and devices: to_device, from_dlpack."""

from .._core.array import Array
from .._core.device import Device, parse_device
from .._core.errors import InvalidArgument


def build(ctx):
    be = ctx.be

    def to_device(x, device, stream):
        if stream is not None:
            be.check_stream(stream)
        if isinstance(device, str):
            device = parse_device(device)
        if not isinstance(device, Device):
            raise InvalidArgument("device", f"expected a Device or a device string, got {device!r}")
        if device == be.device_of(x._data):
            return x
        if device.kind == be.device_kind:
            return ctx.wrap(be.to_device(x._data, ctx.resolve_device(device)))
        # another backend: hand the host copy to that namespace (explicit, so no policy check)
        target = _namespace_for(device)
        return target.asarray(be.to_numpy(x._data), device=device)

    ctx.to_device = to_device

    def from_dlpack(x, /, *, device=None, copy=None):
        if device is not None and be.device_kind != "cpu" and _names_cpu(device):
            # The standard's host hand-over: from_dlpack(x, device=CPU) must return an array
            # whose memory the interpreter can read; a GPU namespace has no CPU device, so the
            # host copy is an array of numr's cpu namespace.
            return _namespace_for(Device("cpu")).from_dlpack(x, copy=copy)
        if device is not None:
            device = ctx.resolve_device(device)
        if isinstance(x, Array) and x.__class__ is not ctx.ArrayT:
            if copy is False:
                raise ValueError(f"from_dlpack: copy=False, but an array of "
                                 f"{x._ctx.module.__name__} reaches this namespace only "
                                 f"through a copy")
            host = x._ctx.be.to_numpy(x._data)
            return ctx.wrap(be.from_numpy(host, device or be.default_device(), copy=True))
        if not hasattr(x, "__dlpack__"):
            raise TypeError(f"from_dlpack: 'x' must implement __dlpack__, got {type(x).__name__}")
        return ctx.wrap(be.from_dlpack(x, device=device, copy=copy))

    return {"from_dlpack": from_dlpack}


def _names_cpu(device):
    try:
        return parse_device(device).kind == "cpu"
    except Exception:  # noqa: BLE001 - not a device spelling of numr's: not the CPU either
        return False


def _namespace_for(device):
    import importlib
    return importlib.import_module(f"numr_array_api.{device.kind}")
