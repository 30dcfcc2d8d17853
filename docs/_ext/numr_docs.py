"""Pages generated at the start of every docs build (docs/_generated/, not committed).

- ``api/``: the API reference. The namespaces' functions are closures of one shared
  front-end with one shared docstring each (numr_array_api/_api/_docstrings), so their text
  is rendered once, through autodoc, under ``numr_array_api.cpu``; each namespace's page
  lists every public function it has (linked to that text) and documents in full what only
  that namespace has (runtime functions). ``ext`` is documented with automodule.
- ``conformance.md``: the official suite's results (conformance/results/*.json) as tables.
- ``consumers.md``: scikit-learn's and SciPy's suites on numr
  (conformance/results/consumers-<backend>.md, when recorded).
- ``host-reads.md``, ``host-fallbacks.md``: the webgpu functions that read back to the host
  (HostReadWarning) or can run on it (HostFallbackWarning), read from the code
  (numr_array_api/backends/webgpu); docs/webgpu.md and docs/host-conversion.md include them.
- ``environment.md``, ``tuning.md``: the environment variables and the tuning knobs.
- ``benchmarks.md``: the benchmark suite's stored results (benchmarks/results/), drawn by
  benchmarks/render.py and benchmarks/plot.py (tables only without matplotlib).

``public`` (numr_array_api._api._docstrings.public) decides what is public, for this
generator and for the tests that check every public function appears
(tests/test_docs_build.py, tests/architecture/test_public_api_docs.py).
"""

import glob
import importlib
import inspect
import json
import pathlib
import re
import types

ROOT = pathlib.Path(__file__).resolve().parents[2]
CANONICAL = "numr_array_api.cpu"
NAMESPACE_TITLES = {
    "numr_array_api.cpu": "cpu: NumPy memory, the CPU",
    "numr_array_api.webgpu": "webgpu: WebGPU adapters (wgpu-py)",
    "numr_array_api.cuda": "cuda: NVIDIA GPUs (CuPy)",
}


def package_version():
    try:
        from importlib.metadata import version
        return version("numr-array-api")
    except Exception:
        return "0.1.0"


# ---- helpers -----------------------------------------------------------------------------

