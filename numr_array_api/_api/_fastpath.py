"""Hot-path functions specialised per backend and result rule from one source template.

A call on small arrays costs about as much in Python as in the wrapped kernel, so the
functions that run on every elementwise call are rendered with exactly the dtype-stamping
expression they need (the input dtype, a table lookup, or the payload's own dtype) instead
of deciding it per call; the names they use are bound as module-level globals of the
rendered code, the cheapest lookup Python has.
"""

_UNARY = '''
def {name}(x, /):
    if x.__class__ is A:
        t = x._dtype
        if {accept}:
            try:
                r = kernel(x._data)
            except MemoryError:
                return slow(x)  # numr's OutOfMemory
            if r.__class__ is not P:
                r = fix(r)
            a = A()
            a._data = r
            a._dtype = {stamp}
            return a
    return slow(x)
'''

_BINARY = '''
def {name}(x1, x2, /):
    if x1.__class__ is A:
        t = x1._dtype
        c2 = x2.__class__
        if c2 is A:
            if t is x2._dtype and {accept}{samedev}:
                try:
                    r = kernel(x1._data, x2._data)
                except (ValueError, MemoryError):
                    return slow(x1, x2)  # re-validated: numr's ShapeMismatch / OutOfMemory
                if r.__class__ is not P:
                    r = fix(r)
                a = A()
                a._data = r
                a._dtype = {stamp}
                return a
        elif t in scalar_ok.get(c2, ()):
            try:
                r = kernel(x1._data, {scalar2})
            except (OverflowError, ValueError, TypeError, MemoryError):
                return slow(x1, x2)  # e.g. an int beyond the dtype: numr's OutOfRange
            if r.__class__ is not P:
                r = fix(r)
            a = A()
            a._data = r
            a._dtype = {stamp}
            return a
{left_scalar}    return slow(x1, x2)
'''

# backends without native scalars: a Python scalar on the left (``2.0 * x``, reflected
# operators) takes the fast path too, as the cached 0-d operand
_LEFT_SCALAR = '''    elif x2.__class__ is A:
        t = x2._dtype
        if t in scalar_ok.get(x1.__class__, ()):
            try:
                r = kernel(sop(x1, t), x2._data)
            except (OverflowError, ValueError, TypeError, MemoryError):
                return slow(x1, x2)
            if r.__class__ is not P:
                r = fix(r)
            a = A()
            a._data = r
            a._dtype = {stamp}
            return a
'''

_CACHE = {}


def _stamp(trusted, same):
    if not trusted:
        return "DT[r.dtype]"  # ask the payload: its kernels may not follow the rules
    return "t" if same else "res[t]"


def _accept(ok, supported, bool_dtype):
    # the cheapest test that admits exactly the accepted dtypes
    if ok == supported:
        return "True"
    if ok == supported - {bool_dtype}:
        return "t is not B"
    return "t in ok"


def render(kind, name, trusted, same, supported, single_device=True, size_guard=False,
           **bound):
    """The function ``name`` of ``kind`` ('unary' | 'binary') bound to ``bound`` names;
    ``bound['ok']`` (the accepted dtypes) is a subset of ``supported``. Unless the backend
    has a single device, binary operands on different devices take the slow path, which
    raises DeviceMismatch (``bound['dev']``: the backend's device_of). ``size_guard``: two
    arrays whose broadcast could exceed ``bound['MAX_ELEMENTS']`` take the slow path, which
    refuses it (for a wrapped module that computes sizes in wrapping integers: CuPy)."""
    import textwrap

    from .._core.dtypes import bool_
    from .._core.errors import NumrError
    from .._core.generated import compile_source
    template = {"unary": _UNARY, "binary": _BINARY}[kind]
    # a backend without native scalars gets its 0-d operand from ``bound['sop']``
    # (scalar_operand), only for the scalar types ``scalar_ok`` admits without validation
    sop = "sop" in bound
    stamp = _stamp(trusted, same)
    source = template.format(name=name, stamp=stamp, scalar2="sop(x2, t)" if sop else "x2",
                             left_scalar=_LEFT_SCALAR.format(stamp=stamp) if sop else "",
                             accept=_accept(bound["ok"], supported, bool_),
                             samedev=("" if single_device else
                                      " and dev(x1._data) is dev(x2._data)") +
                             (" and x1._data.size * x2._data.size <= MAX_ELEMENTS"
                              if size_guard else ""))
    bound["B"] = bool_
    # the slow path's numr errors leave with their tracebacks cut (as at the boundary)
    head, body = source.strip("\n").split("\n", 1)
    source = (head + "\n    try:\n" + textwrap.indent(body, "    ") +
              "\n    except NumrError as e:\n        raise e.with_traceback(None)\n")
    bound["NumrError"] = NumrError
    code = _CACHE.get(source)
    if code is None:
        code = _CACHE[source] = compile_source(source, f"{kind} fast path", name,
                                               public=f"numr_array_api.{name}")
    scope = dict(bound)
    exec(code, scope)
    fn = scope[name]
    fn.__qualname__ = name
    return fn
