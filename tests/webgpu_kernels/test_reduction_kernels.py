"""The reduction kernel frame (ops/reduction/): what the variants cover (test_render_compile.py
renders and compiles them all); states combine across launches (64-bit bases, merges)."""

import numpy as np
import pytest

from numr_array_api import tuning
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
    assert {s.out for s in specs} == {"final", "merge", "part", "tail"}
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


# ---- row-mapping tuning (the reduction family's knobs), with and without subgroups -----------
def _row_cases(rng):
    f = rng.standard_normal(4133).astype(np.float32)
    f[[5, 700]] = np.nan
    z = np.zeros(301, np.float32)  # (-z: every zero negative; mixed signs have no defined max)
    return {
        "f32": f, "f32nonan": rng.standard_normal((9, 1037)).astype(np.float32),
        "f16": (rng.standard_normal(3001) * 10).astype(np.float16),
        "f64": rng.standard_normal(2051), "i8": rng.integers(-100, 100, 5003).astype(np.int8),
        "u16": rng.integers(0, 60000, 999).astype(np.uint16),
        "i64": rng.integers(-1 << 40, 1 << 40, 1029), "bool": rng.random(4099) > 0.7,
        "negzero": -z, "empty": np.zeros((3, 0), np.float32),
    }


def _host(x):
    return np.asarray(x.to_device("cpu"))


# every row-reduction configuration (the GPU runs check them)
@pytest.mark.slow
@pytest.mark.parametrize("cfg,subgroup", [
    (dict(REDUCE_UNROLL=1, REDUCE_STRIDED_UNROLL=1), False),
    (dict(REDUCE_GROUPS=8192, REDUCE_MIN_LOADS=4, REDUCE_WG=1024), False),
    (dict(REDUCE_UNROLL=8, REDUCE_STRIDED_UNROLL=2), True),
    (dict(REDUCE_TAIL=1, REDUCE_GROUPS=8192, REDUCE_MIN_LOADS=4), True),
    (dict(REDUCE_TAIL=1, REDUCE_GROUPS=8192, REDUCE_MIN_LOADS=4), False)])
def test_row_variants_match_numpy(wgpu_xp, cfg, subgroup):
    """Tunings of the row mapping (loads per trip, chunks, workgroup size; 16-byte loads of
    1-, 2- and 8-byte dtypes) on views at odd offsets, NaN, -0.0 and empty arrays, on both
    the subgroup-shuffle and the workgroup-tree combine."""
    import dataclasses

    xp = wgpu_xp
    client = xp.asarray([0.0])._data.client
    caps = plan.Caps.of(client)
    if subgroup and not caps.subgroup:
        pytest.skip("adapter lacks subgroups")
    saved = (client._caps, dict(client._kernels), dict(plan._JOBS))
    client._caps = dataclasses.replace(caps, subgroup=subgroup)
    client._kernels.clear()
    plan._JOBS.clear()
    knobs = tuning.override(**cfg)
    knobs.__enter__()
    try:
        for name, a in _row_cases(np.random.default_rng(3)).items():
            x = xp.asarray(a)
            for off in ((0, 1, 3) if a.ndim == 1 else (0,)):
                h, v = (a[off:], x[off:]) if a.ndim == 1 else (a, x)
                h64 = h.astype(np.float64) if h.dtype.kind in "fb" else h
                axes = (None,) if h.ndim == 1 else (None, 1)
                for ax in axes:
                    what = f"{name}[{off}:] axis={ax} {cfg} subgroup={subgroup}"
                    np.testing.assert_array_equal(_host(xp.any(v, axis=ax)),
                                                  np.any(h, axis=ax), err_msg=what)
                    np.testing.assert_array_equal(_host(xp.count_nonzero(v, axis=ax)),
                                                  np.count_nonzero(h, axis=ax), err_msg=what)
                    if name == "bool":
                        continue
                    s = _host(xp.sum(v, axis=ax)).astype(np.float64)
                    e = np.sum(h64, axis=ax)
                    tol = 1e-3 if h.dtype == np.float16 else 1e-5
                    np.testing.assert_allclose(s, e, rtol=tol, atol=tol * (
                        1 + float(np.max(np.sum(np.abs(h64), axis=ax), initial=0))),
                        err_msg=what)
                    if h.size == 0:
                        continue
                    for op in ("max", "min", "argmax", "argmin"):
                        got, ref = _host(getattr(xp, op)(v, axis=ax)), getattr(np, op)(h, axis=ax)
                        np.testing.assert_array_equal(got, ref, err_msg=f"{op} {what}")
                        if op in ("max", "min") and h.dtype.kind == "f":
                            assert np.array_equal(np.signbit(got), np.signbit(ref)), what
                    if h.dtype.kind == "f":
                        np.testing.assert_allclose(_host(xp.var(v, axis=ax)),
                                                   np.var(h64, axis=ax), rtol=tol * 10,
                                                   err_msg=what)
    finally:
        knobs.__exit__(None, None, None)
        client._caps = saved[0]
        client._kernels.clear()
        client._kernels.update(saved[1])
        plan._JOBS.clear()
        plan._JOBS.update(saved[2])


