"""What an adapter lets a kernel use: the one input renderers take besides their spec.

Renderers never see a client, so every kernel variant can be rendered (and compiled through
naga) for any adapter description, with no device: the tests render each family for the
capability sets below and compile them on whatever adapter exists.
"""

from __future__ import annotations

import dataclasses
from typing import Any

__all__ = ["Caps", "LAVAPIPE", "NVIDIA", "NO_64BIT"]


@dataclasses.dataclass(frozen=True)
class Caps:
    f16: bool = False            # shader-f16 (numr computes float16 in f32 anyway)
    f64: bool = False            # shader-f64
    int64: bool = False          # shader-int64
    subgroup: bool = False       # subgroup builtins (size never assumed)
    max_immediate: int = 0       # bytes of immediates (push constants); 0: uniform ring
    workgroup_storage: int = 16384
    invocations: int = 256       # max invocations per workgroup
    max_binding: int = 128 << 20
    storage_align: int = 256
    max_groups: int = 65535      # per dimension

    @staticmethod
    def of(client: Any) -> "Caps":
        caps = getattr(client, "_caps", None)
        if caps is None:
            lim = client.limits
            caps = Caps(
                f16="shader-f16" in client.features,
                f64="shader-f64" in client.features,
                int64="shader-int64" in client.features,
                subgroup="subgroup" in client.features,
                max_immediate=client.max_immediate,
                workgroup_storage=lim.get("max-compute-workgroup-storage-size", 16384),
                invocations=lim.get("max-compute-invocations-per-workgroup", 256),
                max_binding=client.max_binding,
                storage_align=client.storage_align,
                max_groups=client.max_groups,
            )
            client._caps = caps
        return caps

    def wg_size(self, want: int = 256) -> int:
        """The largest power of two <= ``want`` the adapter runs in one workgroup."""
        n = 1
        while n * 2 <= min(want, self.invocations):
            n *= 2
        return n


# Adapter descriptions for rendering without a device (tests, WGSL dumps).
LAVAPIPE = Caps(f16=True, f64=True, int64=True, subgroup=True, max_immediate=128,
                workgroup_storage=32768, invocations=1024, max_binding=128 << 20)
NVIDIA = Caps(f16=True, f64=True, int64=True, subgroup=True, max_immediate=128,
              workgroup_storage=49152, invocations=1024, max_binding=(2 << 30) - 4)
NO_64BIT = Caps(max_immediate=0)
