"""docs/architecture.md's worked example of a new kernel family runs as printed."""

import pathlib

import numpy as np

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "architecture.md"


def test_worked_example_runs(wgpu_xp):
    text = DOC.read_text()
    start = text.index("```python\nimport dataclasses") + len("```python\n")
    code = text[start:text.index("```", start)]
    ns = {}
    exec(compile(code, str(DOC), "exec"), ns)
    x = wgpu_xp.asarray(np.arange(10, dtype=np.float32))._data[::2]
    np.testing.assert_array_equal(ns["scale"](x, 2.5).to_numpy(),
                                  np.arange(10, dtype=np.float32)[::2] * 2.5)
    from numr_array_api.backends.webgpu.codegen.caps import LAVAPIPE
    assert "fn main" in ns["variants"]()[0].source(LAVAPIPE)
