"""GEMM tile configurations and the choice per (dtype, shape bucket, adapter).

A workgroup of WG_X x WG_Y threads computes a (WG_Y * tm) x (WG_X * tn) tile of C, each
thread a tm x tn register block; K advances ``bk`` at a time through workgroup tiles
(``vec``: float32 shared tiles as vec4 rows, so each thread reads its block in tm/4 + tn/4
vector loads per k). The built-in choice below is what was measured; the adapter's tuning
table (numr_array_api.tuning.tables, its "gemm" section: shipped, or written by tune.py)
maps "dtype:bucket" to a config name and replaces it for those buckets.
"""

from __future__ import annotations

import dataclasses

from .....tuning import tables as _tables
from .....tuning import registry as _registry
from .....tuning.registry import epoch as _tuning_epoch

__all__ = ["TileConfig", "CONFIGS", "choose", "bucket", "table_for"]

WG_X = WG_Y = 16


@dataclasses.dataclass(frozen=True)
class TileConfig:
    tm: int
    tn: int
    bk: int
    vec: bool
    db: bool = False   # the double-buffered kernel (spec.py ``_render_db``): f32 / f64 only

    @property
    def bm(self) -> int:
        return WG_Y * self.tm

    @property
    def bn(self) -> int:
        return WG_X * self.tn

    @property
    def name(self) -> str:
        if self.db:
            return f"db{self.tm}x{self.tn}k{self.bk}"
        return f"{self.tm}x{self.tn}k{self.bk}{'v' if self.vec else ''}"

    def shared_bytes(self, itemsize: int) -> int:
        """Workgroup memory of the double-buffered kernel: two A tiles (bk x bm, one vec4 of
        padding per row for f32) and two B tiles (bk x bn)."""
        pad = 4 if itemsize == 4 else 0
        return 2 * self.bk * (self.bm + pad + self.bn) * itemsize

    def plain_bytes(self, itemsize: int) -> int:
        """Workgroup memory of the single-buffered scalar kernel: bk rows of A and of B,
        each padded by one element (spec.py)."""
        return self.bk * (self.bm + 1 + self.bn + 1) * itemsize


CONFIGS = {c.name: c for c in (
    TileConfig(8, 8, 8, True),     # 128 x 128 tiles: 64 FMAs per 4 vec4 shared loads
    TileConfig(8, 8, 16, True),
    TileConfig(4, 4, 16, True),    # 64 x 64: small or skinny outputs
    TileConfig(4, 8, 16, True),
    TileConfig(4, 4, 16, False),   # non-f32 accumulators
    TileConfig(4, 4, 8, False),    # 16-byte accumulators: two tiles in 32 KiB
    TileConfig(4, 4, 4, False),    # 16-byte accumulators within WebGPU's 16 KiB minimum
    # double-buffered, interleaved register blocks, vec4 global loads where aligned
    # (f32 and f64 operands; see spec.py)
    TileConfig(8, 8, 8, True, True),
    TileConfig(8, 8, 16, True, True),
    TileConfig(8, 16, 8, True, True),   # 128 x 256 tiles
    TileConfig(16, 8, 8, True, True),   # 256 x 128 tiles
    TileConfig(8, 4, 8, True, True),    # 128 x 64 tiles
    TileConfig(4, 8, 8, True, True),
    TileConfig(4, 8, 16, True, True),
    TileConfig(4, 4, 16, True, True),
    TileConfig(4, 4, 8, True, True),
)}

DB_TYPES = ("f32", "f64")  # accumulator types the double-buffered kernel renders
DB_NAMES = ("float32", "float64", "float16")  # operand dtypes (float16: f32 compute)


def db_fits(cfg: TileConfig, val: str, workgroup_storage: int) -> bool:
    """Whether the double-buffered ``cfg`` renders for accumulator ``val`` within the
    adapter's workgroup memory (each thread loads whole vec4 chunks of A and B)."""
    if not cfg.db or val not in DB_TYPES:
        return False
    if cfg.bm * cfg.bk % 4 or cfg.bn * cfg.bk % 4 or cfg.bk % 4:
        return False
    return cfg.shared_bytes(8 if val == "f64" else 4) <= workgroup_storage


