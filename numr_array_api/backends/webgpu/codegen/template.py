"""The one template mechanism of the WebGPU kernels.

WGSL text with ``${name}`` tokens (WGSL itself never uses ``$``). ``render`` fails on a token
it is not given and on a value for a token the text lacks, so a misspelled name is an error
at render time, never text silently left in a shader. Large fixed kernels live in ``.wgsl``
files next to their family (``Template.file``) and take sizes as ``override`` constants or
tokens; generated fragments (index arithmetic, per-dtype loads) are rendered by Python
functions and passed in as token values.
"""

from __future__ import annotations

import functools
import importlib.resources
import re
from typing import Any, Mapping

__all__ = ["Template", "TemplateError"]

_TOKEN = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
_STRAY = re.compile(r"\$(?!\{[A-Za-z_][A-Za-z0-9_]*\})")


class TemplateError(ValueError):
    """A template was rendered with a missing or unknown token (a bug in numr, not input)."""


class Template:
    """Immutable WGSL text with ``${name}`` tokens."""

    __slots__ = ("text", "name", "tokens")

    def __init__(self, text: str, name: str = "<template>") -> None:
        stray = _STRAY.search(text)
        if stray:
            line = text.count("\n", 0, stray.start()) + 1
            raise TemplateError(f"{name}:{line}: '$' outside a ${{name}} token")
        self.text = text
        self.name = name
        self.tokens = frozenset(_TOKEN.findall(text))

    def render(self, *provided: Mapping[str, Any], **values: Any) -> str:
        """The text with every token replaced. ``values`` must match the tokens exactly
        (a value for a token the text lacks is an error); ``provided`` mappings (e.g.
        ``layout.tokens()``) offer tokens the text may or may not use."""
        unknown = set(values).difference(self.tokens)
        if provided:
            merged: dict[str, Any] = {}
            for m in provided:
                merged.update(m)
            merged.update(values)
            values = merged
        missing = self.tokens.difference(values)
        if missing or unknown:
            parts = []
            if missing:
                parts.append(f"missing {sorted(missing)}")
            if unknown:
                parts.append(f"unknown {sorted(unknown)}")
            raise TemplateError(f"{self.name}: {', '.join(parts)}")
        return _TOKEN.sub(lambda m: str(values[m.group(1)]), self.text)  # type: ignore[index]

    @staticmethod
    @functools.lru_cache(maxsize=None)
    def file(package: str, filename: str) -> "Template":
        """The template in ``filename`` beside the modules of ``package`` (cached)."""
        text = importlib.resources.files(package).joinpath(filename).read_text()
        return Template(text, f"{package}/{filename}")

    def __repr__(self) -> str:
        return f"Template({self.name!r}, tokens={sorted(self.tokens)})"
