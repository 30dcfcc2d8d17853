"""Per-adapter tuning tables: the values that differ from the portable defaults on one
kind of adapter, measured by the tune command (``python -m numr_array_api.tuning``).

Two sources, the second winning: tables shipped with the library (``tables/*.json``,
measured on the adapter they name, with the date, commit and command of the measurement)
and the table the tune command wrote on this machine (``<cache>/tuning-<adapter>.json``,
or the file ``NUMR_TUNING_TABLE`` names; ``off`` ignores both files and the shipped ones).

A table:

    {"adapter": {"name": ..., "vendor": ..., "backend": ..., "type": ...},
     "match":   {"name": "H200", "backend": "vulkan"},   # shipped tables: substrings
     "measured": {"date": ..., "commit": ..., "command": ..., "numr": ...},
     "values":  {"KNOB": value, ...},
     "gemm":    {"dtype:bucket": "config name", ...}}
"""

from __future__ import annotations

import importlib.resources
import json
import os
import threading
from typing import Any

from .._core import environment

__all__ = ["describe", "table_path", "values_for", "gemm_for", "shipped", "load", "write",
           "reload"]

_lock = threading.Lock()


def describe(client) -> dict[str, str]:
    """The adapter fields a table is keyed and matched on."""
    info = getattr(client, "info", None) or {}
    return {k: str(info.get(k, "")) for k in ("name", "vendor", "backend", "type")}


def slug(desc: dict[str, str]) -> str:
    text = f"{desc.get('name', '')} {desc.get('backend', '')}".lower()
    return "-".join("".join(c if c.isalnum() else " " for c in text).split()) or "default"


def table_path(desc: dict[str, str]) -> str:
    """The file the tune command writes for this adapter (NUMR_TUNING_TABLE when set)."""
    env = environment.get("NUMR_TUNING_TABLE")
    if env:
        return "" if env.lower() == "off" else env
    return os.path.join(environment.cache_dir(), f"tuning-{slug(desc)}.json")


def load(path: str) -> dict[str, Any]:
    try:
        with open(path) as f:
            raw = json.load(f)
    except (OSError, ValueError):
        return {}
    return raw if isinstance(raw, dict) else {}


_shipped: tuple[dict[str, Any], ...] | None = None


def shipped() -> tuple[dict[str, Any], ...]:
    """The tables shipped with the library (package data: read once)."""
    global _shipped
    if _shipped is not None:
        return _shipped
    out = []
    folder = importlib.resources.files(__package__) / "tables"
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".json"):
            raw = json.loads(entry.read_text())
            raw["file"] = entry.name
            out.append(raw)
    _shipped = tuple(out)
    return _shipped


def _matches(match: dict[str, str], desc: dict[str, str]) -> bool:
    return all(v.lower() in desc.get(k, "").lower() for k, v in match.items())


def _sources(desc: dict[str, str]) -> list[dict[str, Any]]:
    if environment.get("NUMR_TUNING_TABLE").lower() == "off":
        return []
    found = [t for t in shipped() if _matches(t.get("match", {}), desc)]
    found.sort(key=lambda t: len(t.get("match", {})))   # the most specific wins
    path = table_path(desc)
    if path:
        user = load(path)
        if user:
            found.append(user)
    return found


_cache: dict[tuple, tuple[dict, dict]] = {}


def _merged(desc: dict[str, str]) -> tuple[dict, dict]:
    key = tuple(sorted(desc.items()))
    got = _cache.get(key)
    if got is None:
        vals, gemm = {}, {}
        for t in _sources(desc):
            vals.update(t.get("values") or {})
            gemm.update({k: v for k, v in (t.get("gemm") or {}).items() if isinstance(v, str)})
        with _lock:
            got = _cache[key] = (vals, gemm)
    return got


def values_for(client) -> dict[str, Any]:
    """The table values of ``client``'s adapter (shipped, then tuned), as written: the
    registry types and checks them."""
    return _merged(describe(client))[0]


def gemm_for(client) -> dict[str, str]:
    """The GEMM tile choices ("dtype:bucket" -> configuration name) of the adapter."""
    return _merged(describe(client))[1]


_on_reload: list = []   # the registry's hook: its resolved values depend on the tables


def reload() -> None:
    """Forget the tables read so far (after the tune command wrote one)."""
    with _lock:
        _cache.clear()
    for fn in _on_reload:
        fn()


def write(desc: dict[str, str], values: dict[str, Any] | None = None,
          gemm: dict[str, str] | None = None, measured: dict[str, Any] | None = None,
          path: str | None = None) -> str:
    """Merge ``values`` / ``gemm`` into the adapter's tuned table file; returns its path."""
    path = path or table_path(desc)
    if not path:
        return ""
    old = load(path)
    table = {"adapter": desc, "measured": measured or old.get("measured", {}),
             "values": {**old.get("values", {}), **(values or {})},
             "gemm": {**old.get("gemm", {}), **(gemm or {})}}
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "w") as f:
        json.dump(table, f, indent=1, sort_keys=True)
    os.replace(tmp, path)
    reload()
    return path
