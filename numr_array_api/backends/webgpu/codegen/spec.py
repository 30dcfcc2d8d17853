"""Kernel specs: one frozen object per kernel variant, both its cache key and its renderer.

A family defines a ``@dataclasses.dataclass(frozen=True)`` subclass of ``KernelSpec`` whose
fields are everything the WGSL depends on (dtypes, ranks, op, config); ``layout(caps)`` and
``render(caps)`` read only those fields and the adapter's ``Caps``. Because the spec *is*
the pipeline-cache key, a field the renderer reads but the key lacks cannot exist.

``client.kernel(spec)`` compiles the source once per adapter (one shader module for all the
spec's entry points) and returns a ``Kernel`` that records launches by name::

    k = client.kernel(MySpec(dtype=dt.float32, rank=2))
    k.launch((groups, 1, 1), src=storage, dst=out, n=size, dims=[...])

Set ``NUMR_WEBGPU_DUMP=<folder>`` to write every source compiled in the process there, or
call ``spec.source(caps)`` to see one without an adapter.
"""

from __future__ import annotations

import abc
import dataclasses
import os
from typing import Any, ClassVar

from ...._core import environment
from .caps import Caps
from .layout import Layout

__all__ = ["KernelSpec", "Kernel"]

_DUMP = environment.get("NUMR_WEBGPU_DUMP")


class KernelSpec(abc.ABC):
    """Base of every kernel spec (subclasses are frozen dataclasses)."""

    entries: ClassVar[tuple[str, ...]] = ("main",)

    @abc.abstractmethod
    def layout(self, caps: Caps) -> Layout:
        """Bindings and parameter words of the kernel on ``caps``."""

    @abc.abstractmethod
    def render(self, caps: Caps) -> str:
        """The WGSL source on ``caps``."""

    def needs(self) -> tuple[str, ...]:
        """Adapter features (Caps field names) the kernel needs; checked before compiling."""
        return ()

    def runtime_checks(self) -> Any:
        """None: wgpu's shader runtime checks (every index clamped, every loop bounded);
        an int: only these WGPUShaderRuntimeChecks flags (runtime/pipelines.py). A spec
        whose ``trusted`` field is set compiles with none (0): only specs whose indices
        are in range and loops counted by construction have that field, each with the
        argument written beside it."""
        return 0 if getattr(self, "trusted", False) else None

    @property
    def label(self) -> str:
        if dataclasses.is_dataclass(self):
            fields = "_".join(_short(getattr(self, f.name))
                              for f in dataclasses.fields(self))
            return f"{type(self).__name__}_{fields}"
        return type(self).__name__

    def source(self, caps: Caps) -> str:
        """The WGSL text of this variant on ``caps`` (no device needed)."""
        return self.render(caps)


def _short(v: Any) -> str:
    name = getattr(v, "name", None)
    if isinstance(name, str):
        return name
    if isinstance(v, (tuple, list)):
        return "-".join(_short(x) for x in v)
    return str(v)


class Kernel:
    """A spec compiled for one client: its layout and one pipeline per entry point."""

    __slots__ = ("client", "spec", "layout", "pipes")

    def __init__(self, client: Any, spec: KernelSpec) -> None:
        caps = Caps.of(client)
        missing = [f for f in spec.needs() if not getattr(caps, f)]
        if missing:
            from ...._core.errors import BackendLimitation
            raise BackendLimitation("webgpu", spec.label,
                                    f"the adapter lacks {', '.join(missing)}")
        self.client = client
        self.spec = spec
        self.layout = spec.layout(caps)
        source = spec.render(caps)
        if _DUMP:
            _dump(spec.label, source)
        lay = self.layout
        checks = spec.runtime_checks()
        self.pipes = {e: client.pipelines.get(source, e, lay.kinds, lay.imm_size,
                                              lay.uniform_size, label=f"{spec.label}:{e}",
                                              checks=checks)
                      for e in spec.entries}

    def launch(self, groups: tuple[int, int, int], entry: str = "main", **args: Any) -> None:
        """Record one dispatch; ``args`` name every binding (storage or raw triple) and the
        parameter words (ints, or int lists for word arrays)."""
        lay = self.layout
        storages = {k: args.pop(k) for k in list(args) if k in lay._buf_pos}
        triples = lay.bind(storages, args)
        self.client.launch(self.pipes[entry], triples, lay.pack(**args), groups)

    def launch_indirect(self, indirect: Any, entry: str = "main", **args: Any) -> None:
        """Like ``launch``, with the workgroup counts read by the GPU from ``indirect``
        (a storage of three u32 at a 4-byte-aligned offset, written by an earlier kernel)."""
        lay = self.layout
        storages = {k: args.pop(k) for k in list(args) if k in lay._buf_pos}
        triples = lay.bind(storages, args)
        self.client.launch_indirect(self.pipes[entry], triples, lay.pack(**args), indirect)


def _dump(label: str, source: str) -> None:
    os.makedirs(_DUMP, exist_ok=True)
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in label)[:150]
    with open(os.path.join(_DUMP, safe + ".wgsl"), "w") as f:
        f.write(source)
