"""Segmented subgroups for the warp kernels (warp.py): S / w matrices a subgroup.

A matrix of n <= w rows (w the power of two >= n, w < S) takes a segment of w lanes:
lane l holds row l mod w of matrix (subgroup * S / w + l / w). One matrix a subgroup left
S - n of S lanes idle for the small stacks BatchTinySpec took before (8 x 8 on NVIDIA's 32
lanes: a quarter busy), and BatchTinySpec itself holds a whole matrix in one invocation's
registers (spills at 8 x 8). Reductions stay inside the segment by butterflies of
subgroupShuffleXor with masks < w (WGSL has no clustered reductions); broadcasts read lane
seg + row. Segments past the stack in the last subgroup run along (every lane must take
part in the shuffles) but load, store and report nothing.

The pivot choice is the unsegmented kernel's: the largest key (the bits of |a|, NaN as
1e30), the first row on ties (a ballot of the winners, shifted down to the segment), so
both pick the same rows.
"""

from __future__ import annotations

from .....tuning.registry import get as tuned
from .batch_rows import tiny_n


def width(n):
    w = 1
    while w < n:
        w *= 2
    return w


def seg_width(client, dtype, n, s):
    """The segment width for (n, n) systems on subgroups of s, or 0 where the segmented
    path does not take n: BWARP_SEG_MIN <= n <= BWARP_SEG_MAX (0: BTINY_N(_F32), the
    one-invocation kernel's sizes) while BWARP_SEG holds. On GPUs by default (H100,
    2026-11-27: the kernel of solve 100000 x 8x8 float32
    38 -> 25 us against BatchTinySpec, inv 58 -> 38 us against a subgroup a matrix); off
    on CPU adapters (their table; lavapipe: slower than the one-invocation kernel
    everywhere)."""
    w = width(n)
    if not tuned("BWARP_SEG", client) or w > s:
        return 0
    lo = tuned("BWARP_SEG_MIN", client)
    hi = tuned("BWARP_SEG_MAX", client) or tiny_n(client, dtype)
    return w if lo <= n <= hi else 0


def head(tk, sg, per, w):
    """WGSL lines after the subgroup-size check: ``b`` this lane's matrix, ``r`` its row,
    ``seg`` the segment's first lane, ``live`` whether b is in the stack (the signature
    names the lane ``sl``)."""
    return [f"  let b0 = ((wid.x + wid.y * nw.x) * {per}u + sid) * {sg // w}u;",
            f"  if (b0 >= {tk['nbat']}) {{ return; }}   // the whole subgroup",
            f"  let r = sl & {w - 1}u;",
            "  let seg = sl - r;",
            f"  let b = b0 + sl / {w}u;",
            f"  let live = b < {tk['nbat']};"]


def _first(win, w, sg):
    """The segment's first row where ``win`` holds (0xffffffff: none, only in segments
    past the stack)."""
    if sg <= 32:
        bits = f"(subgroupBallot({win}).x >> seg)"
    else:
        bits = f"(subgroupBallot({win})[seg >> 5u] >> (seg & 31u))"
    if w < 32:
        bits = f"({bits} & {(1 << w) - 1}u)"
    return f"firstTrailingBit({bits})"


def pivot(t, j, cand_expr, w, sg):
    """warp._pivot within a segment: ``p{j}`` the pivot row, ``pl{j}`` its lane."""
    masks = [1 << i for i in range(w.bit_length() - 1)]
    if t.val == "f64":
        # the (hi, lo) halves as one 64-bit key: lexicographic maxima
        L = [f"  let c{j} = {cand_expr};",
             f"  let k{j} = select(vec2<u32>(0u, 0u), key(a{j}), c{j});",
             f"  var mh{j} = k{j}.x;",
             f"  var ml{j} = k{j}.y;"]
        for m in masks:
            L.append(f"  {{ let oh = subgroupShuffleXor(mh{j}, {m}u); "
                     f"let ol = subgroupShuffleXor(ml{j}, {m}u); "
                     f"let g = oh > mh{j} || (oh == mh{j} && ol > ml{j}); "
                     f"mh{j} = select(mh{j}, oh, g); ml{j} = select(ml{j}, ol, g); }}")
        win = f"c{j} && k{j}.x == mh{j} && k{j}.y == ml{j}"
        zero = f"(mh{j} | ml{j}) == 0u"
    else:
        L = [f"  let c{j} = {cand_expr};",
             f"  let k{j} = select(0u, key(a{j}), c{j});",
             f"  var mk{j} = k{j};"]
        L += [f"  mk{j} = max(mk{j}, subgroupShuffleXor(mk{j}, {m}u));" for m in masks]
        win = f"c{j} && k{j} == mk{j}"
        zero = f"mk{j} == 0u"
    return L + [f"  let p{j} = {_first(win, w, sg)};",
                f"  let pl{j} = seg + (p{j} & {w - 1}u);",
                f"  bad = bad || {zero};"]


