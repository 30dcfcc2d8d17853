"""Cubed over chunks of the plain numr namespaces (not the distributed chunk namespaces).

In the compatible semantics Cubed's chunk functions run on numr_array_api.cpu / .webgpu
directly: mean (a float total divided by an int64 count), std / var (``take(x, 0, axis=k)``
and ``mean(dtype=...)``), matmul, nanmean, zeros_like of a bool array. Cubed binds its chunk
namespace at import, so each case runs in a fresh interpreter; in the strict mode the same
job fails, as docs/scale-out.md says.
"""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from _support import usable

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(importlib.util.find_spec("cubed") is None,
                                reason="needs the 'distributed' extra (cubed)")

JOB = r"""
import sys, tempfile
import numpy as np
import cubed, cubed.array_api as xp
spec = cubed.Spec(work_dir=tempfile.mkdtemp(), allowed_mem="200MB")
a = np.arange(200.0).reshape(20, 10) % 7 - 2.5
x = xp.asarray(a, chunks=(5, 5), spec=spec)
cases = {
    "mean": (lambda: xp.mean(x), a.mean()),
    "mean-axis": (lambda: xp.mean(x, axis=0), a.mean(axis=0)),
    "std": (lambda: xp.std(x), a.std()),
    "var-axis": (lambda: xp.var(x, axis=1), a.var(axis=1)),
    "matmul": (lambda: xp.matmul(x, xp.permute_dims(x, (1, 0))), a @ a.T),
    "sum-int": (lambda: xp.sum(xp.astype(x > 0, xp.int64)), (a > 0).sum()),
    "nanmean": (lambda: cubed.nanmean(x), np.nanmean(a)),
    "zeros_like-bool": (lambda: xp.zeros_like(x > 0), np.zeros((20, 10), bool)),
}
for name, (f, ref) in cases.items():
    r = f().compute()
    mod = type(r).__module__
    ok = np.allclose(np.asarray(r.to_device("cpu") if hasattr(r, "to_device") else r), ref)
    print(name, mod, ok)
"""


def _run(backend, semantics):
    env = dict(os.environ, CUBED_BACKEND_ARRAY_API_MODULE=f"numr_array_api.{backend}",
               NUMR_SEMANTICS=semantics, NUMR_HOST_CONVERSION="allow")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    return subprocess.run([sys.executable, "-c", JOB], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("backend", ["cpu", "webgpu"])
def test_cubed_on_plain_namespace(backend):
    if not usable(backend):
        pytest.skip(f"numr_array_api.{backend} has no usable device here")
    r = _run(backend, "compatible")
    assert r.returncode == 0, r.stderr[-3000:]
    lines = [line.split() for line in r.stdout.splitlines()]
    assert len(lines) == 8, r.stdout
    for name, mod, ok in lines:
        assert mod == f"numr_array_api.{backend}" and ok == "True", (name, mod, ok)


def test_strict_semantics_refuse_cubed_mean():
    r = _run("cpu", "strict")
    assert r.returncode != 0 and "DTypeMismatch" in r.stderr, r.stderr[-2000:]
