"""The documentation site builds with warnings as errors, and its API reference shows every
public function of every namespace and of ext.

Runs ``python -m sphinx -W --keep-going -b html docs <tmp>`` (the README's command) in a
subprocess. Needs the ``docs`` extra (Sphinx, MyST), which .ci/setup installs by default.
"""

import html
import os
import pathlib
import re
import subprocess
import sys

import pytest

# probed in a child: importing Sphinx here would leave it in sys.modules, where SciPy's
# docstring machinery (scipy.stats at import) then reaches for sphinx.ext.autodoc, which a
# partial install lacks; the later tests of this process would fail on an unrelated import
_probe = subprocess.run([sys.executable, "-c", "import sphinx.ext.autodoc, myst_parser"],
                        capture_output=True, text=True)
if _probe.returncode:
    pytest.skip("Sphinx or myst-parser is not usable (the 'docs' extra: pip install -e "
                f"'.[docs]'); the docs build is not tested: {_probe.stderr.strip()[-200:]}",
                allow_module_level=True)

from numr_array_api._api._docstrings import public  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("html")
    doctrees = tmp_path_factory.mktemp("doctrees")
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    r = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                        "-d", str(doctrees), str(ROOT / "docs"), str(out)],
                       capture_output=True, text=True, cwd=ROOT, env=env, timeout=600)
    noise = "XDG_RUNTIME_DIR"  # wgpu's OpenGL probe prints this on headless machines
    errors = "\n".join(ln for ln in (r.stdout + r.stderr).splitlines() if noise not in ln)
    assert r.returncode == 0, f"sphinx-build failed (warnings are errors):\n{errors}"
    return out


def _ids(page):
    return set(re.findall(r'id="([^"]+)"', page.read_text()))


def _hrefs(page):
    return {html.unescape(h) for h in re.findall(r'href="([^"]+)"', page.read_text())}


def test_every_namespace_function_in_the_reference(site):
    api = site / "_generated" / "api"
    documented = _ids(api / "functions.html")
    assert "numr_array_api.cpu.sum" in documented
    missing = []
    for modname in public.NAMESPACES:
        ns = public.load(modname)
        if ns is None:  # the page then lists the shared front-end's functions from cpu
            ns = public.load("numr_array_api.cpu")
        page = api / f"{modname.rsplit('.', 1)[1]}.html"
        ids, hrefs = _ids(page), _hrefs(page)
        for sub in ("",) + public.SUBMODULES:
            m = getattr(ns, sub) if sub else ns
            name = modname + (f".{sub}" if sub else "")
            canon = "numr_array_api.cpu" + (f".{sub}" if sub else "")
            for fname in public.public_functions(m):
                own = f"{name}.{fname}" in ids
                linked = f"functions.html#{canon}.{fname}" in hrefs and \
                    f"{canon}.{fname}" in documented
                if not (own or linked):
                    missing.append(f"{name}.{fname}")
    assert not missing, f"not in the API reference: {missing}"


def test_every_ext_function_in_the_reference(site):
    ids = _ids(site / "_generated" / "api" / "ext.html")
    missing = [f"{modname}.{f}" for modname in public.EXT_MODULES
               for f in public.public_functions(public.load(modname))
               if f"{modname}.{f}" not in ids]
    assert not missing, f"not in the API reference: {missing}"
    assert "numr_array_api.ext.random.sobol" in ids


def test_array_members_in_the_reference(site):
    cpu = public.load("numr_array_api.cpu")
    ids = _ids(site / "_generated" / "api" / "array.html")
    missing = [n for n in public.array_members(cpu._ctx.ArrayT)
               if f"numr_array_api.cpu.Array.{n}" not in ids]
    assert not missing, f"Array members not in the API reference: {missing}"


def test_results_pages(site):
    text = (site / "_generated" / "conformance.html").read_text()
    for p in (ROOT / "conformance" / "results").glob("*.json"):
        assert p.stem in text, p.name
    consumers = (site / "_generated" / "consumers.html").read_text()
    recorded = list((ROOT / "conformance" / "results").glob("consumers-*.md"))
    if recorded:
        for p in recorded:
            assert p.stem[len("consumers-"):] in consumers
    else:
        assert "Not yet recorded" in consumers
    # every stored benchmark result is on the benchmarks page (its history at least), and
    # the namespace runs are drawn where matplotlib is there
    bench = (site / "benchmarks.html").read_text()
    stored = list((ROOT / "benchmarks" / "results").glob("*.json"))
    for p in stored:
        assert p.name in bench, p.name
    try:
        import matplotlib  # noqa: F401
        assert not stored or "<img" in bench, "results are stored but nothing is drawn"
    except ImportError:
        pass
    for page in ("install", "getting-started", "cpu", "webgpu", "cuda", "host-conversion", "ext",
                 "custom-kernels", "guides/index", "guides/scikit-learn", "guides/scipy",
                 "guides/xarray", "benchmarks", "webgpu-kernels", "webgpu-linalg", "internals"):
        assert (site / f"{page}.html").exists(), page


def test_host_reads_generated_from_the_code(site):
    """The webgpu page and the host-conversion page show the generated lists of host reads
    (HostReadWarning) and host round trips (HostFallbackWarning)."""
    for page in ("webgpu", "host-conversion"):
        text = (site / f"{page}.html").read_text()
        assert "nonzero(x)" in text and "unique_values" in text, page
        assert "FALLBACK_METHODS" in text, page
