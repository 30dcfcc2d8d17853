"""Named bindings and parameter words of one kernel.

A ``Layout`` replaces positional bookkeeping (``P(5)``, "binding 2 when offsets are bound"):
each storage binding and each u32 parameter word has a name; the layout decides binding
numbers, where the words travel (immediates when the adapter has them and they fit, else a
slot of the recorder's uniform ring), renders the WGSL declarations and the accessor of
every word, packs the words of one launch by name and turns named storages into binding
triples.

Every storage binding ``x`` gets an implicit word ``x_off``: the element offset of the bound
view inside its binding window (views of one buffer then share bind groups), filled in by
``bind`` unless given explicitly. Fragments (epilogues, loaders) add their own ``Buf`` and
``Words`` entries instead of receiving offsets.
"""

from __future__ import annotations

import dataclasses
import struct
from typing import Any, Iterable, Sequence

from ...._core.errors import InvalidArgument
from .caps import Caps

__all__ = ["Buf", "Words", "Layout"]


@dataclasses.dataclass(frozen=True)
class Buf:
    """A storage binding: ``var<storage, read|read_write> name: array<elem>``."""

    name: str
    elem: str
    access: str = "read"  # "read" | "rw"
    offset: bool = True   # declare the implicit ``<name>_off`` word


@dataclasses.dataclass(frozen=True)
class Words:
    """``count`` u32 parameter words; ``count > 1`` is read with ``Layout.word(name, k)``."""

    name: str
    count: int = 1


class Layout:
    """Bindings, parameter words and their WGSL declarations for one kernel on one adapter."""

    __slots__ = ("bufs", "words", "caps", "_index", "nwords", "vec4s", "immediate",
                 "imm_size", "uniform_size", "kinds", "_buf_pos", "_off_pos", "_fmt")

    def __init__(self, bufs: Sequence[Buf], words: Iterable[Words | str] = (),
                 caps: Caps = Caps()) -> None:
        self.bufs = tuple(bufs)
        ws = [Words(w) if isinstance(w, str) else w for w in words]
        ws += [Words(b.name + "_off") for b in self.bufs if b.offset]
        self.words = tuple(ws)
        self.caps = caps
        names = [b.name for b in self.bufs] + [w.name for w in self.words]
        if len(set(names)) != len(names):
            raise ValueError(f"layout names repeat: {names}")
        self._index, pos = {}, 0
        for w in self.words:
            if w.count < 1:
                raise ValueError(f"word array '{w.name}' needs count >= 1")
            self._index[w.name] = (pos, w.count)
            pos += w.count
        self.nwords = pos
        self.vec4s = max(1, -(-pos // 4))
        nbytes = self.vec4s * 16
        self.immediate = 0 < nbytes <= caps.max_immediate
        self.imm_size = nbytes if self.immediate else 0
        self.uniform_size = 0 if self.immediate else nbytes
        self.kinds = tuple(b.access for b in self.bufs) + (() if self.immediate else ("uniform",))
        self._buf_pos = {b.name: i for i, b in enumerate(self.bufs)}
        self._off_pos = {b.name: self._index[b.name + "_off"][0]
                         for b in self.bufs if b.offset}
        self._fmt = struct.Struct(f"<{self.vec4s * 4}I")

    # ---- WGSL side ------------------------------------------------------------------
    def decl(self) -> str:
        """Declarations of every binding and of the parameter block ``P``."""
        lines = []
        for i, b in enumerate(self.bufs):
            acc = "read" if b.access == "read" else "read_write"
            lines.append(f"@group(0) @binding({i}) var<storage, {acc}> {b.name}: "
                         f"array<{b.elem}>;")
        if self.immediate:
            lines.append(f"var<immediate> P: array<vec4<u32>, {self.vec4s}>;")
        else:
            lines.append(f"@group(0) @binding({len(self.bufs)}) var<uniform> P: "
                         f"array<vec4<u32>, {self.vec4s}>;")
        return "\n".join(lines)

    def word(self, name: str, k: int = 0) -> str:
        """WGSL expression of word ``k`` of ``name`` (a u32)."""
        try:
            pos, count = self._index[name]
        except KeyError:
            raise KeyError(f"layout has no word '{name}'; words: "
                           f"{[w.name for w in self.words]}") from None
        if not 0 <= k < count:
            raise IndexError(f"word '{name}' has {count} entries, asked for {k}")
        i = pos + k
        return f"P[{i // 4}].{'xyzw'[i % 4]}"

    def tokens(self) -> dict[str, str]:
        """Template tokens: ``layout`` (the declarations) and one per single word."""
        t = {"layout": self.decl()}
        for w in self.words:
            if w.count == 1:
                t[w.name] = self.word(w.name)
        return t

    # ---- host side ------------------------------------------------------------------
    def pack(self, **values: Any) -> bytes:
        """Parameter bytes: ints (taken modulo 2^32) or int sequences for word arrays;
        words not given are 0."""
        out = [0] * (self.vec4s * 4)
        for name, v in values.items():
            try:
                pos, count = self._index[name]
            except KeyError:
                raise KeyError(f"layout has no word '{name}'") from None
            if count == 1 and not isinstance(v, (list, tuple)):
                out[pos] = int(v) & 0xFFFFFFFF
                continue
            v = list(v)
            if len(v) > count:
                raise ValueError(f"word array '{name}' holds {count} words, got {len(v)}")
            for k, x in enumerate(v):
                out[pos + k] = int(x) & 0xFFFFFFFF
        return self._fmt.pack(*out)

    def pack_list(self, words: Sequence[int]) -> bytes:
        """Parameter bytes from every word in declaration order (declared words, then the
        ``<buf>_off`` words): the hot path of kernels that resolve names once, at build."""
        n = len(words)
        if n > self.nwords:
            raise ValueError(f"{n} words for a layout of {self.nwords}")
        return self._fmt.pack(*[w & 0xFFFFFFFF for w in words],
                              *([0] * (self.vec4s * 4 - n)))

    def bind(self, storages: dict[str, Any], words: dict[str, Any]):
        """Binding triples in binding order for ``storages`` (name -> WgpuStorage, or a raw
        ``(block, byte offset, byte size)``), and the ``<name>_off`` words they imply
        (added to ``words`` unless already there)."""
        if len(storages) != len(self.bufs) or set(storages) != set(self._buf_pos):
            raise InvalidArgument("bindings", f"kernel binds {sorted(self._buf_pos)}, got "
                                  f"{sorted(storages)}")
        triples = [None] * len(self.bufs)
        for name, s in storages.items():
            if isinstance(s, tuple):
                triples[self._buf_pos[name]] = s
                continue
            block, off, size, eoff = s.binding()
            triples[self._buf_pos[name]] = (block, off, size)
            key = name + "_off"
            if name in self._off_pos and key not in words:
                words[key] = eoff
        return triples

    def f32_bits(self, x: float) -> int:
        """The u32 word holding ``x`` as an f32 (read back with ``bitcast<f32>``)."""
        return struct.unpack("<I", struct.pack("<f", x))[0]
