"""CUDA graph capture and replay of numr code (numr's ``capture_graph``).

``capture_graph(fn, *args)`` runs ``fn`` once eagerly (compiling kernels and creating
library handles outside the capture), then again with the device's compute stream capturing,
and returns a CapturedGraph whose ``replay()`` relaunches every captured kernel with one
``cudaGraphLaunch``. The arrays ``fn`` returned live in graph-owned memory and are rewritten
by each replay; inputs are the arrays ``fn`` reads, updated in place between replays
(``x[...] = new``).

Rules, enforced with numr errors: nothing inside the capture may copy host data to the
device (create inputs before capturing; call ``warmup_sobol(d)`` before capturing code that
uses ``numr_array_api.ext.random.sobol``), and nothing may wait for the device (``float(x)``,
``x.to_device('cpu')``, data-dependent shapes such as ``nonzero`` / boolean indexing).
"""

from ..._core.errors import BackendLimitation, NumrError
from .memory import CaptureArena

__all__ = ["CaptureError", "CapturedGraph", "capture"]


class CaptureError(BackendLimitation):
    """An operation that cannot be recorded into a CUDA graph was attempted during capture."""

    def __init__(self, reason):
        super().__init__("cuda", "graph capture", reason)


H2D_REASON = ("a host-to-device copy was attempted inside capture_graph; the captured graph "
              "would read host memory that is gone at replay. Create the array before "
              "capturing (and update it in place between replays); for sobol, call "
              "numr_array_api.cuda.warmup_sobol(d) before capturing")


class CapturedGraph:
    """A captured sequence of kernels on one device, replayable with ``replay()``."""

    def __init__(self, client, graph, result, arena, n_nodes=None):
        self._client = client
        self._graph = graph
        self.result = result
        self._arena = arena
        self.device = f"cuda:{client.index}"

    def replay(self, *, sync=False):
        """Launch the graph on the compute stream; returns ``result`` (updated in place)."""
        self._graph.launch(self._client.compute)
        if sync:
            self._client.compute.synchronize()
        return self.result

    __call__ = replay

    @property
    def nbytes(self):
        """Device memory owned by the graph (intermediates and outputs)."""
        return self._arena.nbytes

    def __repr__(self):
        return f"<numr CapturedGraph on {self.device}, {self.nbytes} bytes>"


def capture(client, fn, args, kwargs, warmup=True):
    cupy = client.cupy
    stream = client.compute
    if client.capturing:
        raise CaptureError("capture_graph calls cannot be nested")
    with cupy.cuda.Device(client.index):
        client.bind_thread()
        if warmup:
            fn(*args, **kwargs)
        stream.synchronize()
        alloc = client.allocator
        arena = CaptureArena(alloc)
        alloc.capture = arena
        client.capturing = True
        try:
            stream.begin_capture()
            try:
                result = fn(*args, **kwargs)
            except BaseException as e:
                _abort(stream)
                t = _translate(e)
                if t is e:
                    raise
                raise t from e
            try:
                graph = stream.end_capture()
            except Exception as e:
                t = _translate(e)
                if t is e:
                    raise
                raise t from e
        finally:
            alloc.capture = None
            client.capturing = False
        graph.upload(stream)
    return CapturedGraph(client, graph, result, arena)


def _abort(stream):
    try:
        stream.end_capture()
    except Exception:
        pass  # an invalidated capture raises here; the original error is the one to report


def _translate(e):
    if isinstance(e, NumrError) or not isinstance(e, Exception):
        return e
    name = type(e).__name__
    if name == "CUDARuntimeError" or "captur" in str(e).lower():
        return CaptureError(
            f"the captured function did something a CUDA graph cannot record ({e}). Inside "
            f"capture_graph no operation may synchronise with the host: no float()/int()/"
            f"bool() of arrays, no to_device('cpu'), no data-dependent output shapes "
            f"(nonzero, unique, boolean masks), and no host-to-device copies")
    return e
