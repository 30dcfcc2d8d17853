"""Host and device transfers, DLPack, asarray from host objects.

Host data is converted by NumPy (through the cpu backend's checks) and uploaded once.
A webgpu buffer cannot be exported through DLPack as device memory (no consumer can map
it), so ``__dlpack__`` serves a host (kDLCPU) capsule after a device -> host copy unless the
caller forbids the copy (copy=False: BufferError) or names another device, as the standard
permits ("copy=None: reuse the buffer if possible, copy otherwise").
"""

import numpy as np

from ...._core import dtypes as dt
from ...._core.errors import DTypeMismatch, InvalidArgument
from ..storage import WgpuStorage
from ..transfer import from_numpy as _upload
from ..transfer import to_numpy as _download

KDL_CPU, KDL_CUDA_HOST, KDL_WEBGPU = 1, 3, 15
_MIRROR_MAX = 1 << 20  # buffers up to 1 MiB are mirrored whole by item()


class InteropMixin:
    def to_numpy(self, data):
        return _download(data)

    def item(self, data):
        """Python scalar of a 0-d storage.

        Reading element after element of one array (``float(x[i])`` in a loop) would cost
        one submit + map each (~0.3 ms on lavapipe). Small buffers are therefore read back
        whole and mirrored until the next dispatch is recorded on that client (any kernel
        may write any buffer; host writes only ever target fresh buffers, and a mirrored
        buffer is kept alive so it cannot be recycled).
        """
        block, client = data.block, data.client
        if data.shape != () or block.size > _MIRROR_MAX:
            return _download(data).item()
        stamp = client.recorder.dispatches
        mirrors = self._mirrors
        host = None
        for i, (b, c, s, h) in enumerate(mirrors):
            if b is block and s == stamp:
                host = h
                break
        if host is None:
            host = client.read(block, 0, block.size)
            mirrors[:] = [m for m in mirrors if m[2] == stamp and m[1] is client][-7:]
            mirrors.append((block, client, stamp, host))
        off = data.offset
        return host[off: off + data.itemsize].view(data.dtype.np)[0].item()

    def _upload_like(self, host, like):
        return _upload(host, like.client)

    def from_numpy(self, host, device, copy):
        client = self._client(device)
        host = np.asarray(host)
        d = dt.from_numpy(host.dtype)
        if d is not None:
            self.check_dtype_supported(d)
        return _upload(host, client)

    def to_device(self, data, device):
        if data.client.index == device.index:
            return data
        # between adapters WebGPU has no peer copy: through the host
        return _upload(_download(data), self._client(device))

    def asarray_obj(self, obj, dtype, device, copy, ctx):
        if copy is False:
            raise ValueError("asarray: copy=False is impossible for host data; the webgpu "
                             "namespace needs a host-to-device copy")
        native = isinstance(obj, (np.ndarray, np.generic, bytes, bytearray, memoryview)) or \
            hasattr(obj, "__array__") or hasattr(obj, "__dlpack__")
        host = self._cpu.asarray_obj(obj, dtype, None, None, ctx)
        if dtype is None and not native:
            # Python scalars in sequences take this namespace's default dtypes
            f, i, c, _ = ctx.defaults_for(device)
            want = {np.dtype(np.float64): f, np.dtype(np.int64): i,
                    np.dtype(np.complex128): c}.get(host.dtype)
            if want is not None and want.np != host.dtype:
                host = host.astype(want.np)
        return self.from_numpy(host, device, True)

    # -- DLPack --------------------------------------------------------------------------
    def dlpack(self, data, *, stream=None, max_version=None, dl_device=None, copy=None):
        if stream is not None:
            raise InvalidArgument("stream", "webgpu arrays take no stream")
        if dl_device is not None and int(dl_device[0]) != KDL_CPU:
            # a WebGPU buffer cannot be mapped by any DLPack consumer, even on its own adapter
            raise BufferError(f"__dlpack__: webgpu arrays can be exported only as a host copy "
                              f"(kDLCPU), not to DLPack device {tuple(dl_device)}")
        if copy is False:
            # the standard: copy=False must never copy and raise BufferError when a copy is
            # needed, and reaching the host (or any consumer) needs one
            raise BufferError("__dlpack__: copy=False, but a webgpu buffer reaches a DLPack "
                              "consumer only as a host copy; pass copy=True or None")
        # copy=None: "reuse the buffer if possible, copy otherwise" -> a host (kDLCPU) copy
        host = _download(data)
        kw = {} if max_version is None else {"max_version": max_version}
        return host.__dlpack__(**kw)

    def dlpack_device(self, data):
        return (KDL_WEBGPU, data.client.index)

    def from_dlpack(self, obj, device, copy):
        target = device or self.default_device()
        inner = getattr(obj, "_data", None)
        if isinstance(inner, WgpuStorage):  # an array of this namespace
            r = self.to_device(inner, target)
            if copy and r is inner:
                r = r.copy()
            if copy is False and r is not inner:
                raise ValueError("from_dlpack: copy=False but the array is on another adapter")
            return r
        try:
            kind = int(obj.__dlpack_device__()[0])
        except Exception:
            kind = KDL_CPU
        if kind not in (KDL_CPU, KDL_CUDA_HOST):
            raise BufferError(f"from_dlpack: the producer is on DLPack device type {kind}; "
                              f"webgpu imports host (CPU) memory only")
        if copy is False:
            raise ValueError("from_dlpack: copy=False but the producer's memory is on the "
                             "host; a device copy is required")
        host = np.from_dlpack(obj)
        if dt.from_numpy(host.dtype) is None:
            raise DTypeMismatch(f"from_dlpack: dtype {host.dtype} has no numr equivalent")
        return self.from_numpy(host, target, True)
