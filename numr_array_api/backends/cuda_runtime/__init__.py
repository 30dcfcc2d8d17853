"""numr's CUDA runtime over CuPy: per-device clients (compute + copy stream), the
allocator (bounded free list over the stream-ordered pool), graph capture, custom kernels.

Nothing here imports CuPy at module import: ``get()`` probes once and records why the
backend is unavailable (no CuPy, no driver, no device) so the namespace can still be built
and report it.
"""

import threading

from ..._core import environment
from ..._core.errors import BackendUnavailable, InvalidArgument

__all__ = ["get", "Runtime"]

_lock = threading.RLock()
_runtime = None

INSTALL_HINT = ("install CuPy for your CUDA major version: pip install cupy-cuda13x (CUDA 13) "
                "or cupy-cuda12x (CUDA 12), i.e. numr-array-api[cuda13] / [cuda]")


def _probe():
    """(cupy module or None, device count, reason when unusable)."""
    if environment.get("NUMR_CUDA_DISABLE").lower() in ("1", "true", "yes"):
        return None, 0, "disabled by NUMR_CUDA_DISABLE"
    try:
        import cupy
    except Exception as e:  # ImportError, or a CuPy wheel that fails to load its libraries
        return None, 0, f"CuPy cannot be imported ({type(e).__name__}: {e}); {INSTALL_HINT}"
    try:
        n = cupy.cuda.runtime.getDeviceCount()
    except Exception as e:
        return cupy, 0, (f"no usable CUDA driver: CuPy {cupy.__version__} could not query "
                         f"devices ({type(e).__name__}: {e})")
    if n <= 0:
        return cupy, 0, "the CUDA driver reports no device (check CUDA_VISIBLE_DEVICES)"
    return cupy, n, None


class Runtime:
    """Process-wide CUDA state: one client per device index, created on first use."""

    def __init__(self):
        self.cupy, self.device_count, self.reason = _probe()
        self.available = self.reason is None
        self._clients = {}
        self._installed = False

    def require(self):
        if not self.available:
            raise BackendUnavailable("cuda", self.reason)
        return self.cupy

    def check_index(self, index):
        self.require()
        if not 0 <= index < self.device_count:
            raise InvalidArgument("device", f"cuda:{index} does not exist; this machine has "
                                            f"{self.device_count} CUDA device(s)")
        return index

    def client(self, index=None):
        """The canonical client of device ``index`` (None: CuPy's current device)."""
        c = self._clients.get(index)
        if c is not None:
            return c
        cupy = self.require()
        if index is None:
            index = cupy.cuda.runtime.getDevice()
            c = self._clients.get(index)
            if c is not None:
                return c
        self.check_index(index)
        with _lock:
            c = self._clients.get(index)
            if c is None:
                from .streams import DeviceClient
                c = DeviceClient(self, index)
                self._clients[index] = c
                self._install_allocator()
        return c

    def clients(self):
        return [self._clients[k] for k in sorted(self._clients)]

    def _install_allocator(self):
        # numr owns CuPy's allocator in this process so numr arrays, CuPy arrays made
        # alongside them and DLPack imports share one pool and one stream order.
        if self._installed:
            return
        cupy = self.cupy
        if self.device_count == 1:
            cupy.cuda.set_allocator(self._clients[0].allocator.malloc)
            self._installed = True
            return
        getdev = cupy.cuda.runtime.getDevice
        clients = self._clients

        def malloc(size):
            dev = getdev()
            c = clients.get(dev)
            if c is None:
                c = self.client(dev)
            return c.allocator.malloc(size)

        cupy.cuda.set_allocator(malloc)
        self._installed = True


def get():
    global _runtime
    r = _runtime
    if r is None:
        with _lock:
            if _runtime is None:
                _runtime = Runtime()
            r = _runtime
    return r
