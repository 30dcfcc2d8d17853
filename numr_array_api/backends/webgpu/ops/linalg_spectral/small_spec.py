"""Specs of the stacked small-matrix kernels (small_eigh.wgsl, small_svd.wgsl).

The per-invocation columns live in scalar registers (``a0``, ``a1``, ...) addressed only by
constant indices, so the bodies that touch them are generated here, unrolled over the
size bucket ``cap``. ``nbuf`` 2 double-buffers the published columns (one barrier fewer per
round) where workgroup memory allows.
"""

from __future__ import annotations

import dataclasses

from ...codegen.layout import Buf, Layout
from ...codegen.spec import KernelSpec
from ...codegen.template import Template
from ...codegen.types import WType
from .jacobi_common import consts, lit

_PKG = __package__
BUCKETS = (4, 8, 16, 32)


def bucket(n: int) -> int:
    """The smallest size bucket holding n (0: none)."""
    return next((c for c in BUCKETS if n <= c), 0)


def circle(cap: int):
    """SIGMA of the circle method on slots (2k, 2k+1) = (top k, bottom k): top 0 stays,
    the others move one place round (top k -> top k+1, the last top -> the last bottom,
    bottom k -> bottom k-1, bottom 0 -> top 1). Returns (SIGMA, SIGMA^-1) as lists."""
    h = cap // 2
    dst = [0] * cap
    for k in range(h):
        top, bot = 2 * k, 2 * k + 1
        if k == 0:
            dst[top] = top
        else:
            dst[top] = 2 * (k + 1) if k + 1 < h else bot
        dst[bot] = 2 * (k - 1) + 1 if k > 0 else (2 if h > 1 else bot)
    src = [0] * cap
    for i, d in enumerate(dst):
        src[d] = i
    return dst, src


def _consts_small(t: WType) -> dict:
    k = consts(t)
    T = k["T"]
    k["onehalf"] = lit(T, 1.5)
    return k


def _floor_tiny(T: str):
    # FLOOR: rotations below it are noise even after scaling into [0.5, 1]
    return (2.0 ** -124, 2.0 ** -60) if T == "f32" else (2.0 ** -1020, 2.0 ** -500)


def _u32s(xs) -> str:
    return ", ".join(f"{x}u" for x in xs)


def _pow2(k, cap):
    """WGSL of both kernels: sc, the power of two bringing the matrix's max |a_ij| (the
    per-invocation maxima in RM) into [0.5, 1] (exact: no square overflows or flushes)."""
    lines = [
        f"    var q: {k['T']} = {k['zero']};",
        f"    for (var j = 0u; j < {cap}; j++) {{ q = max(q, RM[mi * {cap} + j]); }}",
        f"    var sc: {k['T']} = {k['one']};"]
    for cond, f in ((f"q > {k['big']}", k["small"]), (f"q > {k['one']}", k["halfv"]),
                    (f"q > {k['zero']} && q < {k['small']}", k["big"]),
                    (f"q > {k['zero']} && q < {k['halfv']}", k["two"])):
        lines.append(f"    for (var k = 0u; k < 40u && {cond}; k++) {{ q *= {f}; sc *= {f}; }}")
    return "\n".join(lines)


def _tangent(k, x, ind):
    """WGSL of both kernels: tn, the smaller root of tn^2 + 2 th tn - 1 = 0 for the
    rotation annihilating ``x`` (d = a_qq - a_pp or its svd analogue already in scope);
    the linear term alone where th is beyond 1 / EPS."""
    one = k["one"]
    return "\n".join([
        f"{ind}var tn: {k['T']};",
        f"{ind}if (abs({x}) < abs(d) * EPS) {{",
        f"{ind}  tn = {x} / d;",
        f"{ind}}} else {{",
        f"{ind}  let th = d / ({k['two']} * {x});",
        f"{ind}  tn = select(-{one}, {one}, th >= {k['zero']})"
        f" / (abs(th) + sqrt(th * th + {one}));",
        f"{ind}}}"])


def _eigh_check(k, c):
    """WGSL lines of the eigh kernel's sweep check (matrix at bb, column t at co)."""
    ind = "        "
    # rotation thresholds as in the rounds: a sweep runs only if some pair is above
    # on (a_ij + a_ji) / 2 as the rounds do (a sum commutes exactly): on one copy of
    # a rounded, not quite symmetric pair, the check could see an entry above that the
    # rounds read below, and run idle sweeps up to the limit
    return [f"{ind}above = above || ({i}u != t && abs((B[co + {i}u] + "
            f"B[bb + {i * (c + 1)}u + t]) * {k['halfv']}) > max(FLOOR, EPS * "
            f"max(dt, abs(B[bb + {i * (c + 1) + i}u]))));" for i in range(c)]


