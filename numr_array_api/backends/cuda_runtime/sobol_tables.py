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
"""

import numpy as np

__all__ = ["BLOCK", "EPT", "SMEM_MAX_BYTES", "TABLE_ROWS", "build_table", "table_bytes",
           "uses_shared_memory", "emulate_kernel"]

BLOCK = 256           # threads per block (the kernel is compiled for exactly this)
EPT = 4               # elements per thread per tile: thread t of a tile does t + e * BLOCK
TABLE_ROWS = 4 * 256
SMEM_MAX_BYTES = 48 * 1024  # staged in shared memory up to here (d <= 12), else __ldg


def table_bytes(d):
    return TABLE_ROWS * int(d) * 4


def uses_shared_memory(d):
    return table_bytes(d) <= SMEM_MAX_BYTES


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


def emulate_kernel(table, n, skip, *, bits, dtype, grid=None):
    """``[n, d]`` array exactly as the CUDA kernel writes it: the same tile / grid-stride
    mapping of threads to elements and the same incremental (k, j) bookkeeping (no division
    in the loop), the same Gray code and lookups, vectorised over all threads. ``grid``:
    blocks launched (default: as many as tiles, capped at 64 to exercise the stride)."""
    d = table.shape[1]
    total = n * d
    out = np.full(total, np.nan, dtype=dtype)
    written = np.zeros(total, dtype=np.int64)
    if total == 0:
        return out.reshape(n, d)
    tile = BLOCK * EPT
    if grid is None:
        grid = max(1, min(-(-total // tile), 64))
    stride = grid * tile
    tid = np.arange(grid * BLOCK, dtype=np.int64)
    i = (tid // BLOCK) * tile + tid % BLOCK
    live = i < total  # threads past the end return at once
    i = i[live]
    # per thread, once: (k, j) of its first element and the divmods of BLOCK and stride
    k = (skip + i // d).astype(np.uint64)
    j = (i % d).astype(np.uint32)
    ud = np.uint32(d)
    bk, bj = np.uint64(BLOCK // d), np.uint32(BLOCK % d)
    sk, sj = np.uint64(stride // d), np.uint32(stride % d)
    while i.size:
        kk, jj = k.copy(), j.copy()
        for e in range(EPT):
            ie = i + e * BLOCK
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
