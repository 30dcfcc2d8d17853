"""Every public function of every namespace and of ext is documented and properly named,
and generated sources show up in tracebacks.

Public: numr_array_api._api._docstrings.public (the same definition the docs build uses).
"""

import inspect
import sys
import traceback

import pytest

from numr_array_api._api._docstrings import public
from numr_array_api._api._fastpath import render

NAMESPACES = [m for m in map(public.load, public.NAMESPACES) if m is not None]


def _modules():
    """(module, the names its functions may belong to) for every namespace, its
    submodules and ext."""
    out = []
    for ns in NAMESPACES:
        subs = [ns] + [getattr(ns, s) for s in public.SUBMODULES]
        for m in subs:
            out.append(m)
    out += [public.load(name) for name in public.EXT_MODULES]
    return out


MODULES = _modules()


def _owner_ok(module, name, obj):
    """``obj.__module__`` is ``module`` or a public module of the same namespace (a linalg
    alias of the main namespace's matmul; cuda's runtime functions), and that module really
    holds ``obj`` under its ``__qualname__``."""
    root = module.__name__.split(".")
    root = ".".join(root[:2])
    mod = obj.__module__ or ""
    if mod != module.__name__ and not (mod == root or mod.startswith(root + ".")):
        return False
    if any(part.startswith("_") for part in mod.split(".")[1:]):
        return False
    holder = sys.modules.get(mod)
    for part in obj.__qualname__.split("."):
        holder = getattr(holder, part, None)
    return holder is obj


def test_public_names_found():
    # the check below must see the whole API, not an empty list
    cpu = sys.modules["numr_array_api.cpu"] if "numr_array_api.cpu" in sys.modules else \
        public.load("numr_array_api.cpu")
    names = public.public_functions(cpu)
    assert {"add", "sum", "asarray", "__array_namespace_info__"} <= set(names)
    assert len(names) > 120
    assert len(public.public_functions(cpu.linalg)) >= 23
    assert len(public.public_functions(cpu.fft)) == 14


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_every_public_function_documented_and_named(module):
    bad = []
    for name, obj in public.public_functions(module).items():
        if not (obj.__doc__ or "").strip():
            bad.append(f"{name}: no docstring")
        if "<locals>" in obj.__qualname__ or "<lambda>" in obj.__qualname__:
            bad.append(f"{name}: __qualname__ {obj.__qualname__!r}")
        if not _owner_ok(module, name, obj):
            bad.append(f"{name}: __module__ {obj.__module__!r} / __qualname__ "
                       f"{obj.__qualname__!r} do not lead back to it")
    assert not bad, f"{module.__name__}:\n" + "\n".join(bad)


@pytest.mark.parametrize("ns", NAMESPACES, ids=lambda m: m.__name__)
def test_array_members_documented_and_named(ns):
    cls = ns._ctx.ArrayT  # type(x) of every result
    members = public.array_members(cls)
    assert {"__add__", "__radd__", "__iadd__", "__getitem__", "shape", "to_device",
            "__matmul__", "__neg__"} <= set(members)
    bad = []
    for name, obj in members.items():
        fn = obj.fget if isinstance(obj, property) else obj
        if not (obj.__doc__ or "").strip():
            bad.append(f"Array.{name}: no docstring")
        if "<locals>" in fn.__qualname__ or "<lambda>" in fn.__qualname__:
            bad.append(f"Array.{name}: __qualname__ {fn.__qualname__!r}")
        if fn.__module__ not in (ns.__name__, "numr_array_api._core.array"):
            bad.append(f"Array.{name}: __module__ {fn.__module__!r}")
    assert not bad, "\n".join(bad)
    assert cls.__module__ == ns.__name__ and cls.__qualname__ == "Array"
    assert ns.Array.__doc__


@pytest.mark.parametrize("ns", NAMESPACES, ids=lambda m: m.__name__)
def test_docstrings_shared_and_specific(ns):
    # one text for every namespace; the standard's description with numr's notes
    assert ns.add.__doc__ == sys.modules["numr_array_api.cpu"].add.__doc__
    assert ns.add.__doc__.startswith("Calculates the sum for each element")
    assert "Parameters" in ns.sum.__doc__ and "Returns" in ns.sum.__doc__
    assert "webgpu" in ns.linalg.svd.__doc__  # numr's note on host round trips
    assert ns.__array_namespace_info__.__qualname__ == "__array_namespace_info__"
    assert ns.__array_namespace_info__().dtypes.__doc__
    assert ns.linalg.matmul is ns.matmul and ns.matmul.__module__ == ns.__name__


def test_pickle_by_name_still_works():
    import pickle
    cpu = public.load("numr_array_api.cpu")
    for fn in (cpu.add, cpu.sum, cpu.fft.rfft, cpu.linalg.svd, cpu.__array_namespace_info__):
        assert pickle.loads(pickle.dumps(fn)) is fn


