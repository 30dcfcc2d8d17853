"""Template rendering shared by the runtime kernels (and usable by front-end kernels).

Per-dispatch scalars ("params") are u32 words. They travel as immediates (``var<immediate>``)
when the device has the ``immediates`` feature and they fit, otherwise in a slot of the
recorder's uniform ring, bound with a dynamic offset so the bind group stays reusable. A
template only calls ``P(i)``; ``Params`` decides the declaration.
"""

import struct

WG = 256  # workgroup size of the elementwise templates


class Params:
    """Declaration and accessors of ``n`` u32 parameter words for one kernel."""

    _memo = {}

    @classmethod
    def of(cls, client, n, binding):
        key = (id(client), n, binding)
        p = cls._memo.get(key)
        if p is None:
            p = cls._memo[key] = cls(client, n, binding)
        return p

    def __init__(self, client, n, binding):
        self.n = n
        self.vec4s = max(1, -(-n // 4))
        nbytes = self.vec4s * 16
        self.immediate = nbytes <= client.max_immediate
        self.imm_size = nbytes if self.immediate else 0
        self.uniform_size = 0 if self.immediate else nbytes
        self.binding = binding

    def decl(self):
        if self.immediate:
            return f"var<immediate> P: array<vec4<u32>, {self.vec4s}>;"
        return (f"@group(0) @binding({self.binding}) var<uniform> P: "
                f"array<vec4<u32>, {self.vec4s}>;")

    @staticmethod
    def P(i):
        return f"P[{i // 4}].{'xyzw'[i % 4]}"

    def layout(self, bindings):
        return bindings + (() if self.immediate else ("uniform",))

    def pack(self, words):
        words = list(words) + [0] * (self.vec4s * 4 - len(words))
        return struct.pack(f"<{len(words)}I", *[w & 0xFFFFFFFF for w in words])


def collapse(shape, strides):
    """Merge dims that are contiguous with each other; drop size-1 dims."""
    dims = [(n, s) for n, s in zip(shape, strides) if n != 1]
    out = []
    for n, s in dims:
        if out and out[-1][1] == s * n:
            pn, _ = out[-1]
            out[-1] = (pn * n, s)
        else:
            out.append((n, s))
    return tuple(n for n, _ in out), tuple(s for _, s in out)


def strided_index_fn(rank, P, first, name="src_index"):
    """WGSL ``name(e)``: row-major element number -> element index in a strided operand.

    Params from word ``first``: offset, then (extent, stride) per dim. u32 arithmetic wraps,
    so negative strides (bitcast) give the right index as long as the result is in range;
    bindings are at most 2 GiB, so every index fits in u32.
    """
    if rank == 0:
        return f"fn {name}(e: u32) -> u32 {{ return {P(first)}; }}"
    if rank == 1:
        return f"fn {name}(e: u32) -> u32 {{ return {P(first)} + e * {P(first + 2)}; }}"
    body = [f"fn {name}(e: u32) -> u32 {{", "  var r = e;", f"  var o = {P(first)};"]
    for d in reversed(range(rank)):
        n, s = P(first + 1 + 2 * d), P(first + 2 + 2 * d)
        if d == 0:
            body.append(f"  o += r * {s};")
        else:
            body.append(f"  o += (r % {n}) * {s}; r = r / {n};")
    body += ["  return o;", "}"]
    return "\n".join(body)


def workgroups(units, client, cap=16384):
    """Grid-stride launch: enough groups to cover ``units``, never more than ``cap``."""
    return (max(1, min(-(-units // WG), cap, client.max_groups)), 1, 1)
