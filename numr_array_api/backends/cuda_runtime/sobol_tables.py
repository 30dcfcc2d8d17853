"""Per-byte XOR tables of the CUDA Sobol kernel, built with NumPy, and a NumPy emulation of
the kernel (same integer operations, same thread mapping) that the CPU tests compare with
the cpu Sobol bit for bit.

Table: uint32 ``[4 * 256, d]``, row ``256 * q + byte`` holds, per dimension j, the XOR of
``v[8 * q + i, j]`` over the set bits i of ``byte`` (rows ``b >= bits`` of v count as 0),
and row ``byte`` of the first quarter (q = 0) also holds the digital shift. The kernel's
point k is then ``T[g & 255] ^ T[256 + (g >> 8 & 255)] ^ T[512 + (g >> 16 & 255)] ^
T[768 + (g >> 24)]`` with ``g = (uint32)(k ^ (k >> 1))``: 4 independent loads per element.
Only the low 32 bits of the Gray code matter since v has at most 32 rows (``skip + n <=
2**bits <= 2**32`` even makes g < 2**32); exactly one q = 0 row enters each point, so the
folded shift is XORed exactly once.

For ``d >= run_min_d`` a thread computes a run of ``rpt`` consecutive rows of one column:
the rows of blocks 1..3 depend only on ``g >> 8``, which consecutive rows share except
when a multiple of 256 is crossed, so their XOR is loaded once per run (and again at such
a crossing) and each row costs one block-0 load. Every point is still exactly the 4-row
XOR above (block 0, with the shift, looked up for each row).
"""

from typing import NamedTuple

import numpy as np

__all__ = ["Config", "config", "SMEM_MAX_BYTES", "TABLE_ROWS", "build_table", "table_bytes",
           "uses_shared_memory", "uses_runs", "work_units", "emulate_kernel"]


class Config(NamedTuple):
    """The kernel's shape (the cuda family's SOBOL_* knobs; the module is compiled for it).
    ``block``: threads per block; ``ept``: elements per thread per tile (thread t of a tile
    does t + e * block); ``rpt``: rows per thread run (d >= run_min_d); ``run_min_d``: the
    least d that takes runs."""
    block: int
    ept: int
    rpt: int
    run_min_d: int


def config():
    """The kernel shape the SOBOL_* knobs set now."""
    from ...tuning.registry import get as tuned
    return Config(tuned("SOBOL_BLOCK"), tuned("SOBOL_EPT"), tuned("SOBOL_RPT"),
                  tuned("SOBOL_RUN_MIN_D"))


TABLE_ROWS = 4 * 256
SMEM_MAX_BYTES = 48 * 1024  # staged in shared memory up to here (d <= 12), else __ldg


def table_bytes(d):
    return TABLE_ROWS * int(d) * 4


def uses_shared_memory(d):
    return table_bytes(d) <= SMEM_MAX_BYTES


def uses_runs(d, cfg=None):
    return int(d) >= (cfg or config()).run_min_d


