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

from ....._core import dtypes as dt
from ...runtime.switches import switch as _env


def width(n):
    w = 1
    while w < n:
        w *= 2
    return w


def seg_width(dtype, n, s, full, gpu=True):
    """The segment width for (n, n) systems on subgroups of s, or 0 where the segmented
    path does not take n. ``full``: the unsegmented warp range takes n (then w < s only
    with NUMR_WEBGPU_BWARP_SEG=all). On by default on GPUs (H100, session 10: the kernel
    of solve 100000 x 8x8 float32 38 -> 25 us against BatchTinySpec, inv 58 -> 38 us
    against a subgroup a matrix), off on CPU adapters (``gpu`` False; lavapipe: slower
    than the one-invocation kernel everywhere); NUMR_WEBGPU_BWARP_SEG=0 / 1 decides
    either way. _SEG_MIN / _SEG_MAX (default 2 .. BTINY_N, the one-invocation kernel's
    sizes) move its range."""
    mode = _env("BWARP_SEG", "1" if gpu else "0")
    w = width(n)
    if mode == "0" or w > s:
        return 0
    tiny = _env("BTINY_N", "16" if dtype is dt.float32 else "8")
    lo, hi = int(_env("BWARP_SEG_MIN", "2")), int(_env("BWARP_SEG_MAX", tiny))
    if lo <= n <= hi or (full and mode == "all"):
        return w
    return 0


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
