"""The tuning registry: typed knobs, overrides and epochs, per-adapter tables, and the rule
that the environment is read in one module and lists a bounded set of variables."""

import ast
import json
import pathlib
import re

import pytest

import numr_array_api
from numr_array_api import tuning
from numr_array_api._core import environment
from numr_array_api._core.errors import InvalidArgument
from numr_array_api.tuning import registry, tables

PKG = pathlib.Path(numr_array_api.__file__).parent
DOCS = PKG.parent / "docs"


@pytest.fixture
def knob():
    k = tuning.Knob("TEST_BLOCK", int, 32, "a test knob", "test", choices=(16, 32, 64),
                    lo=8, hi=128)
    s = tuning.Knob("TEST_MODE", str, "fast", "a test mode", "test", choices=("fast", "safe"))
    registry.declare(k, s)
    yield k
    for n in (k.name, s.name):
        registry._KNOBS.pop(n, None)
    registry.unforce_all()


class FakeClient:
    def __init__(self, name, backend="Vulkan", type_="DiscreteGPU"):
        self.info = {"name": name, "vendor": "x", "backend": backend, "type": type_}


def test_types_ranges_and_choices_are_checked(knob):
    assert tuning.get("TEST_BLOCK") == 32
    assert knob.coerce("64") == 64
    with pytest.raises(InvalidArgument, match="TEST_BLOCK"):
        knob.coerce(256)
    with pytest.raises(ValueError, match="must be one of"):
        registry.knobs()["TEST_MODE"].coerce("turbo")
    with pytest.raises(InvalidArgument, match="no tuning knob"):
        with tuning.override(NO_SUCH_KNOB=1):
            pass
    b = tuning.Knob("TEST_FLAG", bool, "1", "", "test")
    assert b.default is True and b.coerce("off") is False
    with pytest.raises(InvalidArgument):
        b.coerce("maybe")


def test_override_nests_restores_and_changes_the_epoch(knob):
    e0 = tuning.epoch()
    with tuning.override(TEST_BLOCK=64):
        e1 = tuning.epoch()
        assert e1 != e0 and tuning.get("TEST_BLOCK") == 64
        with tuning.override(TEST_BLOCK=16, TEST_MODE="safe"):
            assert tuning.get("TEST_BLOCK") == 16 and tuning.get("TEST_MODE") == "safe"
        assert tuning.get("TEST_BLOCK") == 64 and tuning.get("TEST_MODE") == "fast"
    # the state before the block comes back, and its epoch with it (its caches stay valid)
    assert tuning.get("TEST_BLOCK") == 32 and tuning.epoch() == e0
    with tuning.override(TEST_BLOCK=64):
        assert tuning.epoch() == e1
    with tuning.override(TEST_BLOCK=16):
        assert tuning.epoch() not in (e0, e1)
    tuning.force(TEST_BLOCK=16)
    assert tuning.get("TEST_BLOCK") == 16
    with tuning.override(TEST_BLOCK=64):   # an override wins over force
        assert tuning.get("TEST_BLOCK") == 64
    tuning.force(TEST_BLOCK=None)
    assert tuning.get("TEST_BLOCK") == 32


def test_environment_overrides_are_read_once_and_checked(knob, monkeypatch):
    monkeypatch.setenv("NUMR_TUNING", "TEST_BLOCK=64, TEST_MODE=safe")
    environment.reload("NUMR_TUNING")
    registry.changed()
    try:
        assert tuning.get("TEST_BLOCK") == 64 and tuning.get("TEST_MODE") == "safe"
        monkeypatch.setenv("NUMR_TUNING", "TEST_BLOCK=16")
        assert tuning.get("TEST_BLOCK") == 64          # read once: no hot-path read
        monkeypatch.setenv("NUMR_TUNING", "TEST_BLOCK=1000")
        environment.reload("NUMR_TUNING")
        registry.changed()
        with pytest.raises(InvalidArgument, match="TEST_BLOCK"):
            tuning.get("TEST_BLOCK")
    finally:
        monkeypatch.delenv("NUMR_TUNING")
        environment.reload("NUMR_TUNING")
        registry.changed()


def test_tables_apply_per_adapter_and_the_tuned_file_wins(knob, tmp_path, monkeypatch):
    shipped = ({"match": {"name": "H200"}, "values": {"TEST_BLOCK": 64}, "file": "a.json"},
               {"match": {"type": "CPU"}, "values": {"TEST_BLOCK": 16}, "file": "b.json"})
    monkeypatch.setattr(tables, "_shipped", shipped)
    monkeypatch.setenv("NUMR_CACHE_DIR", str(tmp_path))
    environment.reload("NUMR_CACHE_DIR", "NUMR_TUNING_TABLE")
    tables.reload()
    gpu, cpu, other = FakeClient("NVIDIA H200"), FakeClient("llvmpipe", type_="CPU"), \
        FakeClient("Some GPU")
    try:
        assert tuning.get("TEST_BLOCK", gpu) == 64
        assert tuning.get("TEST_BLOCK", cpu) == 16
        assert tuning.get("TEST_BLOCK", other) == 32      # the portable default
        path = tables.write(tables.describe(other), values={"TEST_BLOCK": 128},
                            measured={"date": "test"})
        assert pathlib.Path(path).parent == tmp_path
        assert json.loads(pathlib.Path(path).read_text())["values"] == {"TEST_BLOCK": 128}
        assert tuning.get("TEST_BLOCK", other) == 128     # read back after the write
        with tuning.override(TEST_BLOCK=8):
            assert tuning.get("TEST_BLOCK", other) == 8
        monkeypatch.setenv("NUMR_TUNING_TABLE", "off")
        environment.reload("NUMR_TUNING_TABLE")
        tables.reload()
        assert tuning.get("TEST_BLOCK", other) == 32
        assert tuning.get("TEST_BLOCK", gpu) == 32
    finally:
        monkeypatch.undo()
        environment.reload()
        tables.reload()


