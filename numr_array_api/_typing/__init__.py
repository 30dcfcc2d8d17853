"""Sources of the type stubs of numr's namespaces (never imported at run time).

``types.pyi`` holds the aliases every stub shares. ``templates/`` holds the one text of the
namespace stubs: each namespace (cpu, cuda, webgpu) has its own Array subclass at run time,
so its stubs are copies of the templates that name that subclass, written by
``python -m numr_array_api._typing.generate`` (``--check`` reports stale copies).
"""
