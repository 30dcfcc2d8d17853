"""Workgroup memory of a WGSL module, measured from its source.

Why: an entry point whose ``var<workgroup>`` storage exceeds the adapter's
``max-compute-workgroup-storage-size`` is not always refused by wgpu: on NVIDIA (48 KiB) a
64 KiB fft kernel compiled, and its dispatch never completed (device lost). The pipeline
cache measures every new source here and refuses it with a clear error instead.

Sizes follow WGSL's memory layout rules (SizeOf / AlignOf), each variable counted as
WebGPU's limit does: roundUp(16, SizeOf(T)). Only variables an entry point can reach are
counted: those named in its own body or in any helper function (a superset of static use).
"""

from __future__ import annotations

import re

__all__ = ["workgroup_bytes", "type_size"]

_SCALARS = {"f16": 2, "f32": 4, "i32": 4, "u32": 4, "bool": 4, "f64": 8, "i64": 8, "u64": 8}
_VAR = re.compile(r"var<workgroup>\s+(\w+)\s*:\s*([^;]+);")
_ALIAS = re.compile(r"\balias\s+(\w+)\s*=\s*([^;]+);")
_STRUCT = re.compile(r"\bstruct\s+(\w+)\s*\{([^}]*)\}")
_CONST = re.compile(r"\b(?:const|override)\s+(\w+)\s*(?::\s*\w+\s*)?=\s*([0-9]+)[uil]?\s*;")
_FN = re.compile(r"(@compute[^f]*)?\bfn\s+(\w+)\s*\(")


def _split_args(s: str) -> list[str]:
    """Top-level comma-separated parts of a template argument list."""
    parts, depth, cur = [], 0, []
    for ch in s:
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return [p.strip() for p in parts if p.strip()]


class _Types:
    def __init__(self, source: str, overrides: dict | None):
        self.aliases = {m[1]: m[2].strip() for m in _ALIAS.finditer(source)}
        self.structs = {m[1]: m[2] for m in _STRUCT.finditer(source)}
        self.consts = {m[1]: int(m[2]) for m in _CONST.finditer(source)}
        for k, v in (overrides or {}).items():
            self.consts[k] = int(v)

    def count(self, expr: str) -> int:
        expr = expr.strip()
        m = re.fullmatch(r"([0-9]+)[ui]?", expr)
        if m:
            return int(m[1])
        if expr in self.consts:
            return self.consts[expr]
        raise ValueError(f"array count {expr!r}")

    def size_align(self, t: str) -> tuple[int, int]:
        t = t.strip()
        if t in self.aliases:
            return self.size_align(self.aliases[t])
        if t in _SCALARS:
            s = _SCALARS[t]
            return s, s
        if t in self.structs:
            off, align = 0, 1
            for member in self.structs[t].split(","):
                if ":" not in member:
                    continue
                ms, ma = self.size_align(member.split(":", 1)[1])
                off = -(-off // ma) * ma + ms
                align = max(align, ma)
            return -(-off // align) * align, align
        m = re.fullmatch(r"(\w+)\s*<(.*)>", t, re.S)
        if not m:
            raise ValueError(f"type {t!r}")
        head, args = m[1], _split_args(m[2])
        if head == "atomic":
            return self.size_align(args[0])
        if head in ("vec2", "vec3", "vec4"):
            s, _ = self.size_align(args[0])
            k = int(head[3])
            return s * k, s * (4 if k == 3 else k)
        if head.startswith("mat") and len(head) == 6:
            cols, rows = int(head[3]), int(head[5])
            cs, ca = self.size_align(f"vec{rows}<{args[0]}>")
            return cols * (-(-cs // ca) * ca), ca
        if head == "array":
            es, ea = self.size_align(args[0])
            stride = -(-es // ea) * ea
            return stride * self.count(args[1]), ea
        raise ValueError(f"type {t!r}")


def type_size(t: str, source: str = "", overrides: dict | None = None) -> int:
    """SizeOf of the WGSL type ``t`` (aliases, structs and constants looked up in
    ``source``)."""
    return _Types(source, overrides).size_align(t)[0]


def _bodies(source: str) -> tuple[dict[str, str], str]:
    """Entry point name -> its text, and the text of every other function."""
    marks = list(_FN.finditer(source))
    entries, helpers = {}, []
    for i, m in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(source)
        text = source[m.end():end]
        if m[1] is not None:
            entries[m[2]] = text
        else:
            helpers.append(text)
    return entries, "\n".join(helpers)


def workgroup_bytes(source: str, entry: str | None = None,
                    overrides: dict | None = None) -> int | None:
    """Workgroup storage the entry point ``entry`` (every variable when None) may use, in
    bytes as WebGPU's limit counts them; None when a declaration cannot be sized here
    (an expression this reader does not evaluate: the check is then skipped)."""
    decls = _VAR.findall(source)
    if not decls:
        return 0
    types = _Types(source, overrides)
    reach = None
    if entry is not None:
        entries, helpers = _bodies(source)
        if entry in entries:
            reach = entries[entry] + helpers
    total = 0
    for name, t in decls:
        if reach is not None and not re.search(rf"\b{name}\b", reach):
            continue
        try:
            size = types.size_align(t)[0]
        except (ValueError, IndexError, KeyError):
            return None
        total += -(-size // 16) * 16
    return total


def spec_fits(spec, caps) -> bool:
    """Whether every entry point of the KernelSpec ``spec`` rendered for ``caps`` fits the
    adapter's workgroup memory (planners pick a smaller variant when not)."""
    src = spec.render(caps)
    for e in spec.entries:
        used = workgroup_bytes(src, e)
        if used is not None and used > caps.workgroup_storage:
            return False
    return True
