"""Regenerate numr_array_api/_api/_docstrings/standard.py from the array API standard's stubs.

    python docs/tools/spec_docstrings.py /path/to/array-api/src/array_api_stubs/_draft

The standard's docstrings are long (every special case spelled out); numr's summarise
them: the opening paragraph, each parameter's first paragraph, the returned value's first
paragraph, and one line saying where the special cases are. Sphinx roles are turned into
plain literals so ``help()`` reads well too. The result is committed; numr's own notes
(backend caveats) live by hand in _docstrings/notes.py.
"""

import ast
import pathlib
import re
import sys
import textwrap

FILES = {  # stub module -> key prefix
    "creation_functions.py": "", "data_type_functions.py": "", "elementwise_functions.py": "",
    "indexing_functions.py": "", "linear_algebra_functions.py": "",
    "manipulation_functions.py": "", "searching_functions.py": "", "set_functions.py": "",
    "sorting_functions.py": "", "statistical_functions.py": "", "utility_functions.py": "",
    "linalg.py": "linalg.", "fft.py": "fft.", "info.py": "info.", "array_object.py": "Array.",
}
WIDTH = 88


def _roles(text):
    text = re.sub(r":(?:func|class|meth|attr|data):`~?(?:array_api\.)?([^`]+)`", r"``\1``", text)
    text = re.sub(r":ref:`([^`<]+?)\s*<[^`]+>`", r"\1", text)
    text = re.sub(r":ref:`([^`]+)`", lambda m: m.group(1).replace("-", " "), text)
    text = re.sub(r":math:`([^`]+)`", r"``\1``", text)
    text = text.replace("**", "")
    return re.sub(r"(?<![`:\w])`([^`]+)`(?![`_])", r"``\1``", text)


def _paragraphs(lines):
    paras, cur = [], []
    for line in lines:
        if line.strip():
            cur.append(line)
        elif cur:
            paras.append(cur)
            cur = []
    if cur:
        paras.append(cur)
    return paras


def _fill(para, indent, lists=False):
    lines = [ln.strip() for ln in para]
    if lines[0].startswith(".."):
        return None  # directives (notes, version marks): not carried over
    if lines[0].startswith(("-", "*")):
        if not lists:
            return None
        items = []
        for ln in lines:  # one item per bullet; continuation lines join the item
            if ln.startswith(("-", "*")):
                items.append(ln.lstrip("-* ").strip())
            else:
                items[-1] += " " + ln
        return "\n".join(textwrap.fill(_roles(it), WIDTH, initial_indent=indent + "- ",
                                       subsequent_indent=indent + "  ",
                                       break_long_words=False, break_on_hyphens=False)
                         for it in items)
    text = _roles(" ".join(lines))
    return textwrap.fill(text, WIDTH, initial_indent=indent, subsequent_indent=indent,
                         break_long_words=False, break_on_hyphens=False)


def _lead(paras):
    """The first paragraph, and the lists it introduces when it ends with a colon."""
    taken = paras[:1]
    while taken and not taken[-1][-1].rstrip().endswith(".") and len(taken) < len(paras):
        taken.append(paras[len(taken)])
    return taken


def _sections(doc):
    """{'summary': [...lines], 'Parameters': [...], 'Returns': [...], 'Notes': [...]}"""
    lines = textwrap.dedent(doc).strip("\n").splitlines()
    out, name, i = {"summary": []}, "summary", 0
    while i < len(lines):
        if i + 1 < len(lines) and set(lines[i + 1].strip()) == {"-"} and lines[i].strip():
            name = lines[i].strip()
            out[name] = []
            i += 2
            continue
        out[name].append(lines[i])
        i += 1
    return out


def _entries(lines):
    """[(name, type, first paragraph lines)] of a Parameters / Returns section."""
    entries = []
    skipping = False
    for line in lines:
        if line.startswith(".."):
            skipping = True  # a directive block between entries
            continue
        if line and not line[0].isspace():
            skipping = False
            head = line.strip()
            nm, _, typ = head.partition(":")
            entries.append([nm.strip(), typ.strip(), []])
        elif entries and not skipping:
            entries[-1][2].append(line)
    return [(n, t, _lead(_paragraphs(body))) for n, t, body in entries]


