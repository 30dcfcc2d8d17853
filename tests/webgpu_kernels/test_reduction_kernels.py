"""The reduction kernel frame (ops/reduction/): what the variants cover (test_render_compile.py
renders and compiles them all); states combine across launches (64-bit bases, merges)."""

import numpy as np
import pytest

from numr_array_api._core import dtypes as dt
from numr_array_api.backends.webgpu.codegen.caps import LAVAPIPE, NO_64BIT, NVIDIA
from numr_array_api.backends.webgpu.ops.reduction import plan, table, variants
from numr_array_api.backends.webgpu.ops.reduction.spec import ReduceSpec


@pytest.mark.parametrize("caps", [LAVAPIPE, NVIDIA, NO_64BIT], ids=["lavapipe", "nvidia",
                                                                    "no64"])
def test_every_variant_renders_without_a_device(caps):
    specs = list(variants(caps))
    ops = {s.op for s in specs}
    assert ops == set(table.OPS)
    assert {s.mapping for s in specs} == {"row", "col"}
    assert {s.out for s in specs} == {"final", "merge", "part"}
    for s in specs:
        src = s.source(caps)
        assert "${" not in src and "fn main(" in src
        if caps is NO_64BIT:
            assert "i64" not in src and "f64" not in src
    # subgroup shuffles only where granted, and only for 32-bit states
    s = ReduceSpec("sum", dt.float32, dt.float32, "row", True, 1, 1, 1, 256, "final")
    assert "subgroupShuffleXor" in s.source(LAVAPIPE)
    assert "subgroupShuffleXor" not in s.source(NO_64BIT)
    s = ReduceSpec("sum", dt.float64, dt.float64, "row", False, 1, 1, 1, 256, "final")
    assert "subgroupShuffleXor" not in s.source(LAVAPIPE)


def test_box_base_beyond_2_32_reaches_the_index(wgpu_xp):
    """argmax of a box whose first element has a global index above 2^32: the i64 state
    carries base + local index exactly (the path of views of >= 2^32 elements)."""
    xp = wgpu_xp
    a = np.zeros(1000, np.float32)
    a[[17, 900]] = 3.0
    x = xp.asarray(a)._data
    client = x.client
    job = plan._job("argmax", dt.float32, client, dt.float32, 0)
    if job.types.I != "i64":
        pytest.skip("no shader-int64")
    st = tuple(plan.full((), plan._identity(job, n, ty), d, client)
               for (n, ty), d in zip(job.fields, job.dtypes))
    base = (5 << 32) + 123
    plan._launch(job, x, dt.float32, (False,), st, "merge", base)
    plan._launch(job, x[::-1], dt.float32, (False,), st, "merge", base + 2000)
    assert float(st[0].to_numpy()) == 3.0
    assert int(st[1].to_numpy()) == base + 17
    # a later box with a better value wins; an equal one with a larger index does not
    b = np.full(10, 3.0, np.float32)
    plan._launch(job, xp.asarray(b)._data, dt.float32, (False,), st, "merge", base + 5000)
    assert int(st[1].to_numpy()) == base + 17
    b[4] = 4.0
    plan._launch(job, xp.asarray(b)._data, dt.float32, (False,), st, "merge", 1 << 40)
    assert int(st[1].to_numpy()) == (1 << 40) + 4


def test_u32_index_path_of_adapters_without_int64(wgpu_xp):
    """Without shader-int64, indices and counts are u32 (sizes below 2^31 are checked):
    render for such an adapter and run the kernels here (lavapipe accepts them)."""
    import dataclasses

    xp = wgpu_xp
    a = np.array([[3, 1, 7, 7], [0, -2, -2, 5], [4, 4, 4, 4]], np.float32)
    x = xp.asarray(a)
    client = x._data.client
    caps = plan.Caps.of(client)
    saved = (client._caps, dict(client._kernels), dict(plan._PLANS), dict(plan._JOBS))
    client._caps = dataclasses.replace(caps, int64=False)
    client._kernels.clear()
    plan._PLANS.clear()
    plan._JOBS.clear()
    try:
        assert plan._job("argmax", dt.float32, client, dt.float32, 0).types.I == "u32"
        for axis in (None, 0, 1):
            axes = (0, 1) if axis is None else (axis,)
            for op in ("argmax", "argmin", "count_nonzero"):
                out = plan.run(op, x._data, axes, dt.bool_ if op == "count_nonzero"
                               else dt.float32)
                assert out.dtype is dt.uint32
                ref = getattr(np, op)(a, axis=axis)
                np.testing.assert_array_equal(out.to_numpy(), ref, err_msg=f"{op} {axis}")
        with pytest.raises(plan.BackendLimitation, match="2\\^31"):
            plan.run("argmax", xp.broadcast_to(x[0, 0], (1 << 31,))._data, None, dt.float32)
    finally:
        client._caps = saved[0]
        client._kernels.clear()
        client._kernels.update(saved[1])
        for cache, old in ((plan._PLANS, saved[2]), (plan._JOBS, saved[3])):
            cache.clear()
            cache.update(old)