def bucket(M: int, N: int, K: int) -> str:
    """Coarse shape class: output size and depth, powers of four."""
    def lg(x):
        return max(0, (max(x, 1).bit_length() - 1) // 2)
    return f"m{lg(M)}n{lg(N)}k{lg(K)}"


def table_for(client) -> dict:
    """The tuned choices of ``client``'s adapter, "dtype:bucket" -> TileConfig (cached on
    the client until a knob or a table changes)."""
    got = client.__dict__.get("_numr_gemm_table")
    e = _tuning_epoch()
    if got is None or got[0] != e:
        entries = _tables.gemm_for(client)
        got = client._numr_gemm_table = (e, {k: CONFIGS[v] for k, v in entries.items()
                                             if v in CONFIGS})
    return got[1]


_FORCED: dict = {}


def force(name: str, cfg_name):
    """Benchmarks and tests: pin dtype ``name``'s configuration to ``cfg_name`` (None:
    unpin). Changes the tuning epoch, which GEMM launch plans key on."""
    if cfg_name is None:
        _FORCED.pop(name, None)
    else:
        _FORCED[name] = CONFIGS[cfg_name]
    _registry.changed()


def _allowed(cfg: TileConfig, val: str, name: str, wgs: int) -> bool:
    if cfg.db:
        return name in DB_NAMES and db_fits(cfg, val, wgs)
    return not cfg.vec or (val == "f32" and name == "float32")


def choose(val: str, name: str, M: int, N: int, K: int,
           workgroup_storage: int = 16384, table: dict | None = None) -> TileConfig:
    """The tile configuration for accumulator WGSL type ``val`` of dtype ``name`` on an
    adapter with ``workgroup_storage`` bytes of workgroup memory: pinned (force), else the
    adapter's tuned ``table`` (``table_for``), else the built-in choice."""
    vec_ok = val == "f32" and name == "float32"  # float16 computes in f32 but loads halves
    forced = _FORCED.get(name)
    if forced is not None and _allowed(forced, val, name, workgroup_storage):
        return forced
    tuned = table.get(f"{name}:{bucket(M, N, K)}") if table else None
    if tuned is not None and _allowed(tuned, val, name, workgroup_storage):
        return tuned
    if name in DB_NAMES:
        # measured on the H100 (2026-11-26, the GEMM configurations compared in one process): db8x8k8 (style
        # "u") 24.7 TFLOP/s at 4096^3 f32 against 20.7 for 8x8k8v, 10.2 against 5.0 TFLOP/s
        # at 2048^3 f64, 18.1 against 10.5 at 4096^3 f16; db4x4k16 0.17 ms against 0.22
        # for 1000 products of 64 x 64
        pick = CONFIGS["db8x8k8" if M >= 128 and N >= 128 else
                       "db4x4k8" if val == "f64" else "db4x4k16"]
        if _allowed(pick, val, name, workgroup_storage):
            return pick
    if vec_ok:
        if M >= 128 and N >= 128:
            return CONFIGS["8x8k8v"]
        return CONFIGS["4x4k16v"]
    # the scalar kernel: the deepest k step whose tiles fit (WebGPU guarantees only 16 KiB)
    item = _VAL_BYTES.get(val, 16)
    for cand in ("4x4k16", "4x4k8", "4x4k4"):
        if CONFIGS[cand].plain_bytes(item) <= workgroup_storage:
            return CONFIGS[cand]
    return CONFIGS["4x4k4"]


_VAL_BYTES = {"f32": 4, "i32": 4, "u32": 4, "f64": 8, "i64": 8, "u64": 8,
              "vec2<f32>": 8, "vec2<f64>": 16}