def work_units(n, d, cfg=None):
    """(units of work, units per block per grid-stride step) of the kernel for ``[n, d]``:
    runs of rpt rows and block of them, or elements and block * ept of them."""
    cfg = cfg or config()
    if uses_runs(d, cfg):
        return -(-int(n) // cfg.rpt) * int(d), cfg.block
    return int(n) * int(d), cfg.block * cfg.ept


def build_table(v, shift=None):
    """uint32 ``[1024, d]`` C-contiguous table of direction numbers ``v`` (uint32 ``[bits,
    d]``, bits <= 32) with ``shift`` (uint32 ``[d]`` or None) folded into rows 0..255.
    Built by doubling: ``T[q][h + b] = T[q][b] ^ v[8q + i]`` for ``h = 2**i``, ``b < h``."""
    v = np.asarray(v, dtype=np.uint32)
    bits, d = v.shape
    if bits > 32:
        raise ValueError(f"at most 32 direction-number rows, got {bits}")
    vv = np.zeros((32, d), dtype=np.uint32)
    vv[:bits] = v
    t = np.zeros((4, 256, d), dtype=np.uint32)
    for q in range(4):
        for i in range(8):
            h = 1 << i
            np.bitwise_xor(t[q, :h], vv[8 * q + i], out=t[q, h:2 * h])
    if shift is not None:
        t[0] ^= np.asarray(shift, dtype=np.uint32)[None, :]
    return t.reshape(TABLE_ROWS, d)


def _scale(x, bits, dtype):
    """The kernel's float conversion of the uint32 points ``x``."""
    if np.dtype(dtype) == np.float32:
        rshift = max(bits - 24, 0)
        mult = np.float32(2.0 ** -min(bits, 24))
        return (x >> np.uint32(rshift)).astype(np.float32) * mult  # exact: < 2**24
    return x.astype(np.float64) * np.float64(2.0 ** -bits)


def emulate_kernel(table, n, skip, *, bits, dtype, grid=None, cfg=None):
    """``[n, d]`` array exactly as the CUDA kernel writes it: the same tile / grid-stride
    mapping of threads to elements and the same incremental (k, j) bookkeeping (no division
    in the loop), the same Gray code and lookups, vectorised over all threads. ``grid``:
    blocks launched (default: as many as tiles, capped at 64 to exercise the stride)."""
    cfg = cfg or config()
    block, ept = cfg.block, cfg.ept
    d = table.shape[1]
    total = n * d
    out = np.full(total, np.nan, dtype=dtype)
    written = np.zeros(total, dtype=np.int64)
    if total == 0:
        return out.reshape(n, d)
    if uses_runs(d, cfg):
        return _emulate_runs(table, n, skip, bits=bits, dtype=dtype, grid=grid, cfg=cfg)
    tile = block * ept
    if grid is None:
        grid = max(1, min(-(-total // tile), 64))
    stride = grid * tile
    tid = np.arange(grid * block, dtype=np.int64)
    i = (tid // block) * tile + tid % block
    live = i < total  # threads past the end return at once
    i = i[live]
    # per thread, once: (k, j) of its first element and the divmods of block and stride
    k = (skip + i // d).astype(np.uint64)
    j = (i % d).astype(np.uint32)
    ud = np.uint32(d)
    bk, bj = np.uint64(block // d), np.uint32(block % d)
    sk, sj = np.uint64(stride // d), np.uint32(stride % d)
    while i.size:
        kk, jj = k.copy(), j.copy()
        for e in range(ept):
            ie = i + e * block
            g = (kk ^ (kk >> np.uint64(1))).astype(np.uint32)  # (unsigned int) truncation
            x = (table[(g & np.uint32(255)), jj]
                 ^ table[np.uint32(256) + ((g >> np.uint32(8)) & np.uint32(255)), jj]
                 ^ table[np.uint32(512) + ((g >> np.uint32(16)) & np.uint32(255)), jj]
                 ^ table[np.uint32(768) + (g >> np.uint32(24)), jj])
            val = _scale(x, bits, dtype)
            ok = ie < total
            out[ie[ok]] = val[ok]
            np.add.at(written, ie[ok], 1)
            kk += bk
            jj += bj
            wrap = jj >= ud
            jj[wrap] -= ud
            kk[wrap] += np.uint64(1)
        k += sk
        j += sj
        wrap = j >= ud
        j[wrap] -= ud
        k[wrap] += np.uint64(1)
        i = i + stride
        keep = i < total
        i, k, j = i[keep], k[keep], j[keep]
    if not (written == 1).all():
        raise AssertionError("thread mapping does not write every element exactly once")
    return out.reshape(n, d)


def _high(table, hi, j):
    """XOR of the block-1..3 rows picked by ``hi = g >> 8`` (the kernel's numr_sobol_high)."""
    return (table[np.uint32(256) + (hi & np.uint32(255)), j]
            ^ table[np.uint32(512) + ((hi >> np.uint32(8)) & np.uint32(255)), j]
            ^ table[np.uint32(768) + (hi >> np.uint32(16)), j])


def _emulate_runs(table, n, skip, *, bits, dtype, grid, cfg):
    """The kernel's run path (d >= run_min_d): thread p of the grid-stride loop owns rows
    ``r0 .. r0 + rpt - 1`` of column j, ``p = (r0 / rpt) * d + j``; h (blocks 1..3) is
    loaded for the run's first row and reloaded where ``g >> 8`` changes."""
    block, rpt = cfg.block, cfg.rpt
    d = table.shape[1]
    out = np.full(n * d, np.nan, dtype=dtype)
    written = np.zeros(n * d, dtype=np.int64)
    total = -(-n // rpt) * d
    if grid is None:
        grid = max(1, min(-(-total // block), 64))
    stride = grid * block
    p = np.arange(grid * block, dtype=np.int64)
    p = p[p < total]
    r0 = p // d * rpt
    j = (p % d).astype(np.uint32)
    ud = np.uint32(d)
    sr, sj = np.int64(stride // d * rpt), np.uint32(stride % d)
    loads = 0
    while p.size:
        g, x = [], []
        for e in range(rpt):
            k = (skip + r0 + e).astype(np.uint64)
            g.append((k ^ (k >> np.uint64(1))).astype(np.uint32))
            x.append(table[g[e] & np.uint32(255), j])
        hi = g[0] >> np.uint32(8)
        h = _high(table, hi, j)
        loads += (rpt + 3) * p.size
        for e in range(rpt):
            re = g[e] >> np.uint32(8) != hi
            if re.any():
                hi = np.where(re, g[e] >> np.uint32(8), hi)
                h = np.where(re, _high(table, hi, j), h)
                loads += 3 * int(re.sum())
            val = _scale(x[e] ^ h, bits, dtype)
            row = r0 + e
            ok = row < n
            idx = row[ok] * d + j[ok]
            out[idx] = val[ok]
            np.add.at(written, idx, 1)
        r0 = r0 + sr
        j = j + sj
        wrap = j >= ud
        j[wrap] -= ud
        r0[wrap] += rpt
        p = p + stride
        keep = p < total
        p, r0, j = p[keep], r0[keep], j[keep]
    if not (written == 1).all():
        raise AssertionError("thread mapping does not write every element exactly once")
    # about one load per element, not four (runs cross a multiple of 256 rarely)
    if n * d >= 64 * rpt * d and loads > 1.5 * (-(-n // rpt) * rpt) * d:
        raise AssertionError(f"{loads} table loads for {n * d} elements")
    return out.reshape(n, d)
