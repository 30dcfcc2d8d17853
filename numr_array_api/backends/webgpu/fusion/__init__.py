"""Lazy elementwise fusion on the webgpu backend (opt-in; docs/webgpu-kernels.md).

With fusion on, elementwise functions, operators, ``where`` and ``astype`` build an
expression instead of dispatching a kernel; the expression runs as one generated kernel
when its data is needed (graph.py says when). Off (the default), every call dispatches
eagerly exactly as before: the only cost is one flag test per call.

graph.py     the lazy payload (LazyStorage), expression nodes, flush triggers and limits
codegen.py   the fused kernel: one WGSL function per node from the eager recipes, its
             layout, launch and render-and-compile variants
"""

from ...._core.errors import InvalidArgument
from .graph import flush_all, held_bytes, pending_count, settings, stats

__all__ = ["set_fusion", "get_fusion", "fusion", "fusion_stats", "flush_all"]

_LIMITS = ("max_nodes", "max_inputs", "max_scalar_words", "max_library_ops", "max_pending",
           "max_held_bytes")


def set_fusion(enabled=True, **limits):
    """Turn lazy elementwise fusion on or off (process-wide, every thread) and optionally
    set its limits: ``max_nodes`` (nodes per fused kernel), ``max_inputs`` (array inputs
    per kernel; the adapter's storage-binding limit also applies), ``max_scalar_words``,
    ``max_library_ops`` (distinct math-library functions per kernel), ``max_pending`` (pending expressions) and ``max_held_bytes`` (bytes of input buffers
    pending expressions keep alive). Turning it off computes what is pending."""
    if not isinstance(enabled, bool):
        raise InvalidArgument("enabled", f"must be a bool, got {enabled!r}")
    for k, v in limits.items():
        if k not in _LIMITS:
            raise InvalidArgument(k, f"unknown fusion setting; known: {', '.join(_LIMITS)}")
        if not isinstance(v, int) or isinstance(v, bool) or v < 1:
            raise InvalidArgument(k, f"must be a positive int, got {v!r}")
    if not enabled:
        settings.on = False
        flush_all()
    for k, v in limits.items():
        setattr(settings, k, v)
    settings.on = enabled


def get_fusion():
    """The fusion settings as a dict (``enabled`` and the limits)."""
    return {"enabled": settings.on, **{k: getattr(settings, k) for k in _LIMITS}}


class fusion:
    """Context manager: ``with fusion(): ...`` runs the block with fusion on (or off with
    ``fusion(False)``) and restores the previous settings after (computing what is
    pending when it turns fusion off)."""

    def __init__(self, enabled=True, **limits):
        self.enabled, self.limits = enabled, limits

    def __enter__(self):
        self.saved = get_fusion()
        set_fusion(self.enabled, **self.limits)
        return self

    def __exit__(self, *exc):
        saved = dict(self.saved)
        set_fusion(saved.pop("enabled"), **saved)


def fusion_stats(reset=False):
    """Counters: ``kernels`` (fused kernels run), ``nodes`` (elementwise calls they
    covered: the kernels the eager path would have run), ``deferred`` (elementwise calls
    that built a node), ``dropped`` (pending expressions collected unread, including
    those a reduction read as its prologue), ``prologues`` (reductions that evaluated a
    pending expression in their first pass), ``pending`` and ``held_bytes`` (now)."""
    out = stats.as_dict()
    out["pending"] = pending_count()
    out["held_bytes"] = held_bytes()
    if reset:
        stats.reset()
    return out
