"""Docstrings of the public functions, written once for every namespace.

The namespaces' functions are closures built per backend (``build(ctx)`` in each front-end
module), so their text cannot live in a ``def``'s docstring alone without repeating it per
namespace; ``document`` gives each built function its text here, at import. The text is
the standard's description of the function, summarised (``standard.py``, generated from
the standard's stubs by docs/tools/spec_docstrings.py), followed by numr's own notes
(``notes.py``: what numr adds, refuses or does differently on some backend).
"""

from .notes import NOTES
from .standard import DOCS

__all__ = ["docstring", "document", "DOCS", "NOTES"]

_REFLECTED = {"radd": "add", "rsub": "sub", "rmul": "mul", "rtruediv": "truediv",
              "rfloordiv": "floordiv", "rmod": "mod", "rpow": "pow", "rand": "and",
              "ror": "or", "rxor": "xor", "rlshift": "lshift", "rrshift": "rshift",
              "rmatmul": "matmul"}


def docstring(key):
    """The docstring of ``key`` ('sum', 'linalg.svd', 'fft.rfft', 'Array.__add__',
    'info.dtypes', ...), or None when neither the standard nor numr describes it."""
    base = DOCS.get(key)
    note = NOTES.get(key)
    if base is None and key.startswith("Array.__") and key.endswith("__"):
        op = key[len("Array.__"):-2]
        if op in _REFLECTED:
            base = (f"Reflected form of ``__{_REFLECTED[op]}__``: ``other {_SYMBOL[_REFLECTED[op]]} "
                    f"self``" + (" for an array ``other`` of the same namespace." if op == "rmatmul"
                                 else ", for a Python scalar ``other`` on the left."))
        elif op.startswith("i") and op[1:] in _SYMBOL:
            base = (f"In-place form of ``__{op[1:]}__``: ``self {_SYMBOL[op[1:]]}= other``.\n\n"
                    "As the standard requires, the result must have the dtype of ``self`` and "
                    "``other`` may not broadcast ``self`` to a larger shape; numr raises "
                    "DTypeMismatch / ShapeMismatch otherwise.")
    if base is None:
        return note
    if note is None:
        return base
    if "\nNotes\n-----\n" in base:
        return f"{base}\n\n{note}"
    return f"{base}\n\nNotes\n-----\n{note}"


_SYMBOL = {"add": "+", "sub": "-", "mul": "*", "truediv": "/", "floordiv": "//", "mod": "%",
           "pow": "**", "and": "&", "or": "|", "xor": "^", "lshift": "<<", "rshift": ">>",
           "matmul": "@"}


def document(obj, key):
    """Give ``obj`` (a function, or a property's getter) the docstring of ``key`` unless it
    has its own."""
    if getattr(obj, "__doc__", None):
        return
    doc = docstring(key)
    if doc:
        try:
            obj.__doc__ = doc
        except (AttributeError, TypeError):
            pass
