"""The type stubs of numr's namespaces: a user's script type-checks under ``mypy --strict``
with numr's Array types, and the stubs name exactly what the modules hold at run time.

The mypy test is skipped where mypy is missing, except under CI=true (CI installs it, so a
missing mypy there is a broken environment, not a reason to skip).
"""

import ast
import importlib
import inspect
import os
import pathlib
import re
import subprocess
import sys
import time

import pytest

from numr_array_api._typing import generate

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "numr_array_api"
SCRIPT = pathlib.Path(__file__).resolve().parent / "user_script.py"

# module -> its stub; the namespaces' linalg / fft exist once the namespace is imported
MODULES = {
    "numr_array_api": "__init__.pyi",
    "numr_array_api.errors": "errors.pyi",
    "numr_array_api.ext": "ext/__init__.pyi",
    "numr_array_api.ext.linalg": "ext/linalg.pyi",
    "numr_array_api.ext.random": "ext/random.pyi",
    "numr_array_api.ext.reductions": "ext/reductions.pyi",
    "numr_array_api.cuda.runtime": "cuda/runtime.pyi",
}
for _ns in generate.NAMESPACES:
    MODULES[f"numr_array_api.{_ns}"] = f"{_ns}/__init__.pyi"
    MODULES[f"numr_array_api.{_ns}.linalg"] = f"{_ns}/linalg.pyi"
    MODULES[f"numr_array_api.{_ns}.fft"] = f"{_ns}/fft.pyi"

# dunder names the standard makes part of a namespace's public interface
PUBLIC_DUNDERS = {"__array_namespace_info__", "__array_api_version__"}

# what `# revealed: <key>` on a line of the user script expects mypy to reveal there
REVEALED = {
    "cpu": "numr_array_api.cpu.Array",
    "cuda": "numr_array_api.cuda.Array",
    "webgpu": "numr_array_api.webgpu.Array",
    "numr": "numr_array_api._core.array.Array",
}


# -- stub reading ---------------------------------------------------------------------------

def _stub_path(module):
    rel = module.removeprefix("numr_array_api").lstrip(".").replace(".", "/")
    for candidate in (f"{rel}.pyi", f"{rel}/__init__.pyi"):
        path = PACKAGE / candidate.lstrip("/")
        if path.exists():
            return path
    raise FileNotFoundError(f"no stub for {module}")


def _resolve(module_of_stub, level, name):
    if not level:
        return name
    parts = module_of_stub.split(".")
    is_package = _stub_path(module_of_stub).name == "__init__.pyi"
    base = parts if is_package else parts[:-1]
    base = base[:len(base) - (level - 1)]
    return ".".join(base + ([name] if name else []))


def stub_names(module):
    """The public names of ``module``'s stub: its ``__all__`` where it has one, else what a
    stub exports (definitions and ``import x as x`` re-exports, star imports followed)."""
    tree = ast.parse(_stub_path(module).read_text())
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            if node.target.id == "__all__":
                return set(ast.literal_eval(node.value))
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    if target.id == "__all__":
                        return set(ast.literal_eval(node.value))
                    names.add(target.id)
        elif isinstance(node, ast.ImportFrom):
            source = _resolve(module, node.level, node.module)
            for alias in node.names:
                if alias.name == "*":
                    names |= stub_names(source)
                elif alias.asname == alias.name:
                    names.add(alias.name)
                elif alias.name == "__all__":
                    return stub_names(source)
    return {n for n in names if not n.startswith("_") or n in PUBLIC_DUNDERS}


def runtime_names(module):
    m = importlib.import_module(module)
    if hasattr(m, "__all__"):
        return set(m.__all__)
    return {n for n in dir(m) if not n.startswith("_") or n in PUBLIC_DUNDERS}


def stub_functions(module):
    """{name: [ast.FunctionDef, ...]} of the functions the stub defines (overloads listed
    in order)."""
    out = {}
    for node in ast.parse(_stub_path(module).read_text()).body:
        if isinstance(node, ast.FunctionDef):
            out.setdefault(node.name, []).append(node)
    return out


def _stub_parameters(fn):
    """[(name, kind, default)] of a stub function; default is ``inspect.Parameter.empty``
    where it has none."""
    a = fn.args
    empty = inspect.Parameter.empty
    positional = [(p, inspect.Parameter.POSITIONAL_ONLY) for p in a.posonlyargs] + [
        (p, inspect.Parameter.POSITIONAL_OR_KEYWORD) for p in a.args]
    defaults = [empty] * (len(positional) - len(a.defaults)) + list(a.defaults)
    out = [(p.arg, kind, d) for (p, kind), d in zip(positional, defaults)]
    if a.vararg:
        out.append((a.vararg.arg, inspect.Parameter.VAR_POSITIONAL, empty))
    out += [(p.arg, inspect.Parameter.KEYWORD_ONLY, empty if d is None else d)
            for p, d in zip(a.kwonlyargs, a.kw_defaults)]
    if a.kwarg:
        out.append((a.kwarg.arg, inspect.Parameter.VAR_KEYWORD, empty))
    return out


