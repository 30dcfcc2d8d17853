"""The kernel layer's building blocks: templates, layouts, specs (codegen/)."""

import dataclasses

import numpy as np
import pytest

from numr_array_api._core import dtypes as dt
from numr_array_api.backends.webgpu.codegen.caps import LAVAPIPE, NO_64BIT, Caps
from numr_array_api.backends.webgpu.codegen.layout import Buf, Layout, Words
from numr_array_api.backends.webgpu.codegen.spec import KernelSpec
from numr_array_api.backends.webgpu.codegen.template import Template, TemplateError


def test_template_renders_and_rejects_missing_and_unknown_tokens():
    t = Template("a ${x} b ${y} ${x}", "t")
    assert t.render(x=1, y="z") == "a 1 b z 1"
    with pytest.raises(TemplateError, match=r"missing \['y'\]"):
        t.render(x=1)
    with pytest.raises(TemplateError, match=r"unknown \['yy'\]"):
        t.render(x=1, y=2, yy=3)
    # provided mappings may hold more tokens than the text uses; explicit values may not
    assert t.render({"x": 1, "y": 2, "unused": 3}) == "a 1 b 2 1"


def test_template_refuses_stray_dollar():
    with pytest.raises(TemplateError, match="outside"):
        Template("let a = $x;", "bad")


def test_layout_words_bindings_and_packing():
    lay = Layout([Buf("src", "f32"), Buf("dst", "u32", "rw")], ["n", Words("dims", 5)],
                 LAVAPIPE)
    assert lay.immediate and lay.kinds == ("read", "rw")
    assert lay.word("n") == "P[0].x" and lay.word("dims", 4) == "P[1].y"
    assert lay.word("src_off") == "P[1].z" and lay.word("dst_off") == "P[1].w"
    raw = lay.pack(n=7, dims=[1, 2], src_off=2 ** 32 + 3)
    w = np.frombuffer(raw, np.uint32)
    assert w[0] == 7 and list(w[1:3]) == [1, 2] and w[6] == 3 and len(w) == 8
    with pytest.raises(KeyError):
        lay.pack(m=1)
    with pytest.raises(ValueError):
        lay.pack(dims=[0] * 6)
    with pytest.raises(KeyError):
        lay.word("nope")
    decl = lay.decl()
    assert "var<storage, read> src: array<f32>;" in decl
    assert "@binding(1) var<storage, read_write> dst: array<u32>;" in decl
    assert "var<immediate> P" in decl


def test_layout_without_immediates_uses_the_uniform_ring_binding():
    lay = Layout([Buf("a", "f32")], ["n"], NO_64BIT)
    assert not lay.immediate and lay.kinds == ("read", "uniform")
    assert "@group(0) @binding(1) var<uniform> P" in lay.decl()


def test_layout_refuses_repeated_names():
    with pytest.raises(ValueError):
        Layout([Buf("a", "f32")], ["a"], Caps())


_AXPY = Template("""${layout}
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
  if (g.x < ${n}) { dst[${dst_off} + g.x] = src[${src_off} + g.x] * bitcast<f32>(${a}); }
}
@compute @workgroup_size(64)
fn fill(@builtin(global_invocation_id) g: vec3<u32>) {
  if (g.x < ${n}) { dst[${dst_off} + g.x] = bitcast<f32>(${a}); }
}
""", "axpy")


@dataclasses.dataclass(frozen=True)
class _Scale(KernelSpec):
    entries = ("main", "fill")
    dtype: object

    def layout(self, caps):
        return Layout([Buf("src", "f32"), Buf("dst", "f32", "rw")], ["n", "a"], caps)

    def render(self, caps):
        return _AXPY.render(self.layout(caps).tokens())


def test_spec_is_its_cache_key_and_renders_without_a_device():
    a, b = _Scale(dt.float32), _Scale(dt.float32)
    assert a == b and hash(a) == hash(b) and a.label == "_Scale_float32"
    src = a.source(LAVAPIPE)
    assert "fn fill" in src and "${" not in src


@pytest.mark.webgpu
def test_kernel_launch_by_name_with_two_entry_points_in_one_module():
    xp = pytest.importorskip("numr_array_api.webgpu")
    if not xp.__array_namespace_info__().devices():
        pytest.skip("no WebGPU adapter")
    from numr_array_api.backends.webgpu.storage import WgpuStorage

    x = xp.asarray(np.arange(10, dtype=np.float32))
    s = x._data
    client = s.client
    before = client.pipelines.stats()["modules"]
    k = client.kernel(_Scale(dt.float32))
    assert client.kernel(_Scale(dt.float32)) is k
    assert client.pipelines.stats()["modules"] == before + 1  # one module, two pipelines
    out = WgpuStorage._new((6,), dt.float32, client)
    k.launch((1, 1, 1), src=s[3:9], dst=out, n=6, a=k.layout.f32_bits(2.0))
    np.testing.assert_array_equal(out.to_numpy(), np.arange(3, 9, dtype=np.float32) * 2)
    k.launch((1, 1, 1), "fill", src=s, dst=out, n=2, a=k.layout.f32_bits(-1.5))
    np.testing.assert_array_equal(out.to_numpy()[:3], [-1.5, -1.5, 10.0])
