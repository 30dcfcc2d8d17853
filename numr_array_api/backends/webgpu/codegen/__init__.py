"""WGSL code generation: dtype -> storage/load/store snippets, conversions, templates.

spec.py      KernelSpec (one frozen object per kernel variant: cache key and renderer) and
             Kernel, a spec compiled for one client that records launches by name
             (NUMR_WEBGPU_DUMP writes the compiled sources)
caps.py      Caps: what an adapter lets a kernel use, the renderers' one input besides the
             spec (and capability sets for rendering without a device)
layout.py    Layout, Buf, Words: named storage bindings and parameter words of one kernel,
             their WGSL declarations, immediates or the uniform ring, binding triples
template.py  Template: WGSL text with ``${name}`` tokens, strict rendering, ``.wgsl`` files
types.py     how each numr dtype lives in a storage buffer (sub-word dtypes in u32 words,
             software float16, raw pseudo-types), loads, packing, NumPy's astype conversions
render.py    geometry helpers: dim collapsing, grid-stride workgroup counts (WG)
wgmem.py     the workgroup memory of a WGSL module measured from its source, so a kernel
             over the adapter's limit is refused before compiling
"""
