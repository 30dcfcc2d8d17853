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

from ...codegen.template import Template
from .small_spec import (_PKG, _consts_small, _eigh_check, _eigh_vout, _pow2, _tangent,
                         _u32s, circle)
from .spec import _lit


def render_stream(spec, caps):
    lay = spec.layout(caps)
    k = _consts_small(spec.t)
    T, z, one = k["T"], k["zero"], k["one"]
    c, vec = spec.cap, spec.vectors
    dst, src = circle(c)
    rng = range(c)
    decl = [f"    var a{i}: {T} = {z};" for i in rng]
    load = [f"    if (live && {i}u < n) {{ a{i} = A[ib + {i}u * n + t]; }}\n"
            f"    mx = max(mx, abs(a{i}));" for i in rng]
    store = [f"      B[nbb + {i}u] = a{i} * sc;" for i in rng]
    vdecl = ([f"    var v{i}: {T} = select({z}, {one}, t == {i}u);" for i in rng]
             if vec else [])
    ind = "        "
    upd = [f"{ind}let w{i} = v{i};" for i in rng] if vec else []
    for j in range(c // 2):
        p, q = 2 * j, 2 * j + 1
        upd.append(f"{ind}let cs{j} = CS[cb + {j}u];")
        for i in (p, q):
            upd.append(f"{ind}let o{i} = B[own + {i}u];\n"
                       f"{ind}let n{i} = o{i} + (sg * B[oth + {i}u] - hq * o{i});")
        # row p lands in row SIGMA(p) of the column this invocation now owns
        upd.append(f"{ind}B[nbb + {dst[p]}u] = n{p} - (cs{j}.y * n{q} + cs{j}.x * n{p});\n"
                   f"{ind}B[nbb + {dst[q]}u] = n{q} + (cs{j}.y * n{p} - cs{j}.x * n{q});")
        if vec:
            upd.append(f"{ind}v{dst[p]} = w{p} - (cs{j}.y * w{q} + cs{j}.x * w{p});\n"
                       f"{ind}v{dst[q]} = w{q} + (cs{j}.y * w{p} - cs{j}.x * w{q});")
    floor = (2.0 ** -23) ** 2 if T == "f32" else (2.0 ** -52) ** 2   # as small_spec
    return Template.file(_PKG, "small_eigh_stream.wgsl").render(
        lay.tokens(), k, cap=c, per=spec.per, half=c // 2, floor=_lit(T, floor),
        pow2=_pow2(k, "CAP"), tangent=_tangent(k, "apq", " " * 12),
        src=_u32s(src), dst=_u32s(dst), bsize=2 * spec.per * c * (c + 1),
        check="\n".join(_eigh_check(k, c)), cssize=spec.per * (c // 2),
        wg=c * spec.per, decl="\n".join(decl), load="\n".join(load),
        store="\n".join(store), vdecl="\n".join(vdecl), update="\n".join(upd),
        vout=_eigh_vout(lay, c) if vec else "")
