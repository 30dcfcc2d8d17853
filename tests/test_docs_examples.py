"""The worked examples of the guides (docs/guides/*.md) run, and print what the pages say;
the snippets of the user pages (getting started, cpu, host conversion) run.

Each guide's ```python blocks run in order in one fresh interpreter, as a reader would run
them; the ```text block right after a python block is its documented output. The examples
loop over the numr namespaces with a device here, so the documented lines of every
backend that ran must be printed, and nothing else for those backends.
"""

import os
import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
GUIDES = sorted((ROOT / "docs" / "guides").glob("*.md"))
PAGES = [ROOT / "docs" / f"{name}.md" for name in ("getting-started", "cpu", "host-conversion")]
BACKENDS = ("cpu", "webgpu", "cuda")
_FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)


def _blocks(path):
    """(code, documented output lines) of a guide."""
    blocks = [(m.group(1), m.group(2)) for m in _FENCE.finditer(path.read_text())]
    code, expected = [], []
    for i, (lang, body) in enumerate(blocks):
        if lang == "python":
            code.append(body)
            if i + 1 < len(blocks) and blocks[i + 1][0] == "text":
                expected += [ln for ln in blocks[i + 1][1].splitlines() if ln.strip()]
    return "\n".join(code), expected


@pytest.mark.parametrize("guide", GUIDES, ids=lambda p: p.stem)
def test_guide_examples_run_and_print_what_is_documented(guide, tmp_path):
    pytest.importorskip("sklearn" if "scikit" in guide.stem else "scipy")
    code, expected = _blocks(guide)
    assert code and expected, f"{guide.name}: no examples found"
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("NUMR_HOST_CONVERSION", None)  # the pages assume the default policy
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       cwd=tmp_path, env=env, timeout=600)
    assert r.returncode == 0, f"{guide.name} failed:\n{r.stdout}\n{r.stderr[-4000:]}"
    printed = [ln for ln in r.stdout.splitlines() if ln.strip()]
    ran = {ln.split()[0] for ln in printed} & set(BACKENDS)
    assert "cpu" in ran, printed
    documented = {ln.split()[0] for ln in expected}
    want = [ln for ln in expected if ln.split()[0] in ran]
    got = [ln for ln in printed if ln.split()[0] in documented]
    assert sorted(got) == sorted(want), (f"{guide.name}: printed\n" + "\n".join(printed)
                                         + "\ndocumented\n" + "\n".join(expected))


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.stem)
def test_page_snippets_run(page, tmp_path):
    code, _ = _blocks(page)
    assert code, f"{page.name}: no python snippet found"
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       cwd=tmp_path, env=env, timeout=300)
    assert r.returncode == 0, f"{page.name} failed:\n{r.stdout}\n{r.stderr[-4000:]}"