def test_every_declared_knob_is_documented_and_legal():
    ks = tuning.knobs()
    from numr_array_api.tuning.knobs import FAMILIES
    for name, k in ks.items():
        if k.family == "test":
            continue
        assert re.fullmatch(r"[A-Z][A-Z0-9_]*", name), name
        assert k.family in FAMILIES, name
        assert len(k.doc) > 10, f"{name}: no documentation"
        if k.type is str and k.choices:
            assert k.default in k.choices, name
    for t in tables.shipped():
        for n, v in t.get("values", {}).items():
            assert n in ks, f"{t['file']}: unknown knob {n}"
            ks[n].coerce(v)
        assert t.get("match") and t.get("measured"), t["file"]


def _package_sources():
    return [p for p in PKG.rglob("*.py")]


def test_the_environment_is_read_in_one_module():
    readers = []
    for p in _package_sources():
        tree = ast.parse(p.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in ("environ", "getenv", "putenv") \
                    and isinstance(node.value, ast.Name) and node.value.id == "os":
                readers.append(str(p.relative_to(PKG)))
    assert set(readers) <= {"_core/environment.py"}, sorted(set(readers))


def test_at_most_thirty_environment_variables_all_declared_and_documented():
    names = set()
    for p in list(PKG.rglob("*.py")) + list(PKG.rglob("*.wgsl")):
        names |= set(re.findall(r"NUMR_[A-Z0-9_]+", p.read_text()))
    assert names <= set(environment.VARIABLES), sorted(names - set(environment.VARIABLES))
    assert len(environment.VARIABLES) <= 30
    # docs/configuration.md includes the table docs/_ext/numr_docs.py renders from VARIABLES
    assert "_generated/environment.md" in (DOCS / "configuration.md").read_text()


def test_the_docs_name_only_declared_variables():
    """A removed switch left in a guide would send users to a variable nothing reads.
    NUMR_TEST_* and the test suite's own variables belong to the test docs."""
    tests_vars = {"NUMR_EXTRAS", "NUMR_HYPOTHESIS_PROFILE", "NUMR_STRESS", "NUMR_FUZZ_EXAMPLES",
                  "NUMR_INTERRUPT_SECONDS", "NUMR_WGSL_ULP_REPORT", "NUMR_VENV"}
    pages = [PKG.parent / "README.md"] + [p for p in DOCS.rglob("*.md")
                                           if "_build" not in p.parts]
    bad = set()
    for p in pages:
        for n in re.findall(r"NUMR_[A-Z0-9_]*[A-Z0-9]", p.read_text()):
            if n not in environment.VARIABLES and n not in tests_vars and \
                    not n.startswith("NUMR_TEST_"):
                bad.add(f"{p.relative_to(PKG.parent)}: {n}")
    assert not bad, sorted(bad)


def test_a_knobs_own_variable_sets_it_below_numr_tuning(monkeypatch):
    try:
        monkeypatch.setenv("NUMR_WEBGPU_SUBMIT_BYTES", "0")
        environment.reload("NUMR_WEBGPU_SUBMIT_BYTES")
        registry.changed()
        assert tuning.get("SUBMIT_BYTES") == 0
        cpu = FakeClient("llvmpipe", type_="CPU")
        monkeypatch.setenv("NUMR_WEBGPU_SUBMIT_BYTES", "4096")
        environment.reload("NUMR_WEBGPU_SUBMIT_BYTES")
        registry.changed()
        assert tuning.get("SUBMIT_BYTES", cpu) == 4096   # above the CPU adapters' table
        monkeypatch.setenv("NUMR_TUNING", "SUBMIT_BYTES=8192")
        environment.reload("NUMR_TUNING")
        registry.changed()
        assert tuning.get("SUBMIT_BYTES") == 8192
        monkeypatch.setenv("NUMR_TUNING", "")
        monkeypatch.setenv("NUMR_WEBGPU_SUBMIT_BYTES", "lots")
        environment.reload()
        registry.changed()
        with pytest.raises(InvalidArgument, match="NUMR_WEBGPU_SUBMIT_BYTES"):
            tuning.get("SUBMIT_BYTES")
    finally:
        monkeypatch.undo()
        environment.reload()
        registry.changed()


def test_the_shipped_gpu_table_is_chosen_for_its_adapter_alone():
    h200 = {"name": "NVIDIA H200", "vendor": "NVIDIA", "backend": "Vulkan",
            "type": "DiscreteGPU"}
    chosen = [t["file"] for t in tables._sources(h200) if "file" in t]
    assert any(f.endswith("nvidia-h200-vulkan.json") for f in chosen), chosen
    for other in ({**h200, "backend": "OpenGL"}, {**h200, "name": "NVIDIA H100 80GB HBM3"},
                  {"name": "llvmpipe (LLVM 15.0.6, 256 bits)", "backend": "Vulkan",
                   "type": "CPU"}):
        chosen = [t.get("file", "") for t in tables._sources(other)]
        assert not any(f.endswith("nvidia-h200-vulkan.json") for f in chosen), (other, chosen)
