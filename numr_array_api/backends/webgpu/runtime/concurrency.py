"""Threads and interrupts: the runtime lock and deferred KeyboardInterrupts.

Threads. Every entry into the WebGPU runtime (each backend interface method the front-end
calls, through ``LockedBackend``; the kernels ``unary_kernel`` / ``binary_kernel`` return;
the namespace's runtime functions; the ext kernels) holds ``LOCK`` for its whole duration: recording into the open compute pass,
submission, the buffer and staging pools, the pipeline / bind-group / geometry caches and
read-backs are then only ever touched by one thread at a time. One re-entrant lock for all
adapters, not one per client: a call may touch two clients (``to_device`` between
adapters), and one lock cannot be taken in two orders. ``Block.__del__`` (which the cyclic
GC may run in any thread, inside any op) never takes it (allocator.py).

Interrupts. A KeyboardInterrupt is raised in the main thread at any bytecode. The hot paths
are ordered so that stopping between any two of their steps is harmless (submit.py,
allocator.py); the few multi-step transitions that cannot be (ending and submitting a batch
together with its pending-buffer bookkeeping, starting and finishing a buffer mapping,
emptying the pools) run inside ``deferred_interrupts()``, which delivers a SIGINT received
meanwhile when the section ends. It swaps the SIGINT handler, a few microseconds, so it is
used only around submits and read-backs, never per dispatch.
"""

import functools
import inspect
import os
import signal
import threading

import _signal  # signal.signal without its enum conversions (14 us -> 1 us a swap pair)

from ...._core.generated import compile_source

__all__ = ["LOCK", "locked", "LockedBackend", "deferred_interrupts"]

LOCK = threading.RLock()


def locked(fn):
    """``fn`` run while holding the runtime lock. The wrapper takes ``fn``'s own parameters
    (made from its signature), so calls pay no argument packing: the front-end goes
    through one of these on every call."""
    if getattr(fn, "__numr_locked__", False):
        return fn  # takes the lock itself
    scope = {"_numr_lock": LOCK, "_numr_fn": fn}
    src = _wrapper_source(fn, scope)
    if src is None:
        def call(*args, **kwargs):
            with LOCK:
                return fn(*args, **kwargs)
    else:
        exec(compile_source(src, "locked wrapper", getattr(fn, "__qualname__", "call")),
             scope)
        call = scope["call"]
    functools.update_wrapper(call, fn)
    call.__numr_locked__ = True
    return call


def _wrapper_source(fn, scope):
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return None
    P = inspect.Parameter
    head, args = [], []
    for i, p in enumerate(params):
        if p.kind in (P.VAR_POSITIONAL, P.VAR_KEYWORD) or p.name.startswith("_numr_"):
            return None
        if p.kind is P.KEYWORD_ONLY and "*" not in head:
            head.append("*")
        default = ""
        if p.default is not P.empty:
            scope[f"_numr_d{i}"] = p.default
            default = f"=_numr_d{i}"
        head.append(p.name + default)
        args.append(f"{p.name}={p.name}" if p.kind is P.KEYWORD_ONLY else p.name)
        if p.kind is P.POSITIONAL_ONLY and (i + 1 == len(params)
                                            or params[i + 1].kind is not P.POSITIONAL_ONLY):
            head.append("/")
    return (f"def call({', '.join(head)}):\n    with _numr_lock:\n"
            f"        return _numr_fn({', '.join(args)})\n")


class LockedBackend:
    """What the front-end holds of a backend: every method ``interface`` declares (except
    ``unlocked``: metadata and view methods that touch no runtime state) bound and run
    under the runtime lock, so the lock is taken once per front-end call while the
    backend's calls among its own methods pay nothing; methods annotated to return a
    ``Callable`` return locked callables. Anything else is the backend's own attribute."""

    def __init__(self, backend, interface, unlocked=()):
        vars(self)["_backend"] = backend
        for name, decl in vars(interface).items():
            if name.startswith("_") or not callable(decl):
                continue
            method = getattr(backend, name)
            returns = str(getattr(decl, "__annotations__", {}).get("return", ""))
            vars(self)[name] = (method if name in unlocked else  # (bound: no __getattr__)
                                _locked_factory(method) if returns.startswith("Callable")
                                else locked(method))

    def __getattr__(self, name):
        return getattr(vars(self)["_backend"], name)

    def __setattr__(self, name, value):
        setattr(vars(self)["_backend"], name, value)


def _locked_factory(fn):
    @functools.wraps(fn)
    def call(*args, **kwargs):
        with LOCK:
            return locked(fn(*args, **kwargs))
    call.__numr_locked__ = True
    return call


# ---- deferred interrupts ------------------------------------------------------------------
_MAIN = threading.main_thread().ident
_depth = 0       # nesting of deferred sections in the main thread
_swapped = False  # the outermost section replaced the SIGINT handler ...
_saved = None    # ... which was this one (None: one not installed from Python)
_caught = None   # (signum, frame) of a SIGINT received inside a section


def _record(signum, frame):
    global _caught
    _caught = (signum, frame)


class _Deferred:
    """Context manager: SIGINT received inside is delivered on leaving (main thread only;
    other threads never receive KeyboardInterrupt). Re-entrant."""

    __slots__ = ("active",)

    def __enter__(self):
        global _depth, _saved, _swapped
        self.active = threading.get_ident() == _MAIN
        if not self.active:
            return self
        if _depth == 0:
            try:
                _saved = _signal.signal(signal.SIGINT, _record)
                _swapped = True
            except (ValueError, TypeError, OSError):  # e.g. a sub-interpreter
                _swapped = False
        _depth += 1
        return self

    def __exit__(self, *exc):
        global _depth, _saved, _swapped, _caught
        if not self.active:
            return False
        _depth -= 1
        if _depth == 0 and _swapped:
            prev = signal.SIG_DFL if _saved is None else _saved
            _swapped, _saved = False, None
            _signal.signal(signal.SIGINT, prev)
            got, _caught = _caught, None
            if got is not None:
                _deliver(prev, got)
        return False


def _deliver(handler, got):
    if callable(handler):
        handler(*got)  # Python's default handler raises KeyboardInterrupt here
    elif handler == signal.SIG_DFL:
        os.kill(os.getpid(), signal.SIGINT)
    # SIG_IGN (or a handler not installed from Python): nothing to deliver


def deferred_interrupts():
    return _Deferred()
