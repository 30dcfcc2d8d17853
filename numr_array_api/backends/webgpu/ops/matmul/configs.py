"""GEMM tile configurations and the choice per (dtype, shape bucket, adapter).

A workgroup of WG_X x WG_Y threads computes a (WG_Y * tm) x (WG_X * tn) tile of C, each
thread a tm x tn register block; K advances ``bk`` at a time through workgroup tiles
(``vec``: float32 shared tiles as vec4 rows, so each thread reads its block in tm/4 + tn/4
vector loads per k). The built-in choice below is what wave 1 measured; a tuned table can
replace it: ``NUMR_WEBGPU_GEMM_TABLE=<file.json>`` (written by benchmarks' tuning run)
maps "dtype:bucket" to a config name.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os

__all__ = ["TileConfig", "CONFIGS", "choose", "bucket"]

WG_X = WG_Y = 16


@dataclasses.dataclass(frozen=True)
class TileConfig:
    tm: int
    tn: int
    bk: int
    vec: bool

    @property
    def bm(self) -> int:
        return WG_Y * self.tm

    @property
    def bn(self) -> int:
        return WG_X * self.tn

    @property
    def name(self) -> str:
        return f"{self.tm}x{self.tn}k{self.bk}{'v' if self.vec else ''}"


CONFIGS = {c.name: c for c in (
    TileConfig(8, 8, 8, True),     # 128 x 128 tiles: 64 FMAs per 4 vec4 shared loads
    TileConfig(8, 8, 16, True),
    TileConfig(4, 4, 16, True),    # 64 x 64: small or skinny outputs
    TileConfig(4, 8, 16, True),
    TileConfig(4, 4, 16, False),   # non-f32 accumulators
    TileConfig(4, 4, 8, False),    # 16-byte accumulators: two tiles in 32 KiB
)}


def bucket(M: int, N: int, K: int) -> str:
    """Coarse shape class: output size and depth, powers of four."""
    def lg(x):
        return max(0, (max(x, 1).bit_length() - 1) // 2)
    return f"m{lg(M)}n{lg(N)}k{lg(K)}"


@functools.lru_cache(maxsize=None)
def _table():
    path = os.environ.get("NUMR_WEBGPU_GEMM_TABLE", "").strip()
    if not path:
        return {}
    try:
        with open(path) as f:
            raw = json.load(f)
    except (OSError, ValueError):
        return {}
    return {k: CONFIGS[v] for k, v in raw.items() if v in CONFIGS}


def choose(val: str, name: str, M: int, N: int, K: int) -> TileConfig:
    """The tile configuration for accumulator WGSL type ``val`` of dtype ``name``."""
    vec_ok = val == "f32" and name == "float32"  # float16 computes in f32 but loads halves
    tuned = _table().get(f"{name}:{bucket(M, N, K)}")
    if tuned is not None and (not tuned.vec or vec_ok):
        return tuned
    if vec_ok:
        if M >= 128 and N >= 128:
            return CONFIGS["8x8k8v"]
        return CONFIGS["4x4k16v"]
    return CONFIGS["4x4k8" if val == "vec2<f64>" else "4x4k16"]