def _eigh_vout(lay, c):
    """WGSL of the eigh kernel: row t of V (registers v0, v1, ...) out, columns by rank."""
    lines = [f"      if ({j}u < n) {{ V[vo + RK[mi * CAP + {j}u]] = v{j}; }}"
             for j in range(c)]
    return ("    workgroupBarrier();\n    if (live) {\n"
            f"      let vo = {lay.word('V_off')} + b * n * n + t * n;\n"
            + "\n".join(lines) + "\n    }")


def wg_bytes_eigh(T_size: int, cap: int, per: int, nbuf: int) -> int:
    wg = cap * per
    return T_size * (nbuf * per * cap * (cap + 1) + nbuf * per * cap + wg) + 4 * wg + 16


def wg_bytes_svd(T_size: int, capr: int, capc: int, per: int, nbuf: int,
                 vectors: bool) -> int:
    wg = capc * per
    col = capr + (capc if vectors else 0) + 1
    return T_size * (nbuf * per * capc * col + wg) + 8


@dataclasses.dataclass(frozen=True)
class SmallEighSpec(KernelSpec):
    t: WType          # float32 / float64
    cap: int          # n <= cap, invocations per matrix
    per: int          # matrices per workgroup
    nbuf: int         # 1 or 2 buffers of published columns
    vectors: bool
    # (vectors) the eigenvector rows start from VI's rows instead of I's: V = VI V'
    # (small_prep.py's preconditioner)
    vinit: bool = False

    # compiled without wgpu's runtime checks (KernelSpec.runtime_checks: its index clamps
    # and loop counters cost the GEMM's inner loop 46 % on an H100, pipelines.py, and these
    # kernels are nearly all workgroup and register traffic): every workgroup index is
    # structural (slot t < cap, matrix mi < per, register rows < cap, pairs < cap / 2,
    # ranks < n <= cap); global reads and writes sit under `live` (b < nb, t < n) and
    # i < n; loops are counted by the grid, maxsw, cap, n or 40
    trusted = True

    def needs(self):
        return ("f64",) if self.t.val == "f64" else ()

    def layout(self, caps):
        T = self.t.val
        bufs = [Buf("A", T), Buf("W", T, "rw")]
        if self.vectors:
            bufs.append(Buf("V", T, "rw"))
        if self.vinit:
            bufs.append(Buf("VI", T))
        return Layout(bufs, ["n", "nb"], caps)

    def render(self, caps):
        lay = self.layout(caps)
        k = _consts_small(self.t)
        T, z, one = k["T"], k["zero"], k["one"]
        c, vec = self.cap, self.vectors
        dst, src = circle(c)
        rng = range(c)
        decl = [f"    var a{i}: {T} = {z};" for i in rng]
        if vec:
            decl += [f"    var v{i}: {T} = select({z}, {one}, t == {i}u);" for i in rng]
        if vec and self.vinit:
            decl.append(f"    let vb = {lay.word('VI_off')} + b * n * n + t * n;")
            decl += [f"    if (live && {i}u < n) {{ v{i} = VI[vb + {i}u]; }}" for i in rng]
        load = [f"    if (live && {i}u < n) {{ a{i} = A[ib + {i}u * n + t]; }}\n"
                f"    mx = max(mx, abs(a{i}));" for i in rng]
        scale = [f"    a{i} *= sc;" for i in rng]
        ind = "        "
        store = [f"{ind}B[bb + t * LD + {i}u] = a{i};" for i in rng]
        store.append(f"{ind}if (zr < CAP) {{ B[bb + t * LD + zr] = {z}; }}")
        check = _eigh_check(k, c)
        # pair by pair (the rows of pair j are the column values 2j, 2j+1), so few of
        # the loaded values are live at once
        upd = [f"{ind}let w{i} = v{i};" for i in rng] if vec else []
        for j in range(c // 2):
            p, q = 2 * j, 2 * j + 1
            upd.append(f"{ind}let cs{j} = CS[cb + {j}u];")
            for i in (p, q):
                upd.append(f"{ind}let o{i} = B[own + {i}u];\n"
                           f"{ind}let n{i} = o{i} + (sg * B[oth + {i}u] - hq * o{i});")
            upd.append(f"{ind}a{dst[p]} = n{p} - (cs{j}.y * n{q} + cs{j}.x * n{p});\n"
                       f"{ind}a{dst[q]} = n{q} + (cs{j}.y * n{p} - cs{j}.x * n{q});")
            if vec:
                upd.append(f"{ind}v{dst[p]} = w{p} - (cs{j}.y * w{q} + cs{j}.x * w{p});\n"
                           f"{ind}v{dst[q]} = w{q} + (cs{j}.y * w{p} - cs{j}.x * w{q});")
        diag = [f"    dg = select(dg, a{i}, t == {i}u);" for i in rng]
        vout = _eigh_vout(lay, c) if vec else ""
        # as EighSpec: after the scaling, |a_pq| <= eps^2 moves no eigenvalue measurably,
        # and rotating such entries only feeds subnormal noise (flushed on NVIDIA)
        floor = (2.0 ** -23) ** 2 if T == "f32" else (2.0 ** -52) ** 2
        wg = c * self.per
        return Template.file(_PKG, "small_eigh.wgsl").render(
            lay.tokens(), k, cap=c, per=self.per, half=c // 2, floor=lit(T, floor),
            pow2=_pow2(k, "CAP"), tangent=_tangent(k, "apq", " " * 12),
            src=_u32s(src), dst=_u32s(dst), bsize=self.nbuf * self.per * c * (c + 1),
            check="\n".join(check),
            cssize=self.nbuf * self.per * (c // 2), wg=wg, par=self.nbuf - 1,
            decl="\n".join(decl), load="\n".join(load), scale="\n".join(scale),
            store="\n".join(store), update="\n".join(upd),
            barrier1="        workgroupBarrier();" if self.nbuf == 1 else "",
            diag="\n".join(diag), vout=vout)

    @property
    def label(self):
        return (f"small_eigh_{self.t.name}_c{self.cap}x{self.per}_b{self.nbuf}"
                f"{'_v' if self.vectors else ''}{'i' if self.vinit else ''}")


@dataclasses.dataclass(frozen=True)
class SmallSvdSpec(KernelSpec):
    t: WType
    capr: int         # R <= capr (rows of the tall form)
    capc: int         # C <= capc (its columns), invocations per matrix
    per: int
    nbuf: int
    vectors: bool     # write P, Q (through output strides) and complete P's basis

    # compiled without wgpu's runtime checks (as SmallEighSpec): slots t, partners pt < capc
    # (C <= capc, capc even), rows < capr, ranks < C; global accesses under `live` (b < nb,
    # t < C) and i < R, j < C; loops counted by the grid, maxsw, C, the round count or two
    # completion attempts
    trusted = True

    def needs(self):
        return ("f64",) if self.t.val == "f64" else ()

    def layout(self, caps):
        T = self.t.val
        bufs = [Buf("X", T), Buf("SV", T, "rw")]
        words = ["R", "C", "nb", "xrs", "xcs", "xbs"]
        if self.vectors:
            bufs += [Buf("PO", T, "rw"), Buf("QO", T, "rw")]
            words += ["prs", "pcs", "pbs", "qrs", "qcs", "qbs"]
        return Layout(bufs, words, caps)

    def render(self, caps):
        lay = self.layout(caps)
        k = _consts_small(self.t)
        T, z, one = k["T"], k["zero"], k["one"]
        cr, cc, vec = self.capr, self.capc, self.vectors
        w = lay.word
        rr, rc = range(cr), range(cc)
        decl = [f"    var u{i}: {T} = {z};" for i in rr]
        if vec:
            decl += [f"    var v{j}: {T} = select({z}, {one}, t == {j}u);" for j in rc]
        load = [f"    if (live && {i}u < R) {{ u{i} = X[xb + {i}u * {w('xrs')} + t * "
                f"{w('xcs')}]; }}\n    mx = max(mx, abs(u{i}));" for i in rr]
        scale = [f"    u{i} *= sc;" for i in rr]
        ind = "        "
        store = [f"{ind}B[bb + t * COL + {i}u] = u{i};" for i in rr]
        if vec:
            store += [f"{ind}B[bb + t * COL + {cr + j}u] = v{j};" for j in rc]
        # the pair's two invocations form the same sums (a product commutes exactly), so
        # both take the same rotation
        dots = [f"{ind}let o{i} = B[po + {i}u];\n"
                f"{ind}uu += u{i} * u{i}; oo += o{i} * o{i}; ga += u{i} * o{i};" for i in rr]
        i2 = "          "
        rotate = [f"{i2}u{i} = u{i} - (h * u{i} - sg * o{i});" for i in rr]
        if vec:
            rotate += [f"{i2}v{j} = v{j} - (h * v{j} - sg * B[po + {cr + j}u]);" for j in rc]
        norm = [f"    s2 += u{i} * u{i};" for i in rr]
        floor, tiny = _floor_tiny(T)
        vectors = self._vectors_code(lay, T, z, one) if vec else ""
        return Template.file(_PKG, "small_svd.wgsl").render(
            lay.tokens(), k, capr=cr, capc=cc, per=self.per, pow2=_pow2(k, "CAPC"),
            tangent=_tangent(k, "ga", " " * 10),
            colw=cr + (cc if vec else 0) + 1, floor=lit(T, floor), tiny=lit(T, tiny),
            bsize=self.nbuf * self.per * cc * (cr + (cc if vec else 0) + 1),
            wg=cc * self.per, par=self.nbuf - 1, decl="\n".join(decl),
            load="\n".join(load), scale="\n".join(scale), store="\n".join(store),
            dots="\n".join(dots), rotate="\n".join(rotate), norm="\n".join(norm),
            barrier1="        workgroupBarrier();" if self.nbuf == 1 else "",
            vectors=vectors)

    def _vectors_code(self, lay, T, z, one):
        cr, cc = self.capr, self.capc
        w = lay.word
        rr = range(cr)
        pb = "mi * CAPC * COL"
        P = f"B[{pb} + j * CAPR + {{i}}u]"
        gs_pass = ("          for (var j = 0u; j < k; j++) {\n"
                   "            var hh: " + T + " = " + z + ";\n" +
                   "\n".join(f"            hh += {P.format(i=i)} * u{i};" for i in rr) + "\n" +
                   "\n".join(f"            u{i} -= hh * {P.format(i=i)};" for i in rr) +
                   "\n          }")
        least = ("\n".join(f"            u{i} = {z};" for i in rr) + "\n"
                 "            for (var j = 0u; j < k; j++) {\n" +
                 "\n".join(f"              u{i} += {P.format(i=i)} * {P.format(i=i)};"
                           for i in rr) + "\n            }\n"
                 f"            var bv: {T} = {lit(T, 4.0)};\n            var bi = 0u;\n" +
                 "\n".join(f"            if ({i}u < R && u{i} < bv) {{ bv = u{i}; bi = {i}u; }}"
                           for i in rr) + "\n" +
                 "\n".join(f"            u{i} = select({z}, {one}, bi == {i}u);" for i in rr))
        nq = "\n".join(f"          nq += u{i} * u{i};" for i in rr)
        scl = "\n".join(f"            u{i} *= rn;" for i in rr)
        pub = "\n".join(f"      B[{pb} + rk * CAPR + {i}u] = u{i};" for i in rr)
        pub_k = "\n".join(f"        B[{pb} + k * CAPR + {i}u] = u{i};" for i in rr)
        po = f"{w('PO_off')} + b * {w('pbs')}"
        qo = f"{w('QO_off')} + b * {w('qbs')}"
        outp = "\n".join(f"      if ({i}u < R) {{ PO[po + {i}u * {w('prs')} + rk * {w('pcs')}] "
                         f"= u{i}; }}" for i in rr)
        outq = "\n".join(f"      if ({j}u < C) {{ QO[qo + {j}u * {w('qrs')} + rk * {w('qcs')}] "
                         f"= v{j}; }}" for j in range(cc))
        rs = "\n".join(f"    u{i} *= rs;" for i in rr)
        return f"""    let good = sv > TINYN && sv > EPS * {T}(R) * smax;
    let rs = select({z}, {one} / sv, sv > TINYN);
{rs}
    if (live && !good) {{ atomicStore(&rot, 1u); }}
    workgroupBarrier();
    if (lid == 0u) {{ flag = atomicExchange(&rot, 0u); }}
    if (workgroupUniformLoad(&flag) != 0u) {{
      if (t < C) {{
{pub}
      }}
      workgroupBarrier();
      for (var k = 0u; k < C; k++) {{
        if (live && rk == k && !good) {{
          var att = select(1u, 0u, sv > TINYN);
          loop {{
            if (att != 0u) {{
{least}
            }}
{gs_pass}
{gs_pass}
          var nq: {T} = {z};
{nq}
          if (att != 0u || nq >= {lit(T, 0.25)}) {{
            let rn = {one} / sqrt(nq);
{scl}
            break;
          }}
          att = 1u;
          }}
{pub_k}
        }}
        workgroupBarrier();
      }}
    }}
    if (live) {{
      let po = {po};
      let qo = {qo};
{outp}
{outq}
    }}"""

    @property
    def label(self):
        return (f"small_svd_{self.t.name}_r{self.capr}c{self.capc}x{self.per}_b{self.nbuf}"
                f"{'_v' if self.vectors else ''}")
