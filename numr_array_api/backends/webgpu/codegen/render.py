"""Geometry helpers shared by kernel families: dim collapsing and grid sizes.

(Per-dispatch words and their declarations are codegen/layout.py's.)
"""

WG = 256  # workgroup size of the elementwise templates


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


def workgroups(units, client, cap=16384):
    """Grid-stride launch: enough groups to cover ``units``, never more than ``cap``."""
    return (max(1, min(-(-units // WG), cap, client.max_groups)), 1, 1)