def test_row_knobs_reach_the_plans(wgpu_xp):
    """A knob set after a plan was made replaces it: the next reduction plans anew with
    the new value (a job reads the knobs when created)."""
    x = wgpu_xp.asarray(np.ones(1 << 14, np.float32))
    client = x._data.client
    float(wgpu_xp.sum(x))
    assert plan._job("sum", dt.float32, client, dt.float32, 1 << 14).unroll == \
        tuning.get("REDUCE_UNROLL", client)
    with tuning.override(REDUCE_UNROLL=2):
        assert float(wgpu_xp.sum(x)) == 1 << 14
        assert plan._job("sum", dt.float32, client, dt.float32, 1 << 14).unroll == 2


def test_namespace_custom_kernel_checks_its_lists(wgpu_xp):
    """numr_array_api.webgpu.custom_kernel validated its lists with the namespace's ``all``
    (xp.all) instead of the builtin, so every call failed (the reduction variants compared in one process's
    bandwidth probes use it)."""
    xp = wgpu_xp
    src = """@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> b: array<f32>;
@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) g: vec3<u32>) { b[g.x] = 2.0 * a[g.x]; }"""
    x = xp.asarray(np.arange(4, dtype=np.float32))
    y = xp.zeros(4, dtype=xp.float32)
    xp.custom_kernel(src, "main", [x._data], [y._data], (1, 1, 1))
    np.testing.assert_array_equal(_host(y), [0, 2, 4, 6])


@pytest.mark.parametrize("rows", [0, 2048, 16384, 8192])
def test_whole_array_through_rows_of_each_length(wgpu_xp, rows):
    """A big contiguous float array reduced as (n / r, r) rows then the row results
    (mixin.py ``_row_split``, knob REDUCE_ROW_SPLIT; 0: the whole-array chunking) gives
    NumPy's answer for every row length, and the split really happens (two passes)."""
    xp = wgpu_xp
    from numr_array_api.backends.webgpu.ops.reduction import mixin
    n = mixin._ROW_SPLIT_MIN * 2
    a = np.random.default_rng(5).standard_normal(n).astype(np.float32)
    a[7] = 40.0
    x = xp.asarray(a)
    with tuning.override(REDUCE_ROW_SPLIT=rows):
        rec = x._data.client.recorder
        d0 = rec.dispatches
        s = float(_host(xp.sum(x)))
        if rows:
            assert rec.dispatches - d0 == 2
        np.testing.assert_allclose(s, a.astype(np.float64).sum(), rtol=1e-5,
                                   atol=1e-5 * np.abs(a).sum())
        assert float(_host(xp.max(x))) == 40.0
        np.testing.assert_allclose(float(_host(xp.mean(x))), a.astype(np.float64).mean(),
                                   atol=1e-5 * np.abs(a).mean())
