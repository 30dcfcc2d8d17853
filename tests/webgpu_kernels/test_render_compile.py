"""Every kernel variant renders, and compiles through wgpu's WGSL front-end (naga).

Families expose ``variants()`` (module level, under numr_array_api/backends/webgpu): an
iterable of KernelSpecs covering their (dtype, rank, config) space. Rendering needs no
device; compiling uses the default adapter's shader-module validation only (no pipeline),
so the whole space costs seconds. A variant needing a feature the adapter lacks is rendered
but not compiled.
"""

import importlib
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
    for spec in FAMILIES[family]():
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
