"""__array_namespace_info__: devices, default dtypes, dtypes and capabilities."""

from .._core import dtypes as dt
from .._core.errors import InvalidArgument


def build(ctx):
    be = ctx.be

    class __array_namespace_info__:
        """Inspection API of this namespace (per the 2025.12 standard)."""

        def capabilities(self):
            caps = {"boolean indexing": True, "data-dependent shapes": True,
                    "max dimensions": be.max_dimensions}
            caps.update(be.extra_capabilities())
            return caps

        def default_device(self):
            # 2025.12: None when the namespace has no device (e.g. cuda without a GPU)
            d = be.default_device()
            return d if d in tuple(be.devices()) else None

        def devices(self):
            return tuple(be.devices())

        def _check_device(self, device):
            if device is not None:
                ctx.resolve_device(device)

        def default_dtypes(self, *, device=None):
            dev = None if device is None else ctx.resolve_device(device)
            f, i, c, x = ctx.defaults_for(dev)
            return {"real floating": f, "complex floating": c, "integral": i, "indexing": x}

        def dtypes(self, *, device=None, kind=None):
            native = be.native_dtypes
            if device is not None:  # backends with per-device support say so
                per_device = getattr(be, "device_native_dtypes", None)
                dev = ctx.resolve_device(device)
                if per_device is not None:
                    native = per_device(dev)
            avail = [d for d in dt.STANDARD_DTYPES if d in native]
            if kind is None:
                sel = avail
            else:
                kinds = kind if isinstance(kind, tuple) else (kind,)
                codes = ""
                for k in kinds:
                    if k not in dt.KIND_NAMES:
                        raise InvalidArgument("kind", f"unknown dtype kind {k!r}; expected one "
                                                      f"of {sorted(dt.KIND_NAMES)}")
                    codes += dt.KIND_NAMES[k]
                sel = [d for d in avail if d.kind in codes]
            return {d.name: d for d in sel}

    __array_namespace_info__.__module__ = ctx.module.__name__
    return {"__array_namespace_info__": __array_namespace_info__}
