"""The caches of the webgpu backend that hold GPU objects beyond a call (plans, captured
graphs, tables), each registered here by the module that owns it with a way to empty it.

``Client.empty_cache()`` empties every registered cache before it releases the buffer pool,
so the buffers those caches held go back to the driver too: after all arrays are deleted
and ``empty_cache()`` is called, the allocated bytes return to zero. A cache that keeps
per-client state on the client object (the FFT plans) registers a function of the client.
"""

import threading

__all__ = ["register", "register_per_client", "clear_all"]

_lock = threading.Lock()
_GLOBAL = {}      # name -> clear()
_PER_CLIENT = {}  # name -> clear(client)


def register(name, clear):
    """``clear()`` empties the module-level cache called ``name``."""
    with _lock:
        _GLOBAL[name] = clear


def register_per_client(name, clear):
    """``clear(client)`` empties the cache ``name`` that one client carries."""
    with _lock:
        _PER_CLIENT[name] = clear


def clear_all(client):
    with _lock:
        fns = list(_GLOBAL.values())
        per = list(_PER_CLIENT.values())
    for fn in fns:
        fn()
    for fn in per:
        fn(client)
