"""The Device type: a backend kind plus an index, compared by value."""

from .errors import InvalidArgument

__all__ = ["Device", "parse_device"]


class Device:
    __slots__ = ("kind", "index")

    def __init__(self, kind, index=0):
        self.kind = kind
        self.index = index

    def __repr__(self):
        # 'cpu' is the one cpu device; any other index is named in full ('cpu:1'), so an
        # error about a wrong device never prints the valid one's name
        return "cpu" if self.kind == "cpu" and self.index == 0 else f"{self.kind}:{self.index}"

    __str__ = __repr__

    def __eq__(self, other):
        if isinstance(other, Device):
            return self.kind == other.kind and self.index == other.index
        if isinstance(other, str):
            try:
                o = parse_device(other)
            except InvalidArgument:
                return False
            return self.kind == o.kind and self.index == o.index
        return NotImplemented

    def __hash__(self):
        return hash((self.kind, self.index))

    def __reduce__(self):
        return (Device, (self.kind, self.index))


def parse_device(spec):
    """A Device from a Device or a string such as 'cpu', 'cuda', 'cuda:1', 'webgpu:0'."""
    if isinstance(spec, Device):
        return spec
    if isinstance(spec, str):
        kind, _, idx = spec.partition(":")
        kind = kind.strip().lower()
        if kind in ("cpu", "cuda", "webgpu"):
            try:
                index = int(idx) if idx else 0
            except ValueError:
                index = -1
            if index >= 0:
                return Device(kind, index)
    raise InvalidArgument("device", f"expected a numr Device or a string like 'cpu', 'cuda:0', "
                                    f"'webgpu:0'; got {spec!r}")