def _literal(node):
    return node if node is inspect.Parameter.empty else ast.literal_eval(node)


# -- tests ----------------------------------------------------------------------------------

def test_stubs_match_templates():
    stale = generate.stale()
    assert not stale, (f"stubs differ from numr_array_api/_typing/templates: {stale}; run "
                       f"`python -m numr_array_api._typing.generate`")


@pytest.mark.parametrize("module", sorted(MODULES))
def test_stub_names_match_runtime(module):
    importlib.import_module(module)
    assert _stub_path(module) == PACKAGE / MODULES[module]
    at_runtime, in_stub = runtime_names(module), stub_names(module)
    assert not at_runtime - in_stub, f"{module}: missing from the stub"
    assert not in_stub - at_runtime, f"{module}: in the stub, not at run time"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_stub_signatures_match_runtime(module):
    """Parameter names, kinds (positional-only / keyword-only) and defaults as at run time;
    overloads are checked for names and kinds only."""
    m = importlib.import_module(module)
    for name, overloads in stub_functions(module).items():
        if name.startswith("_"):
            continue
        runtime = [(p.name, p.kind, p.default)
                   for p in inspect.signature(getattr(m, name)).parameters.values()]
        for fn in overloads:
            stub = [(n, k, _literal(d)) for n, k, d in _stub_parameters(fn)]
            if len(overloads) > 1:
                stub, want = [s[:2] for s in stub], [r[:2] for r in runtime]
            else:
                want = runtime
            assert stub == want, f"{module}.{name}: stub {stub} != runtime {want}"


def test_array_stub_matches_runtime_class():
    import numr_array_api.cpu as xp

    cls = type(xp.asarray([1.0]))
    tree = ast.parse((PACKAGE / "_core/array.pyi").read_text())
    (node,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Array"]
    in_stub = {n.name for n in node.body if isinstance(n, ast.FunctionDef)} | {
        n.target.id for n in node.body if isinstance(n, ast.AnnAssign)}
    at_runtime = {n for n in dir(cls) if not n.startswith("_")} | {
        n for n in dir(cls) if n.startswith("__") and n.endswith("__")
        and n not in dir(object) and n not in ("__slots__", "__weakref__", "__module__")}
    at_runtime.add("__hash__")  # None: arrays are mutable
    assert not at_runtime - in_stub, "Array attributes missing from numr_array_api/_core/array.pyi"
    assert not in_stub - at_runtime - {"__eq__", "__ne__", "__lt__", "__le__", "__gt__",
                                       "__ge__", "__reduce__"}, "Array stub names no attribute"
    for name in in_stub:
        assert hasattr(cls, name), name


def _mypy_available():
    try:
        import mypy  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.mark.skipif(not _mypy_available() and os.environ.get("CI", "").lower() != "true",
                    reason="mypy is not installed (the test extra installs it)")
def test_user_script_type_checks(tmp_path):
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\n")  # the run's options are the ones below, whatever else exists
    cmd = [sys.executable, "-m", "mypy", "--strict", "--config-file", str(config),
           "--cache-dir", str(tmp_path / "cache"), "--no-error-summary",
           str(SCRIPT.relative_to(ROOT))]
    # from the repository root, mypy reads these stubs whatever installed the package
    env = dict(os.environ, MYPYPATH=str(ROOT))
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    seconds = time.perf_counter() - start
    out = proc.stdout + proc.stderr
    errors = [line for line in out.splitlines() if ": error:" in line]
    assert proc.returncode == 0 and not errors, f"mypy ({seconds:.1f} s) failed:\n{out}"

    revealed = {}
    for line in out.splitlines():
        m = re.match(r".*user_script\.py:(\d+): note: Revealed type is \"(.+)\"$", line)
        if m:
            revealed[int(m.group(1))] = m.group(2)
    expected = {}
    for lineno, text in enumerate(SCRIPT.read_text().splitlines(), 1):
        m = re.search(r"reveal_type\(.*# revealed: (\w+)$", text)
        if m:
            expected[lineno] = REVEALED[m.group(1)]
    assert set(expected.values()) >= {REVEALED["cpu"], REVEALED["cuda"], REVEALED["webgpu"]}
    assert revealed == expected, f"mypy output:\n{out}"