# ---- staging through workgroup memory -----------------------------------------------------
# A lane loading its own row touches one 32-byte line per value it reads, so the direct
# kernel moves a subgroup's S / w matrices in n scattered accesses a lane; staged, lane l
# moves elements l, l + S, ... of the subgroup's block of S / w matrices (consecutive
# addresses across the subgroup for a contiguous stack) and each lane then takes its row
# from the tile. The barriers need every invocation: no early return, ``live`` instead.

def tile_words(sg, wg, w, n):
    """Values of the tile: a subgroup's S / w matrices of n x (n + 1) (the pad spreads a
    column's rows over banks)."""
    return (wg // sg) * (sg // w) * n * (n + 1)


def staged_head(tk, sg, per, w, n):
    """``head``'s names (b, r, seg, live) without the early return, plus ``ok`` (the
    compiled subgroup shape), ``b0`` (the subgroup's first matrix) and ``tm`` (this lane's
    matrix in the tile)."""
    m = sg // w
    return [f"  let ok = sgs == {sg}u && nsg == {per}u;",
            f"  let sgi = min(sid, {per - 1}u);",
            f"  let b0 = ((wid.x + wid.y * nw.x) * {per}u + sgi) * {m}u;",
            f"  let r = sl & {w - 1}u;",
            "  let seg = sl - r;",
            f"  let b = b0 + sl / {w}u;",
            f"  let live = ok && sl < {sg}u && b < {tk['nbat']};",
            f"  let tm = (sgi * {m}u + min(sl / {w}u, {m - 1}u)) * {n * (n + 1)}u;"]


def _moves(tk, sg, w, n, buf, pre, body):
    """Lines moving the subgroup's block between ``buf`` (strides pre_rs, pre_cs, pre_bs)
    and the tile, lane sl taking elements sl, sl + S, ...; ``body(g, t)``: the statement
    for global index g and tile index t."""
    m = sg // w
    total = m * n * n
    L = []
    for i in range(-(-total // sg)):
        L.append(f"  {{ let e = {i * sg}u + sl; let mi = e / {n * n}u; "
                 f"let rc = e % {n * n}u; let row = rc / {n}u; let col = rc % {n}u;")
        L.append(f"    if (ok && e < {total}u && b0 + mi < {tk['nbat']}) {{ "
                 + body(f"{tk[buf + '_off']} + (b0 + mi) * {tk[pre + '_bs']} + row * "
                        f"{tk[pre + '_rs']} + col * {tk[pre + '_cs']}",
                        f"(sgi * {m}u + mi) * {n * (n + 1)}u + row * {n + 1}u + col")
                 + " } }")
    return L


def stage_in(tk, sg, w, n):
    """Lines: A's block into the tile, a barrier, row r of this lane's matrix into
    a0 .. a{n-1} (lanes with ``act``)."""
    L = _moves(tk, sg, w, n, "A", "a", lambda g, t: f"tile[{t}] = A[{g}];")
    L.append("  workgroupBarrier();")
    L.append("  if (act) {")
    L += [f"    a{c} = tile[tm + r * {n + 1}u + {c}u];" for c in range(n)]
    L.append("  }")
    return L


def stage_out(tk, sg, w, n, put):
    """Lines: a barrier (every lane done reading the tile), ``put`` (lines writing this
    lane's results into the tile), a barrier, the tile's block into X."""
    L = ["  workgroupBarrier();", "  if (act) {"] + put + ["  }", "  workgroupBarrier();"]
    return L + _moves(tk, sg, w, n, "X", "x", lambda g, t: f"X[{g}] = tile[{t}];")
