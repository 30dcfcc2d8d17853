"""The caches of the webgpu backend that hold GPU objects beyond a call (plans, captured
graphs, tables), each registered here by the module that owns it with a way to empty it.

``Client.empty_cache()`` empties every registered cache before it releases the buffer pool,
so the buffers those caches held go back to the driver too: after all arrays are deleted
and ``empty_cache()`` is called, the allocated bytes return to zero. A cache that keeps
per-client state on the client object (the FFT plans) registers a function of the client.

The memory limit (allocator.py) empties them too, from inside an allocation, so in the
middle of a call: a cache whose emptying would break a call in progress (state the call
reads back after its dispatches) registers with ``mid_call=False`` and is emptied only by
``empty_cache()``.
"""

import threading

__all__ = ["register", "register_per_client", "clear_all"]

_lock = threading.Lock()
_GLOBAL = {}      # name -> (clear(), mid_call)
_PER_CLIENT = {}  # name -> (clear(client), mid_call)


def register(name, clear, *, mid_call=True):
    """``clear()`` empties the module-level cache called ``name``."""
    with _lock:
        _GLOBAL[name] = (clear, mid_call)


def register_per_client(name, clear, *, mid_call=True):
    """``clear(client)`` empties the cache ``name`` that one client carries."""
    with _lock:
        _PER_CLIENT[name] = (clear, mid_call)


def clear_all(client, mid_call=False):
    """Empty every cache (``mid_call``: those that may be emptied inside a call)."""
    with _lock:
        fns = [fn for fn, ok in _GLOBAL.values() if ok or not mid_call]
        per = [fn for fn, ok in _PER_CLIENT.values() if ok or not mid_call]
    for fn in fns:
        fn()
    for fn in per:
        fn(client)
