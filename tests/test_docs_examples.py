"""Every ```python block of the documentation runs, or says why it cannot.

Each page's ```python blocks (docs/**/*.md, the generated pages excepted) run in order as
one script, in a fresh interpreter with the default host-conversion policy, as a reader would
run them. A block that cannot run here is marked by the MyST comment line right above it:

    % example: skip (needs CUDA)

with the reason in parentheses (MyST drops the comment from the rendered page). A page whose
script imports a module that is not installed (scikit-learn, xarray, ...) or uses the webgpu
namespace where no adapter exists is skipped with that reason; CI installs them and runs
webgpu on lavapipe.

The ```text block right after a python block is its documented output, and must be what the
script prints. The guides loop over the numr namespaces with a device here: a documented
line whose first word is a backend name is checked for the backends that ran; every other
documented line must be printed as shown.

Guides and snippets filter warnings by category only (``warnings.simplefilter("ignore",
HostReadWarning)``), never all warnings at once.
"""

import ast
import concurrent.futures
import functools
import importlib.util
import os
import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = sorted(p for p in DOCS.rglob("*.md")
               if not p.relative_to(DOCS).parts[0].startswith(("_", "tools")))
BACKENDS = ("cpu", "webgpu", "cuda")
_FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", re.S | re.M)
_MARKER = re.compile(r"^% example: skip \((.+)\)\s*$")
_BLANKET = re.compile(r"(simplefilter|filterwarnings)\(\s*[\"']ignore[\"']\s*\)")


def _blocks(path):
    """[(lang, body, skip reason or None)] of a page, in order."""
    text = path.read_text()
    out = []
    for m in _FENCE.finditer(text):
        before = text[:m.start()].rstrip("\n").rsplit("\n", 1)[-1]
        marker = _MARKER.match(before)
        out.append((m.group(1), m.group(2), marker.group(1) if marker else None))
    return out


def _script(path):
    """(code of the runnable python blocks, documented output lines, skipped reasons)."""
    blocks = _blocks(path)
    code, expected, skipped = [], [], []
    for i, (lang, body, skip) in enumerate(blocks):
        if lang != "python":
            continue
        if skip is not None:
            skipped.append(skip)
            continue
        code.append(body)
        if i + 1 < len(blocks) and blocks[i + 1][0] == "text":
            expected += [ln for ln in blocks[i + 1][1].splitlines() if ln.strip()]
    return "\n".join(code), expected, skipped


def _missing_modules(code):
    names = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return sorted(n for n in names if importlib.util.find_spec(n) is None)


@functools.lru_cache(maxsize=None)
def _webgpu_devices():
    r = subprocess.run([sys.executable, "-c", "import numr_array_api.webgpu as xp; "
                        "print(len(xp.__array_namespace_info__().devices()))"],
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    return r.returncode == 0 and r.stdout.strip().splitlines()[-1:] != ["0"]


def _run(code, cwd):
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("NUMR_HOST_CONVERSION", None)  # the pages assume the default policy
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=600)


def _why_not(code):
    missing = _missing_modules(code)
    if missing:
        return f"not installed: {', '.join(missing)}"
    if "numr_array_api.webgpu" in code and not _webgpu_devices():
        return "no WebGPU adapter here (CI runs webgpu on lavapipe)"
    return None


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    """Every page's script, run two at a time (fresh processes; the machine has 2 cores)."""
    jobs = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for page in PAGES:
            code, _, _ = _script(page)
            if not code.strip() or _why_not(code):
                continue
            cwd = tmp_path_factory.mktemp(page.stem)
            jobs[page] = pool.submit(_run, code, cwd)
        return {page: job.result() for page, job in jobs.items()}


def _name(p):
    return p.relative_to(DOCS).with_suffix("").as_posix()


@pytest.mark.parametrize("page", [p for p in PAGES if "```python" in p.read_text()], ids=_name)
def test_page_examples_run_and_print_what_is_documented(page, results):
    code, expected, skipped = _script(page)
    if not code.strip():
        pytest.skip("no runnable python block" + (f" ({'; '.join(skipped)})" if skipped else ""))
    why = _why_not(code)
    if why:
        pytest.skip(why)
    r = results[page]
    assert r.returncode == 0, f"{_name(page)} failed:\n{r.stdout}\n{r.stderr[-4000:]}"
    printed = [ln for ln in r.stdout.splitlines() if ln.strip()]
    tagged = [ln for ln in expected if ln.split()[0] in BACKENDS]
    plain = [ln for ln in expected if ln.split()[0] not in BACKENDS]
    if tagged:
        ran = {ln.split()[0] for ln in printed} & set(BACKENDS)
        assert "cpu" in ran, printed
        documented = {ln.split()[0] for ln in tagged}
        want = [ln for ln in tagged if ln.split()[0] in ran]
        got = [ln for ln in printed if ln.split()[0] in documented]
        assert sorted(got) == sorted(want), (f"{_name(page)}: printed\n" + "\n".join(printed)
                                             + "\ndocumented\n" + "\n".join(expected))
    missing = [ln for ln in plain if ln not in printed]
    assert not missing, (f"{_name(page)}: documented but not printed\n" + "\n".join(missing)
                         + "\nprinted\n" + "\n".join(printed))


def test_every_python_block_runs_or_says_why_not():
    """A skip marker names its reason and sits on a python block; the guides exist."""
    bad = []
    for page in PAGES:
        text = page.read_text()
        for i, line in enumerate(text.splitlines(), 1):
            if line.startswith("% example") and not _MARKER.match(line):
                bad.append(f"{_name(page)}:{i}: malformed marker {line!r}")
        for lang, body, skip in _blocks(page):
            if skip is not None and lang != "python":
                bad.append(f"{_name(page)}: a skip marker on a ```{lang} block")
            if lang == "python" and _BLANKET.search(body):
                bad.append(f"{_name(page)}: a blanket warning filter: "
                           f"{_BLANKET.search(body).group(0)}")
    assert not bad, "\n".join(bad)
    names = {_name(p) for p in PAGES}
    assert {"guides/scipy", "guides/scikit-learn", "guides/xarray", "getting-started",
            "host-conversion"} <= names
