"""The package's import graph: no circles, and dependencies only point down.

Every import statement counts, those inside functions too: a lazy import hides a circle
from the interpreter, not from a reader.
"""

import ast
import pathlib

import numr_array_api

ROOT = pathlib.Path(numr_array_api.__file__).parent
PKG = "numr_array_api"


def _modules():
    mods = {}
    for p in ROOT.rglob("*.py"):
        rel = p.relative_to(ROOT.parent).with_suffix("")
        name = ".".join(rel.parts)
        if name.endswith(".__init__"):
            name = name[: -len(".__init__")]
        mods[name] = p
    return mods


def _targets(mods, mod, node):
    is_pkg = mods[mod].name == "__init__.py"
    base = mod.split(".") if is_pkg else mod.split(".")[:-1]
    names = []
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names if a.name.startswith(PKG)]
    else:
        if node.level:
            parts = base[: len(base) - node.level + 1]
            m = ".".join(parts + ([node.module] if node.module else []))
        else:
            m = node.module or ""
        if m.startswith(PKG):
            names = [f"{m}.{a.name}" if f"{m}.{a.name}" in mods else m for a in node.names]
    out = set()
    for n in names:
        while n not in mods and "." in n:
            n = n.rsplit(".", 1)[0]
        if n in mods and n != mod and not mod.startswith(n + "."):
            out.add(n)  # importing an enclosing package's __init__ is not an edge
    return out


def import_graph():
    mods = _modules()
    graph = {}
    for m, p in mods.items():
        deps = set()
        for node in ast.walk(ast.parse(p.read_text())):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                deps |= _targets(mods, m, node)
        graph[m] = deps
    return graph


def _cycles(graph):
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_circle():
    assert _cycles(import_graph()) == []


def test_backends_and_core_never_import_ext():
    graph = import_graph()
    bad = {m: sorted(d for d in deps if d == f"{PKG}.ext" or d.startswith(f"{PKG}.ext."))
           for m, deps in graph.items()
           if m.startswith((f"{PKG}.backends", f"{PKG}._core", f"{PKG}._api",
                            f"{PKG}._algorithms"))}
    assert {m: d for m, d in bad.items() if d} == {}


def test_the_detector_finds_a_circle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
