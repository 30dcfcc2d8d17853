"""Sphinx configuration of numr-array-api's documentation.

Build (from the repository root; the ``docs`` extra installs Sphinx and MyST):

    python -m sphinx -W --keep-going -b html docs docs/_build/html

The Markdown pages (docs/*.md) are read through MyST; the theme is pydata-sphinx-theme. The API reference, the conformance
tables and the benchmark plots are generated at the start of every build into
docs/_generated/ (docs/_ext/numr_docs.py) from the installed package, the docstrings and
the files under conformance/results/ and benchmarks/; nothing there is edited by hand.
"""

import os
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE / "_ext"))
sys.path.insert(0, str(ROOT))  # document this checkout, not another install
# the docs build only imports the namespaces; no adapter is probed beyond what import does
os.environ.setdefault("NUMR_HOST_CONVERSION", "allow")

import numr_docs  # noqa: E402  (docs/_ext)

project = "numr-array-api"
author = "numr contributors"
copyright = "2026, numr contributors"
release = numr_docs.package_version()

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "numr_docs",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
# _generated/benchmarks.md is a part of benchmarks.md (included there), not a page
exclude_patterns = ["_build", "tools", "_ext", "Thumbs.db", ".DS_Store",
                    "_generated/benchmarks.md", "_generated/scipy-gpu.md"]

myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

autodoc_default_options = {"member-order": "bysource"}
autodoc_typehints = "signature"
autodoc_mock_imports = ["cupy"]
napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_use_rtype = False

html_theme = "pydata_sphinx_theme"
html_title = "numr-array-api"
html_static_path = []
html_theme_options = {
    # the sections of docs/index.md's toctree, in the top bar
    "header_links_before_dropdown": 6,
    "navbar_align": "left",
    "show_toc_level": 2,
    "navigation_with_keys": False,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version", "theme-version"],
}
html_sidebars = {"index": []}  # the landing page: no left sidebar
