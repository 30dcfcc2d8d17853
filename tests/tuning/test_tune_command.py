"""The tune command on the adapter at hand (lavapipe in CI) at smoke size: it writes a
table, and the library then reads its values for that adapter."""

import json
import os
import subprocess
import sys

import pytest

from numr_array_api import tuning
from numr_array_api._core import environment
from numr_array_api.tuning import tables

pytestmark = pytest.mark.webgpu


@pytest.fixture(scope="module")
def client():
    xp = pytest.importorskip("numr_array_api.webgpu")
    if not xp.__array_namespace_info__().devices():
        pytest.skip("no WebGPU adapter")
    return xp.asarray([0])._data.client


def test_the_tune_command_writes_a_table_the_library_loads(client, tmp_path, monkeypatch):
    out = tmp_path / "table.json"
    # --margin -1: every tried knob's winner is written, so the load below is checked on
    # real rows (at smoke size the timings are noise anyway)
    cmd = [sys.executable, "-m", "numr_array_api.tuning", "--quick", "--repeats", "1",
           "--margin", "-1", "--families", "reduction", "--out", str(out)]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600,
                       env=environment.child_environ(NUMR_TUNING=None))
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-3000:]
    table = json.loads(out.read_text())
    assert table["adapter"] == tables.describe(client)
    assert table["measured"]["date"] and "numr_array_api.tuning" in table["measured"]["command"]
    assert table["values"], r.stdout
    monkeypatch.setenv("NUMR_TUNING_TABLE", str(out))
    environment.reload("NUMR_TUNING_TABLE")
    tables.reload()
    try:
        for name, value in table["values"].items():
            assert tuning.get(name, client) == tuning.knobs()[name].coerce(value), name
            assert tuning.knobs()[name].family == "reduction"
    finally:
        monkeypatch.undo()
        environment.reload("NUMR_TUNING_TABLE")
        tables.reload()


def test_every_choice_of_a_tuned_family_gives_the_default_results(client):
    import numr_array_api.webgpu as xp
    from numr_array_api.tuning.tune import tune
    lines = []
    got = tune(["reduction"], quick=True, repeats=1, margin=-1, write=False, xp=xp,
               log=lines.append)
    assert got and set(got) <= set(tuning.knobs("reduction"))
    bad = [s for s in lines if "differ" in s or "Error" in s]
    assert not bad, bad
