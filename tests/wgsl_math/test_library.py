"""The source generator: every function compiles on its own (dependencies complete), names
follow numr_<fn>_<T>, unknown names are rejected."""
import re

import pytest

from numr_array_api.backends.webgpu.wgsl import available_functions, math_library


def test_unknown_function_rejected():
    with pytest.raises(KeyError):
        math_library(["no_such_fn"], "f32")
    with pytest.raises(ValueError):
        math_library(["exp"], "f16")


def test_only_requested_functions_emitted():
    src = math_library(["exp"], "f64")
    names = set(re.findall(r"fn (numr_\w+)\(", src))
    assert "numr_exp_f64" in names
    assert not any(n.startswith(("numr_log", "numr_sin", "numr_pow")) for n in names)
    assert "f32" not in src


def test_each_function_compiles_alone(harness, ftype):
    dev = harness.device
    for fn in available_functions():
        src = math_library([fn], ftype)
        assert re.search(rf"fn numr_{fn}_{ftype}\(", src), fn
        dev.create_shader_module(code=src)  # raises on a naga validation error
