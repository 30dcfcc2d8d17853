"""Every package of the WebGPU backend says in its docstring what it holds: each module and
each .wgsl kernel file is named there, so a reader finds a routine, its kernels and its
tuning from the package's first lines."""

import importlib
import pathlib

import pytest

import numr_array_api.backends.webgpu as wpkg

ROOT = pathlib.Path(wpkg.__file__).parent
PACKAGES = sorted(p.parent for p in ROOT.rglob("__init__.py"))


@pytest.mark.parametrize("folder", PACKAGES, ids=lambda p: str(p.relative_to(ROOT.parent)))
def test_the_package_docstring_names_every_module(folder):
    name = ".".join(("numr_array_api", "backends") + folder.relative_to(ROOT.parent).parts)
    doc = importlib.import_module(name).__doc__ or ""
    # a folder of kernel files only (ops/linalg/wgsl/) names its loaders, not each kernel
    kernels_folder = folder.name == "wgsl" and folder.parent.name != "webgpu"
    held = [p for p in folder.iterdir()
            if (p.suffix == ".py" and p.name != "__init__.py")
            or (p.suffix == ".wgsl" and not kernels_folder)
            or (p.is_dir() and (p / "__init__.py").exists())]
    missing = sorted(p.name for p in held if p.stem not in doc)
    assert not missing, f"{name}'s docstring does not name {missing}"