def _frames(exc):
    return traceback.extract_tb(exc.__traceback__)


def test_traceback_through_fast_path_shows_source():
    from numr_array_api._core.dtypes import float64

    class Payload:
        pass

    def kernel(data):
        raise ZeroDivisionError("from the kernel")

    class A:  # stands for a namespace's array class
        __slots__ = ("_data", "_dtype")

    fn = render("unary", "boom", True, True, frozenset({float64}), A=A, ok=frozenset({float64}),
                kernel=kernel, P=Payload, fix=None, res={}, DT={}, slow=None)
    x = A()
    x._data, x._dtype = Payload(), float64
    with pytest.raises(ZeroDivisionError) as info:
        fn(x)
    frame = [f for f in _frames(info.value) if f.filename.startswith("<numr_array_api.boom")]
    assert frame, [f.filename for f in _frames(info.value)]
    assert frame[0].line == "r = kernel(x._data)"
    assert "r = kernel(x._data)" in "".join(traceback.format_exception(info.value))
    assert "def boom(x, /):" in inspect.getsource(fn)


@pytest.mark.parametrize("ns", NAMESPACES, ids=lambda m: m.__name__)
def test_traceback_through_namespace_fast_path(ns):
    if not ns.__array_namespace_info__().devices():
        pytest.skip(f"{ns.__name__}: no device here")
    x = ns.asarray([1.0, 2.0])
    with pytest.raises(TypeError) as info:
        ns.add(x, object())
    frames = [f for f in _frames(info.value) if f.filename.startswith("<numr_array_api.add")]
    assert frames and frames[0].line, [(f.filename, f.line) for f in _frames(info.value)]
    assert frames[0].filename == frames[0].filename.strip() and "add" in frames[0].filename
    assert frames[0].line in "".join(traceback.format_exception(info.value))


def test_locked_wrappers_show_source():
    from numr_array_api.backends.webgpu.runtime.concurrency import locked

    def op(a, /, b, *, c=3):
        raise KeyError(a)

    wrapped = locked(op)
    assert wrapped.__doc__ is op.__doc__ and wrapped.__qualname__ == op.__qualname__
    with pytest.raises(KeyError) as info:
        wrapped(1, 2)
    frames = [f for f in _frames(info.value) if f.filename.startswith("<numr locked wrapper")]
    assert frames and frames[0].line == "return _numr_fn(a, b, c=c)"


def test_webgpu_notes_agree_with_the_host_fallback_list():
    # the docstrings say where webgpu runs a function; the fallback list is the truth
    from numr_array_api._api._docstrings import DOCS, NOTES
    from numr_array_api.backends.webgpu.ops.host_fallback import FALLBACK_METHODS
    aliases = {"linalg.eig": ("linalg.eigvals",)}
    host = set()
    for method in FALLBACK_METHODS:
        key = "linalg." + method[len("linalg_"):] if method.startswith("linalg_") else method
        host.update((key,) + aliases.get(key, ()))
    wrong = [k for k, note in NOTES.items() if "webgpu: runs on the GPU" in note and k in host]
    assert not wrong, f"notes claim the GPU for host round trips: {wrong}"
    silent = [k for k in host if k in DOCS and "webgpu: runs on the host" not in NOTES.get(k, "")]
    assert not silent, f"host round trips without a note saying so: {silent}"


@pytest.mark.parametrize("ns", NAMESPACES, ids=lambda m: m.__name__)
@pytest.mark.parametrize("call", ["reshape", "add", "solve"])
def test_a_numr_error_ends_in_the_public_function(ns, call):
    """What a user sees of a refused call: their own frame, then one frame named after the
    public function, then the error under its public module; numr's internals (private
    modules, generated wrappers) are cut from the traceback."""
    if not ns.__array_namespace_info__().devices():
        pytest.skip(f"{ns.__name__}: no device here")
    from numr_array_api.errors import NumrError
    with pytest.raises(NumrError) as info:
        if call == "reshape":
            ns.reshape(ns.ones(6), (4,))
        elif call == "add":
            ns.ones((2, 3)) + ns.ones((4,))
        else:
            ns.linalg.solve(ns.ones((2, 2)), ns.ones((3,)))
    frames = _frames(info.value)
    assert frames[0].filename == __file__, frames
    assert len(frames) == 2, [(f.filename, f.name) for f in frames]
    last = frames[-1]
    assert last.filename.startswith("<numr_array_api.") and call in last.filename, last
    assert type(info.value).__module__ == "numr_array_api.errors"
    text = "".join(traceback.format_exception(info.value))
    assert "numr_array_api/_" not in text and "numr_array_api._" not in text, text
