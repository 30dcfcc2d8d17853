"""Python source generated at run time, compiled so that tracebacks can show it.

numr renders a few hot functions from source templates (the elementwise fast paths in
``_api/_fastpath.py``, the runtime-lock wrappers of the webgpu backend). ``compile_source``
compiles such a source under a stable pseudo-filename, ``<numr {what}: {name} {digest}>``
(the digest of the source, so the same source always gets the same name and two different
sources never share one), and registers it with ``linecache``: a traceback through the
generated function then shows its source line like any other, and ``inspect.getsource``
works on it.
"""

import hashlib
import linecache

__all__ = ["compile_source"]


def compile_source(source, what, name, public=None):
    """The code object of ``source`` ('exec' mode), registered with linecache. ``public``:
    the public function the source is the entry of (``numr_array_api.webgpu.reshape``),
    which then names its frames in tracebacks, where a user's error ends."""
    digest = hashlib.sha1(source.encode()).hexdigest()[:10]
    filename = f"<{public} {digest}>" if public else f"<numr {what}: {name} {digest}>"
    code = compile(source, filename, "exec")
    # mtime None: linecache.checkcache never drops an entry it cannot stat
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    return code