def render(doc):
    sec = _sections(doc)
    parts = []
    summary = []
    for para in _paragraphs(sec["summary"]):
        if para[0].strip().startswith(".."):
            continue
        f = _fill(para, "")
        if f:
            summary.append(f)
    parts.append("\n\n".join(summary[:1]))
    for title in ("Parameters", "Returns"):
        if title not in sec:
            continue
        body = [title, "-" * len(title)]
        entries = [e for e in _entries(sec[title]) if e[0] != "self"]
        if not entries:
            continue
        for nm, typ, para in entries:
            body.append(f"{nm} : {typ}" if typ else nm)
            literal = False
            for i, p in enumerate(para):
                if literal:  # the block after '::' stays as written
                    body.append("\n" + "\n".join("        " + ln.strip() for ln in p))
                    literal = False
                    continue
                if [ln.strip() for ln in p] == ["::"]:
                    body.append("\n    ::")
                    literal = True
                    continue
                f = _fill(p, "    ", lists=True)
                if f:
                    body.append(("\n" if i else "") + f)
        parts.append("\n".join(body))
    notes = "\n".join(sec.get("Notes", []))
    if "special case" in notes.lower():
        parts.append("Notes\n-----\n" + textwrap.fill(
            "Special cases (NaN, infinities, signed zeros) are those the standard lists for "
            "this function.", WIDTH))
    return "\n\n".join(p for p in parts if p)


CATEGORY_NAMES = {
    "creation_functions.py": "Creation functions",
    "data_type_functions.py": "Data type functions",
    "elementwise_functions.py": "Elementwise functions",
    "indexing_functions.py": "Indexing functions",
    "linear_algebra_functions.py": "Linear algebra functions",
    "manipulation_functions.py": "Manipulation functions",
    "searching_functions.py": "Searching functions", "set_functions.py": "Set functions",
    "sorting_functions.py": "Sorting functions",
    "statistical_functions.py": "Statistical functions",
    "utility_functions.py": "Utility functions", "info.py": "Inspection",
}


def categories(stubs):
    """{function name: the standard's category} for the main namespace's functions."""
    out = {}
    for fname, title in CATEGORY_NAMES.items():
        tree = ast.parse((stubs / fname).read_text())
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("_") or (
                    isinstance(node, ast.FunctionDef) and node.name == "__array_namespace_info__"):
                out.setdefault(node.name, title)
    return out


def collect(stubs):
    docs = {}
    for fname, prefix in FILES.items():
        tree = ast.parse((stubs / fname).read_text())
        nodes = tree.body
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                nodes = nodes + (node.body if fname in ("array_object.py", "info.py") else [])
        for node in nodes:
            if isinstance(node, ast.FunctionDef) and not node.name == "__init__":
                doc = ast.get_docstring(node, clean=False)
                if doc:
                    key = prefix + node.name
                    if fname == "info.py" and node.name == "__array_namespace_info__":
                        key = "__array_namespace_info__"
                    docs.setdefault(key, render(doc))
    return docs


def main(stubs):
    stubs = pathlib.Path(stubs)
    docs = collect(stubs)
    out = pathlib.Path(__file__).resolve().parents[2] / "numr_array_api/_api/_docstrings/standard.py"
    body = ['"""The array API standard\'s (2025.12) description of each function, summarised.',
            "",
            "Generated by docs/tools/spec_docstrings.py from the standard's stubs",
            "(data-apis/array-api, MIT licence); do not edit by hand: numr's own notes are in",
            'notes.py."""', "", "DOCS = {"]
    for key in sorted(docs):
        body.append(f"    {key!r}: {_literal(docs[key])},")
    body.append("}")
    body += ["", "# the standard's category of each main-namespace function (its stub module)",
             "CATEGORIES = {"]
    for name, title in sorted(categories(stubs).items()):
        body.append(f"    {name!r}: {title!r},")
    body.append("}")
    out.write_text("\n".join(body) + "\n")
    print(f"{len(docs)} docstrings -> {out}")


def _literal(text):
    assert '"""' not in text and not text.endswith("\\")
    return '"""\\\n' + text.replace("\\", "\\\\") + '\n"""'


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else
         "/work/array-api-tests/array-api/src/array_api_stubs/_draft")
