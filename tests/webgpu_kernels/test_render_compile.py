"""Every kernel variant renders, and compiles through wgpu's WGSL front-end (naga).

Families expose ``variants()`` (module level, under numr_array_api/backends/webgpu): an
iterable of KernelSpecs covering their (dtype, rank, config) space. Rendering needs no
device; compiling uses the default adapter's shader-module validation only (no pipeline),
so the whole space costs seconds (the HEAVY families compile a pairwise cover unless
NUMR_TEST_SLOW=1). A variant needing a feature the adapter lacks is rendered but not
compiled.
"""

import dataclasses
import importlib
import os
import pkgutil
import time

import pytest

import numr_array_api.backends.webgpu as wpkg
from numr_array_api.backends.webgpu.codegen.caps import LAVAPIPE, NO_64BIT, NVIDIA, Caps
from numr_array_api.backends.webgpu.codegen.spec import KernelSpec


def _families():
    fams = {}
    for m in pkgutil.walk_packages(wpkg.__path__, wpkg.__name__ + "."):
        if ".wgsl" in m.name:
            continue
        mod = importlib.import_module(m.name)
        fn = getattr(mod, "variants", None)
        if callable(fn) and getattr(fn, "__module__", None) == mod.__name__:
            fams[m.name.rsplit("webgpu.", 1)[1]] = fn
    return fams


FAMILIES = _families()

# Families whose whole space takes minutes to validate on the CI machine (lavapipe, 2 cores:
# ops.linalg.tslu's 336 unrolled shaders of ~76 KB each, 127 s): without NUMR_TEST_SLOW=1
# they compile the pairwise cover of their space (83 of 336 for tslu), every pair of
# settings of two fields that the family has still compiled together at least once.
HEAVY = {"ops.linalg.tslu"}
SLOW = os.environ.get("NUMR_TEST_SLOW") == "1"


def _pairs(spec):
    """The pairs of two fields' (name, value) settings of a spec."""
    items = [(type(spec).__name__, f.name, repr(getattr(spec, f.name)))
             for f in dataclasses.fields(spec)]
    return {(a, b) for i, a in enumerate(items) for b in items[i + 1:]}


def _pairwise(specs):
    """The specs, in order, that add a pair of (field, value) settings not yet seen."""
    seen, out = set(), []
    for spec in specs:
        pairs = _pairs(spec)
        if not pairs <= seen:
            out.append(spec)
            seen |= pairs
    return out


def test_pairwise_cover_keeps_every_pair():
    specs = list(FAMILIES["ops.linalg.tslu"]())
    kept = _pairwise(specs)
    assert 0 < len(kept) < len(specs)
    assert set().union(*map(_pairs, kept)) == set().union(*map(_pairs, specs))


def test_the_core_families_expose_variants():
    for name in ("kernels.nary", "kernels.fill", "ops.elementwise"):
        assert name in FAMILIES


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_variants_render_for_every_adapter_description(family):
    specs = list(FAMILIES[family]())
    assert specs, f"{family}.variants() is empty"
    for spec in specs:
        assert isinstance(spec, KernelSpec)
        hash(spec)  # a spec is its own cache key
        for caps in (LAVAPIPE, NVIDIA, NO_64BIT):
            if any(not getattr(caps, f) for f in spec.needs()):
                continue
            src = spec.source(caps)
            assert "${" not in src and src.count("@compute") == len(spec.entries), spec.label


@pytest.mark.webgpu
@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_variants_compile_on_the_adapter(family):
    xp = pytest.importorskip("numr_array_api.webgpu")
    if not xp.__array_namespace_info__().devices():
        pytest.skip("no WebGPU adapter")
    client = xp.asarray([0])._data.client
    caps = Caps.of(client)
    device = client.device
    seen, t0 = set(), time.perf_counter()
    specs = FAMILIES[family]()
    if family in HEAVY and not SLOW:
        specs = _pairwise(list(specs))
    for spec in specs:
        if any(not getattr(caps, f) for f in spec.needs()):
            continue
        src = spec.source(caps)
        if src in seen:
            continue
        seen.add(src)
        try:
            device.create_shader_module(code=src, label=spec.label)
        except Exception as exc:  # naga's message names the line
            pytest.fail(f"{spec.label} does not compile: {exc}")
    print(f"{family}: {len(seen)} shaders validated in {time.perf_counter() - t0:.1f} s")