def _write(path, text):
    """Write only when the text changed: Sphinx then re-reads only what changed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


def _summary(obj):
    doc = inspect.getdoc(obj) or ""
    first = doc.strip().split("\n\n")[0].replace("\n", " ").strip()
    return first or "(undocumented)"


def _heading(text, char):
    return f"{text}\n{char * len(text)}\n"


def _table(rows, header):
    """An RST list-table (cells may hold inline markup)."""
    out = [".. list-table::", "   :header-rows: 1", "   :widths: auto", ""]
    for row in [header] + rows:
        out.append(f"   * - {row[0]}")
        out += [f"     - {cell}" for cell in row[1:]]
    return "\n".join(out) + "\n"


def _md_table(rows, header):
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c).replace("|", "\\|") for c in r) + " |" for r in rows]
    return "\n".join(out) + "\n"


# ---- API reference -------------------------------------------------------------------

def _public():
    from numr_array_api._api._docstrings import public
    return public


def _categories():
    from numr_array_api._api._docstrings.standard import CATEGORIES
    return CATEGORIES


def functions_page():
    """Every function of the standard (and numr's additions to every namespace), rendered
    once from the cpu namespace's objects."""
    public = _public()
    cpu = importlib.import_module(CANONICAL)
    cats = _categories()
    groups = {}
    for name in public.public_functions(cpu):
        groups.setdefault(cats.get(name, "numr additions"), []).append(name)
    order = sorted(groups, key=lambda t: (t == "numr additions", t))
    out = [_heading("Array API functions", "="), "",
           "Every numr namespace (:doc:`cpu`, :doc:`webgpu`, :doc:`cuda`) builds these "
           "functions from one shared front-end, with one docstring each: the standard's "
           "description (2025.12), summarised, followed by numr's notes, which name the "
           "backend when a note applies to one. They are shown here once, under "
           "``numr_array_api.cpu``; ``numr_array_api.webgpu.sum`` takes the same arguments "
           "and has the same text. Errors are numr's taxonomy (``numr_array_api.errors``), "
           "each also the built-in exception the standard expects.", ""]
    for title in order:
        out += [_heading(title, "-"), ""]
        for name in sorted(groups[title]):
            if isinstance(getattr(cpu, name), type):  # __array_namespace_info__
                out += [f".. autoclass:: {CANONICAL}.{name}", "   :members:", ""]
            else:
                out += [f".. autofunction:: {CANONICAL}.{name}", ""]
    for sub in public.SUBMODULES:
        m = getattr(cpu, sub)
        out += [_heading(f"The {sub} extension", "-"), "",
                f"``xp.{sub}`` in every namespace.", ""]
        for name in sorted(public.public_functions(m)):
            out += [f".. autofunction:: {CANONICAL}.{sub}.{name}", ""]
    out += [_heading("Constants and data types", "-"), "",
            "Every namespace exports the standard's constants ``e``, ``pi``, ``inf``, ``nan`` "
            "and ``newaxis`` and its dtypes ``bool``, ``int8`` ... ``uint64``, ``float32``, "
            "``float64``, ``complex64``, ``complex128`` (plus ``float16``). The dtype objects "
            "are shared: ``numr_array_api.cpu.float32 is numr_array_api.webgpu.float32``. "
            "Which dtypes a device supports: ``xp.__array_namespace_info__().dtypes("
            "device=...)``.", ""]
    return "\n".join(out)


def _napoleon_lines(doc, app_config):
    from sphinx.ext.napoleon import NumpyDocstring
    return str(NumpyDocstring(inspect.cleandoc(doc), app_config)).splitlines()


def array_page(config):
    """The array object: the members of ``type(x)`` (operators included, which each
    namespace attaches to its array class), from the cpu namespace."""
    public = _public()
    cpu = importlib.import_module(CANONICAL)
    cls = cpu._ctx.ArrayT
    members = public.array_members(cls)
    out = [_heading("The array object", "="), "",
           "``type(x)`` of every array of a namespace: an instance of that namespace's "
           "``Array`` (``isinstance(x, xp.Array)``). The members are the same in every "
           "namespace; the operators call the namespace's elementwise functions.", "",
           f".. py:class:: {CANONICAL}.Array", ""]
    out += ["   " + line if line else "" for line in inspect.cleandoc(cls.__doc__).splitlines()]
    out.append("")
    for name in sorted(members, key=lambda n: (n.startswith("_"), n)):
        obj = members[name]
        if isinstance(obj, property):
            out += [f"   .. py:property:: {name}", ""]
        else:
            try:
                sig = str(inspect.signature(obj))
            except (TypeError, ValueError):
                sig = "(self, /, *args)"
            if not sig.startswith("(self"):  # a namespace function used as an operator
                sig = "(self, other, /)" if "x2" in sig else "(self, /)"
            out += [f"   .. py:method:: {name}{sig}", ""]
        out += ["      " + line if line else "" for line in
                _napoleon_lines(obj.__doc__ or "", config)]
        out.append("")
    return "\n".join(out)


def namespace_page(modname):
    """Every public function of one namespace: linked to the shared text, or documented
    here when only this namespace has it."""
    public = _public()
    cpu = importlib.import_module(CANONICAL)
    title = NAMESPACE_TITLES[modname]
    m = public.load(modname)
    out = [_heading(title, "="), ""]
    if m is None:
        # cannot be imported here: list the shared front-end's functions, which every
        # namespace has, with the reason
        out += [f"``{modname}`` could not be imported where these pages were built; its "
                "functions are the shared front-end's, listed below from "
                f"``{CANONICAL}``; its runtime functions are described on :doc:`../../{modname.rsplit('.', 1)[1]}`.", ""]
        mods = [(modname, cpu)] + [(f"{modname}.{s}", getattr(cpu, s)) for s in public.SUBMODULES]
    else:
        out += [f".. automodule:: {modname}", ""]
        mods = [(modname, m)] + [(f"{modname}.{s}", getattr(m, s)) for s in public.SUBMODULES]
    for name, mod in mods:
        canon = CANONICAL + name[len(modname):]
        cmod = importlib.import_module(canon)
        shared, own = [], []
        for fname, fn in sorted(public.public_functions(mod).items()):
            ref = getattr(cmod, fname, None)
            if ref is not None and (ref is fn or (
                    m is not None and getattr(ref, "__doc__", None) == fn.__doc__
                    and (_front_end(fn) or fname == "__array_namespace_info__"))):
                shared.append([f":obj:`{fname} <{canon}.{fname}>`", _summary(fn)])
            else:
                own.append(fname)
        sub = name[len(modname) + 1:] if name != modname else ""
        label = f"``{name}``"
        out += [_heading(f"{label}: functions of the standard" if not sub else
                         f"{label}: the {sub} extension", "-"), ""]
        out += [_table(shared, ["function", "summary (full text: the shared reference)"]), ""]
        if own:
            out += [_heading(f"Only in {label}", "-"), ""]
            for fname in own:
                out += [f".. autofunction:: {name}.{fname}", ""]
    if m is not None:
        classes = [k for k, v in vars(m).items() if isinstance(v, type) and not k.startswith("_")
                   and k != "Array" and v.__module__.startswith(modname.split(".")[0])
                   and v.__module__ in (modname,) or (isinstance(v, type) and
                   issubclass(v, Warning) and not k.startswith("_"))]
        if classes:
            out += [_heading("Classes", "-"), ""]
            for k in sorted(set(classes)):
                out += [f".. autoclass:: {modname}.{k}", "   :no-index:", ""]
    out += ["The array class: :doc:`array`.", ""]
    return "\n".join(out)


def _front_end(fn):
    # a closure the namespace built from the shared front-end (named after the namespace)
    return isinstance(fn, types.FunctionType) and fn.__code__.co_filename.replace(
        "\\", "/").split("/numr_array_api/")[-1].startswith(("_api/", "<numr"))


def ext_page():
    public = _public()
    out = [_heading("numr_array_api.ext", "="), "",
           "Extensions beyond the standard, for arrays of any array-API namespace; see "
           ":doc:`../../ext` for the design, the kernels per backend and measurements.", ""]
    for modname in public.EXT_MODULES:
        m = importlib.import_module(modname)
        names = sorted(public.public_functions(m))
        out += [_heading(f"``{modname}``", "-"), "", f".. automodule:: {modname}", ""]
        for n in names:
            out += [f".. autofunction:: {modname}.{n}", ""]
    return "\n".join(out)


def api_index():
    return "\n".join([
        "# API reference", "",
        "Generated from the docstrings at every build. The array API functions are shared "
        "by every namespace and documented once; each namespace page lists all of its "
        "public functions and documents its own runtime functions.", "",
        "```{toctree}", ":maxdepth: 2", "", "functions", "array", "cpu", "webgpu", "cuda",
        "ext", "```", ""])


# ---- conformance and consumers ----------------------------------------------------------

def _results(pattern):
    return sorted(pathlib.Path(p) for p in glob.glob(str(ROOT / "conformance/results" / pattern)))


def conformance_page():
    files = [p for p in _results("*.json")]
    out = ["# Conformance: the official test suite", "",
           "The standard's test suite ([array-api-tests](https://github.com/data-apis/"
           "array-api-tests)) run by `conformance/run.py` on each namespace; generated from "
           "`conformance/results/*.json` when these pages are built. Known failures are "
           "listed with their reasons in `conformance/xfails/<backend>.txt`; "
           "array-api-strict (the standard's reference implementation) is run the same way "
           "as a baseline.", ""]
    if not files:
        out += ["No results are recorded yet.", ""]
        return "\n".join(out)
    rows, partial, details = [], [], []
    for p in files:
        d = json.loads(p.read_text())
        c = d.get("counts", {})
        name = p.stem
        tests = d.get("tests") or []
        whole = tests in (["array_api_tests/"], ["array_api_tests"])
        (rows if whole else partial).append(
            [f"`{d.get('module', '?')}` ({name})", d.get("date", ""), d.get("max_examples", ""),
             c.get("passed", 0), c.get("failed", 0), c.get("error", 0), c.get("xfailed", 0),
             c.get("skipped", 0), c.get("total", 0)]
            + ([] if whole else [_cell(", ".join(t.rsplit("/", 1)[-1] for t in tests))]))
        failing = d.get("failing") or []
        details += [f"### {name}", "",
                    _md_table([["devices", ", ".join(map(str, d.get("devices") or [])) or "-"],
                               ["suite commit", f"`{str(d.get('suite_commit', ''))[:12]}`"],
                               ["API version", d.get("api_version", "")],
                               ["known failures", f"{d.get('xfail_entries', 0)} entries in "
                                f"`{d.get('xfails_file') or '-'}`"],
                               ["python / platform",
                                f"{d.get('python', '')} / {d.get('platform', '')}"],
                               ["wall time", f"{d.get('duration_s', '?')} s"],
                               ["pytest exit code", d.get("exit_code", "")]],
                              ["setting", "value"]), ""]
        if failing:
            details += [f"Failing tests ({len(failing)}):", "",
                        _md_table([[f"`{f['id'].replace('`', chr(39))}`",
                                    _cell(f.get("message", ""))]
                                   for f in failing], ["test", "message"]), ""]
        else:
            details += ["No failing test.", ""]
    head = ["namespace (results file)", "date (UTC)", "max examples", "passed", "failed",
            "errors", "xfailed", "skipped", "total"]
    if rows:
        out += ["## The whole suite", "", _md_table(rows, head), ""]
    if partial:
        out += ["## Chosen test files", "",
                "Runs of some test files only (a family's check while its kernels changed).",
                "", _md_table(partial, head + ["test files"]), ""]
    out += ["## Each run", ""]
    out += details
    return "\n".join(out)


def _cell(text):
    text = " ".join(str(text).split())
    if len(text) > 160:
        text = text[:157] + "..."
    return text.replace("`", "'").replace("<", "&lt;").replace(">", "&gt;")


def consumers_page():
    files = _results("consumers-*.md")
    out = ["# Consumers: scikit-learn's and SciPy's own test suites", "",
           "scikit-learn's and SciPy's array-API test suites run on numr's namespaces, "
           "with array-api-strict as the baseline in the same invocation "
           "(`conformance/consumers/`). Each backend's results file, "
           "`conformance/results/consumers-<backend>.md`, is included below when these "
           "pages are built.", ""]
    if not files:
        out += ["```{note}", "Not yet recorded: no `conformance/results/consumers-*.md` file "
                "exists in this checkout. `python conformance/consumers/run.py --backend "
                "cpu|webgpu|cuda` records one (conformance/consumers/README.md).", "```", ""]
        return "\n".join(out)
    for p in files:
        out += [f"## {p.stem[len('consumers-'):]}", "", _demote(p.read_text()), ""]
    return "\n".join(out)


def _demote(text):
    """A recorded Markdown file under a level-2 heading: its headings below that one, each
    at most one level deeper than the previous (and at most level 6), so that whatever the
    file's own levels, the page has no jumps (a warning, an error in a -W build); its
    relative links as plain text (they point into the repository, not into these pages)."""
    lines = []
    fence = False
    prev = 2
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fence = not fence
        if not fence:
            m = re.match(r"^(#{1,6})\s+(.*)$", line)
            if m:
                level = max(3, min(len(m.group(1)) + 2, prev + 1, 6))
                prev = level
                line = "#" * level + " " + m.group(2)
            line = re.sub(r"\[([^\]]+)\]\((?!https?:)([^)]+)\)", r"\1 (`\2`)", line)
        lines.append(line)
    return "\n".join(lines)


# ---- benchmarks ----------------------------------------------------------------------------

def benchmarks_page(outdir):
    """benchmarks/render.py's page: the newest full run per adapter, plots, history."""
    import sys
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import render
    return render.page(img_dir=outdir / "img")


# ---- pages not yet in the table of contents ----------------------------------------------

def more_page(srcdir):
    """A toctree of the Markdown pages that no toctree lists (index.md and the section pages
    it lists), so that a page added without a place in the contents still builds without a
    warning and can be found; a section page should list it."""
    import posixpath
    listed = set()
    for page in srcdir.rglob("*.md"):
        rel = page.relative_to(srcdir)
        if rel.parts[0].startswith(("_", "tools")):
            continue
        base = posixpath.dirname(rel.as_posix())
        inside = False
        for line in page.read_text().splitlines():
            if line.startswith("```{toctree}"):
                inside = True
            elif line.startswith("```"):
                inside = False
            elif inside and line.strip() and not line.startswith(":"):
                entry = line.strip()
                if entry.endswith(">") and "<" in entry:  # "title <target>"
                    entry = entry[entry.rindex("<") + 1:-1]
                listed.add(posixpath.normpath(posixpath.join(base, entry)))
    pages = sorted(p.relative_to(srcdir).with_suffix("").as_posix() for p in srcdir.rglob("*.md")
                   if not p.relative_to(srcdir).parts[0].startswith(("_", "tools")))
    extra = [p for p in pages if p not in listed and p != "index"]
    out = ["# Other pages", ""]
    if not extra:
        out += ["Every page is listed in the contents.", ""]
    else:
        out += ["```{toctree}", ":maxdepth: 1", ""] + [f"../{p}" for p in extra] + ["```", ""]
    return "\n".join(out)


def environment_page():
    """The environment variables numr reads (numr_array_api/_core/environment.py)."""
    from numr_array_api._core.environment import VARIABLES
    scopes = {"all": "every namespace", "debug": "debugging"}
    rows = [[f"`{v.name}`", scopes.get(v.scope, v.scope), f"`{v.default}`" if v.default
             else "unset", _cell(v.doc)] for v in VARIABLES.values()]
    return _md_table(rows, ["variable", "scope", "default", "what it does"])


def tuning_page():
    """Every knob of the tuning registry, by family, and the shipped per-adapter tables."""
    from numr_array_api import tuning
    from numr_array_api.tuning import tables
    from numr_array_api.tuning.knobs import FAMILIES
    out = ["# Tuning knobs", "",
           "Generated from `numr_array_api.tuning` (see [Configuration](../configuration.md)). "
           "Set a knob with `numr_array_api.tuning.override(NAME=value)` or "
           "`NUMR_TUNING=\"NAME=value\"`.", ""]
    ks = tuning.knobs()
    for fam in FAMILIES:
        rows = []
        for k in ks.values():
            if k.family != fam:
                continue
            legal = ", ".join(f"`{c!r}`" for c in k.choices)
            if k.lo is not None or k.hi is not None:
                rng = (f"{k.lo} to {k.hi}" if k.lo is not None and k.hi is not None else
                       f"at least {k.lo}" if k.lo is not None else f"at most {k.hi}")
                legal = (legal + "; " if legal else "") + rng
            rows.append([f"`{k.name}`", k.type.__name__, f"`{k.default!r}`", legal or "-",
                         _cell(k.doc) + (f" (also `{k.env}`)" if k.env else "")])
        if rows:
            out += [f"## {fam}", "", _md_table(rows, ["knob", "type", "default", "tried / legal",
                                                     "what it does"]), ""]
    out += ["## Shipped tables", ""]
    rows = []
    for t in tables.shipped():
        m = t.get("measured", {})
        vals = ", ".join(f"`{k}={v!r}`" for k, v in sorted(t.get("values", {}).items()))
        rows.append([f"`{t['file']}`", _cell(", ".join(f"{k} ~ {v}" for k, v in
                                                        t.get("match", {}).items())),
                     _cell(" ".join(str(m.get(k, "")) for k in ("date", "commit", "source",
                                                                "command")).strip() or "-"),
                     vals or "(gemm section only)"])
    out += [_md_table(rows, ["file", "adapter", "measured", "values"]) if rows else
            "None.", ""]
    return "\n".join(out)



# ---- host reads and host round trips of the webgpu namespace ----------------------------

WEBGPU = ROOT / "numr_array_api" / "backends" / "webgpu"
# what a user calls, for each name the code passes to warn_host_read (ops/indexing.py);
# a name missing here makes the build warn, so the page is completed with the code
HOST_READ_CALLS = {
    "boolean-mask indexing": "`x[mask]` (a boolean-array key, alone or mixed with other keys)",
    "nonzero": "`nonzero(x)`",
    "unique": "`unique_all`, `unique_counts`, `unique_inverse`, `unique_values`",
    "repeat (array repeats)": "`repeat(x, repeats)` with an array of repeats (an int "
                              "`repeats` reads nothing)",
}
# the public functions behind each reduction backend method with a host path
REDUCTION_CALLS = {
    "reduce": "`sum`, `prod`, `max`, `min`, `mean`, `all`, `any`",
    "var": "`var`, `std`",
    "argmax": "`argmax`", "argmin": "`argmin`", "count_nonzero": "`count_nonzero`",
}


def _calls(func_name):
    """(file, enclosing function, literal arguments) of every call of ``func_name`` in the
    webgpu backend's sources, read with ast (nothing is imported or run)."""
    import ast
    found = []
    for path in sorted(WEBGPU.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        stack = [(tree, None)]
        while stack:
            node, owner = stack.pop()
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                owner = node.name
            if (isinstance(node, ast.Call) and getattr(node.func, "id", getattr(
                    node.func, "attr", None)) == func_name):
                args = [a.value if isinstance(a, ast.Constant) else None for a in node.args]
                found.append((path.relative_to(ROOT).as_posix(), owner, args, node.lineno))
            stack += [(c, owner) for c in ast.iter_child_nodes(node)]
    return sorted(found, key=lambda f: (f[0], f[3]))


def _literal(path, name):
    """The value of the module-level assignment ``name = <literal>`` in ``path``."""
    import ast
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == name
                                                 for t in node.targets):
            return node.value
    raise LookupError(f"{name} not found in {path}")


def host_reads_page(warn=print):
    """The webgpu functions that read data back to the host to size their output
    (HostReadWarning): every call of warn_host_read in numr_array_api/backends/webgpu."""
    rows = []
    for file, owner, args, _ in _calls("warn_host_read"):
        if owner == "warn_host_read" or not args or args[0] is None:
            continue
        name, what = args[0], (args[1] if len(args) > 1 else None) or "-"
        call = HOST_READ_CALLS.get(name)
        if call is None:
            warn(f"numr_docs: warn_host_read({name!r}) in {file} has no entry in "
                 "HOST_READ_CALLS (docs/_ext/numr_docs.py): say which public call it is")
            call = f"`{name}`"
        where = f"`{file}` (`{owner}`)"
        same = next((r for r in rows if r[0] == call and r[1] == what), None)
        if same is None:
            rows.append([call, what, where])
        elif where not in same[2]:
            same[2] += ", " + where
    if not rows:
        return "No webgpu function reads back to the host to size its output.\n"
    return _md_table(rows, ["call", "what is read to the host (once per call)",
                            "where (warns HostReadWarning)"])


def host_fallbacks_page(warn=print):
    """The webgpu functions that can run on the host (HostFallbackWarning): the names in
    FALLBACK_METHODS, the reductions' feature fallbacks and elementwise functions without a
    WGSL recipe, each read from the code."""
    import ast
    out = []
    methods = ast.literal_eval(_literal(WEBGPU / "ops" / "host_fallback.py", "FALLBACK_METHODS"))
    out += ["- Functions without a GPU kernel (`FALLBACK_METHODS` in "
            "`numr_array_api/backends/webgpu/ops/host_fallback.py`): "
            + (", ".join(f"`{m}`" for m in methods) if methods else "**none**") + ".", ""]
    comp = _literal(WEBGPU / "ops" / "reduction" / "mixin.py", "_HOST")
    names = ast.literal_eval(comp.generators[0].iter)
    calls = []
    for n in names:
        if n not in REDUCTION_CALLS:
            warn(f"numr_docs: reduction host path {n!r} has no entry in REDUCTION_CALLS "
                 "(docs/_ext/numr_docs.py)")
        calls.append(REDUCTION_CALLS.get(n, f"`{n}`"))
    needs = []
    try:
        from numr_array_api.backends.webgpu.codegen.types import WTYPES
        need = {}
        for d, t in WTYPES.items():
            if t.need:
                need.setdefault(t.need, []).append(d.name)
        needs = [f"{', '.join(v)} without `{k}`" + (" (float64 and complex128 also need "
                 "`shader-int64`: NaN tests read the bits)" if k == "shader-f64" else "")
                 for k, v in sorted(need.items(), key=lambda kv: kv[0], reverse=True)]
    except Exception as e:  # wgpu missing where the pages are built
        needs = [f"(not computed here: {type(e).__name__})"]
    out += ["- Reductions, only on an adapter that lacks a feature the dtype needs ("
            + "; ".join(needs) + "): " + ", ".join(calls)
            + " (`numr_array_api/backends/webgpu/ops/reduction/mixin.py`, `_HOST`). On an "
            "adapter with the features (lavapipe and the NVIDIA H100 / H200 have them; "
            "`capabilities()` lists an adapter's) they run on the GPU.", ""]
    try:
        from numr_array_api._core import dtypes as dt
        from numr_array_api.backends.webgpu.ops import elementwise as E
        missing = [f"`{name}` ({d.name})" for table, arity in ((E.UNARY, 1), (E.BINARY, 2))
                   for name, (kinds, _) in table.items() for d in dt.ALL_DTYPES
                   if d.kind in kinds and E.recipe(name, arity, d, dt.float64) is None]
        out += ["- Elementwise functions without a WGSL recipe for a dtype "
                "(`numr_array_api/backends/webgpu/ops/elementwise.py`, checked for every "
                "function and dtype of the tables when these pages are built): "
                + (", ".join(missing) if missing else "**none**") + ".", ""]
    except Exception as e:
        out += [f"- Elementwise functions: not computed here ({type(e).__name__}).", ""]
    return "\n".join(out)


def scipy_gpu_page():
    """Per SciPy module and function: where it runs for numr webgpu arrays (read from each
    module's ``implemented``), next to the rule for cpu and cuda arrays."""
    import importlib
    out = []
    for module in ("special", "ndimage", "signal"):
        try:
            mod = importlib.import_module(f"numr_array_api.scipy.{module}")
            sp = importlib.import_module(f"scipy.{module}")
        except Exception as e:
            out += [f"## scipy.{module}", "", f"(not computed here: {type(e).__name__})", ""]
            continue
        if module == "special":
            from scipy.special import _support_alternative_backends as sab
            names = sorted(f.name for f in sab._special_funcs)
        else:
            api = importlib.import_module(f"scipy.{module}._support_alternative_backends")
            names = sorted(getattr(api, f"_{module}_api").__all__)
        gpu = [n for n in names if mod.implemented(n, "webgpu")]
        host = [n for n in names if n not in gpu and hasattr(sp, n)]
        out += [f"## scipy.{module}", "",
                f"webgpu, numr's kernels ({len(gpu)} of {len(names)}): "
                + (", ".join(f"`{n}`" for n in gpu) or "none") + ".", "",
                f"webgpu, SciPy on a host copy ({len(host)}): "
                + (", ".join(f"`{n}`" for n in host) or "none") + ".", ""]
    return "\n".join(out)


# ---- Sphinx hook -------------------------------------------------------------------------

def generate(app, config):
    out = pathlib.Path(app.srcdir) / "_generated"
    api = out / "api"
    _write(api / "index.md", api_index())
    _write(api / "functions.rst", functions_page())
    _write(api / "array.rst", array_page(config))
    for modname in _public().NAMESPACES:
        _write(api / f"{modname.rsplit('.', 1)[1]}.rst", namespace_page(modname))
    _write(api / "ext.rst", ext_page())
    _write(out / "conformance.md", conformance_page())
    _write(out / "consumers.md", consumers_page())
    _write(out / "tuning.md", tuning_page())
    _write(out / "environment.md", environment_page())
    from sphinx.util import logging
    log = logging.getLogger("numr_docs").warning
    _write(out / "host-reads.md", host_reads_page(log))
    _write(out / "host-fallbacks.md", host_fallbacks_page(log))
    _write(out / "benchmarks.md", benchmarks_page(out))
    _write(out / "more.md", more_page(pathlib.Path(app.srcdir)))
    _write(out / "scipy-gpu.md", scipy_gpu_page())


def setup(app):
    app.connect("config-inited", generate)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
