"""The streamed eigh kernel (small_eigh_stream.wgsl; SmallEighSpec.stream).

Why: small_eigh.wgsl keeps an invocation's column of A in registers from one round's
update to the next round's publication, next to its row of V. In float64 at cap 32 that is
2 x 32 doubles = 128 of NVIDIA's 255 32-bit registers held across every barrier, plus the
round's temporaries and the loads the compiler hoists: on the H100 float64 eigh ran 4x
float32 and far above eigvalsh, the signature of spills or of occupancy lost to registers,
not of the FP64 rate (half of FP32). Streaming A from buffer to buffer costs no extra
workgroup traffic (each round read two columns and wrote one before too) and leaves V the
only array in registers.
"""

from __future__ import annotations

import dataclasses

from ...codegen.template import Template
from .small_spec import (SmallEighSpec, _PKG, _consts_small, _eigh_check, _eigh_vout, _pow2,
                         _tangent, _u32s, circle)
from .spec import _lit


def _parity(split, body, ind):
    """``body(read, write)`` (WGSL lines over the buffers' names, with bb / nbb in scope)
    for the current parity: split, two copies under a uniform branch; else one, the
    parity in the offsets."""
    def block(lines, extra):
        return "\n".join([f"{ind}  {x}" for x in extra] + [f"{ind}  {x}" for x in lines])
    if not split:
        return (f"{ind}{{\n" + block(body("B", "B"), [
            "let bb = cur * PER * MAT + mi * MAT;",
            "let nbb = (cur ^ 1u) * PER * MAT + mi * MAT + t * LD;"]) + f"\n{ind}}}")
    lets = ["let bb = mi * MAT;", "let nbb = mi * MAT + t * LD;"]
    return (f"{ind}if (cur == 0u) {{\n" + block(body("B0", "B1"), lets) +
            f"\n{ind}}} else {{\n" + block(body("B1", "B0"), lets) + f"\n{ind}}}")


def _update(c, vec, dst, rd, wr, z):
    upd = [f"let w{i} = v{i};" for i in range(c)] if vec else []
    upd += ["let xo = bb + (src & ~1u) * LD;",
            "let own = xo + select(0u, LD, isq);",
            "let oth = xo + select(LD, 0u, isq);"]
    for j in range(c // 2):
        p, q = 2 * j, 2 * j + 1
        upd.append(f"let cs{j} = CS[cb + {j}u];")
        for i in (p, q):
            upd += [f"let o{i} = {rd}[own + {i}u];",
                    f"let n{i} = o{i} + (sg * {rd}[oth + {i}u] - hq * o{i});"]
        # row p lands in row SIGMA(p) of the column this invocation now owns
        upd += [f"{wr}[nbb + {dst[p]}u] = n{p} - (cs{j}.y * n{q} + cs{j}.x * n{p});",
                f"{wr}[nbb + {dst[q]}u] = n{q} + (cs{j}.y * n{p} - cs{j}.x * n{q});"]
        if vec:
            upd += [f"v{dst[p]} = w{p} - (cs{j}.y * w{q} + cs{j}.x * w{p});",
                    f"v{dst[q]} = w{q} + (cs{j}.y * w{p} - cs{j}.x * w{q});"]
    # the annihilated entry as an exact zero (small_eigh.wgsl's zr)
    upd.append(f"if (sq != {z}) {{ {wr}[nbb + zrow] = {z}; }}")
    return upd


def render_stream(spec, caps):
    lay = spec.layout(caps)
    k = _consts_small(spec.t)
    T, z, one = k["T"], k["zero"], k["one"]
    c, vec, split = spec.cap, spec.vectors, spec.stream == 2
    dst, src = circle(c)
    rng = range(c)
    decl = [f"    var a{i}: {T} = {z};" for i in rng]
    load = [f"    if (live && {i}u < n) {{ a{i} = A[ib + {i}u * n + t]; }}\n"
            f"    mx = max(mx, abs(a{i}));" for i in rng]
    first = "B0" if split else "B"
    store = [f"      {first}[nbb + {i}u] = a{i} * sc;" for i in rng]
    vdecl = ([f"    var v{i}: {T} = select({z}, {one}, t == {i}u);" for i in rng]
             if vec else [])
    check = _parity(split, lambda rd, wr: [
        "let co = bb + t * LD;", f"let dt = abs({rd}[co + t]);"] + [
        x.strip().replace("B[", f"{rd}[") for x in _eigh_check(k, c)], " " * 8)
    pair = _parity(split, lambda rd, wr: [
        f"app = {rd}[bb + p * LD + p];",
        f"aqq = {rd}[bb + (p + 1u) * LD + p + 1u];",
        "// the symmetric part of the rounded pair (the sweep check reads the same)",
        f"apq = ({rd}[bb + (p + 1u) * LD + p] + {rd}[bb + p * LD + p + 1u]) * {k['halfv']};"],
        " " * 10)
    update = _parity(split, lambda rd, wr: _update(c, vec, dst, rd, wr, z), " " * 8)
    diag = _parity(split, lambda rd, wr: [f"dg = {rd}[bb + t * LD + t];"], "    ")
    size = spec.per * c * (c + 1)
    buffers = ("\n".join(f"var<workgroup> B{i}: array<{T}, {size}>;    // the columns, "
                         f"{what}" for i, what in ((0, "read at even parity"),
                                                   (1, "written at even parity")))
               if split else f"var<workgroup> B: array<{T}, {2 * size}>;    // the columns: "
               "read one half, write the other")
    floor = (2.0 ** -23) ** 2 if T == "f32" else (2.0 ** -52) ** 2   # as small_spec
    return Template.file(_PKG, "small_eigh_stream.wgsl").render(
        lay.tokens(), k, cap=c, per=spec.per, half=c // 2, floor=_lit(T, floor),
        pow2=_pow2(k, "CAP"), tangent=_tangent(k, "apq", " " * 12),
        src=_u32s(src), dst=_u32s(dst), buffers=buffers, split="this kernel" if split
        else "not this one", check=check, pair=pair, cssize=spec.per * (c // 2),
        wg=c * spec.per, decl="\n".join(decl), load="\n".join(load),
        store="\n".join(store), vdecl="\n".join(vdecl), update=update, diag=diag,
        vout=_eigh_vout(lay, c) if vec else "")


@dataclasses.dataclass(frozen=True)
class SmallEighStreamSpec(SmallEighSpec):
    """SmallEighSpec with ``stream`` 1 / 2, rendered by render_stream."""

    def render(self, caps):
        return render_stream(self, caps)
