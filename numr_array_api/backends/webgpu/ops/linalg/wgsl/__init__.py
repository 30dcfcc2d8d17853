"""WGSL sources of the linalg kernels: the specs of the ``*_specs.py`` modules beside this
folder and of the kernel families there (chol_regs, qr_wide, qr_loop, pow2, scalar).

A kernel is a whole file (``kernel``). A fragment (a pivot search, a column norm, the rows
below a Cholesky block) is spliced into a kernel's ``${token}`` that stands on a line of its
own; its file ends in a newline like any text file, which ``fragment`` drops so the kernel
decides the line breaks around it. The files hold WGSL only: whatever they contain reaches
the shader, so their explanations live with the Python that renders them.
"""

from __future__ import annotations

import functools

from ....codegen.template import Template

__all__ = ["fragment", "kernel"]


def kernel(filename: str) -> Template:
    """The template in ``filename`` of this folder, as written."""
    return Template.file(__name__, filename)


@functools.lru_cache(maxsize=None)
def fragment(filename: str) -> Template:
    """The template in ``filename`` of this folder without its final newline."""
    whole = kernel(filename)
    return Template(whole.text.removesuffix("\n"), whole.name)
