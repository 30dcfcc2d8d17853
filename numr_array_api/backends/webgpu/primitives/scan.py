"""The device-wide scan: every row of a (rows, m) view scanned with an associative op.

Reduce-then-scan, because WebGPU promises no forward progress between workgroups (so no
decoupled look-back): rows are cut into blocks of BLOCK elements (WG threads x PER);
pass 1 (``reduce``) writes each block's total, the (rows, blocks) totals are scanned by
the same plan recursively (exclusive), and pass 2 (``scan``) scans each block from its
offset. Blocks never straddle rows, so many short rows and one long row are the same
code. Modes: ``inclusive``, ``exclusive``, and ``total`` (exclusive plus the row's total as
an extra last column: the n + 1 ranks of mask compaction, cumulative ops with
include_initial). Every thread handles PER elements and the in-block scan is a fixed tree,
so no invocation loops long (lavapipe stops loops after 65535 iterations).

Data beyond one binding or buffer is launched in windows: runs of whole rows, or runs of
blocks inside one long row, whose source and output views fit one binding; block totals
are indexed globally, so a window only adds its first block's number.

``ScanPlan(op, in_dtype, acc_dtype, mode).record(src, out=None)``: ``src`` any (rows, m)
view (element and row strides of any sign); the result is a contiguous (rows, m [+1])
storage of ``acc_dtype``. Plans are cached; kernels compile once per adapter.
"""

from __future__ import annotations

import dataclasses

from ...._core import dtypes as dt
from ..codegen.layout import Buf, Layout
from ..codegen.spec import KernelSpec
from ..codegen.template import Template
from ..codegen.types import WTYPES, WType, convert, load, render_helpers
from ..storage import new_output
from ..runtime import caches as _caches

__all__ = ["ScanPlan", "BLOCK", "OPS", "scan", "variants"]

WG = 256
PER = 4
BLOCK = WG * PER

# op -> (identity per accumulator class, combine(x, y) WGSL)
_ZERO = {"i32": "0i", "u32": "0u", "i64": "0li", "u64": "0lu", "f32": "0.0f", "f64": "0.0lf",
         "vec2<f32>": "vec2<f32>(0.0f)", "vec2<f64>": "vec2<f64>(0.0lf)"}
_ONE = {"i32": "1i", "u32": "1u", "i64": "1li", "u64": "1lu", "f32": "1.0f", "f64": "1.0lf",
        "vec2<f32>": "vec2<f32>(1.0f, 0.0f)", "vec2<f64>": "vec2<f64>(1.0lf, 0.0lf)"}
_LOW = {"i32": "bitcast<i32>(0x80000000u)", "u32": "0u",
        "i64": "bitcast<i64>(0x8000000000000000lu)", "u64": "0lu",
        "f32": "bitcast<f32>(0xff800000u)", "f64": "bitcast<f64>(0xfff0000000000000lu)"}
_HIGH = {"i32": "bitcast<i32>(0x7fffffffu)", "u32": "0xffffffffu",
         "i64": "bitcast<i64>(0x7ffffffffffffffflu)", "u64": "0xfffffffffffffffflu",
         "f32": "bitcast<f32>(0x7f800000u)", "f64": "bitcast<f64>(0x7ff0000000000000lu)"}
_NAN = {"f32": "(bitcast<u32>(v) & 0x7fffffffu) > 0x7f800000u",
        "f64": "(bitcast<u64>(v) & 0x7ffffffffffffffflu) > 0x7ff0000000000000lu"}

OPS = ("add", "mul", "max", "min", "and", "or")


def _op(op: str, a: str):
    """(identity, body of ``fn comb(x: a, y: a) -> a``) of ``op`` on accumulator type ``a``."""
    if op == "add":
        return _ZERO[a], "return x + y;"
    if op == "mul":
        if a.startswith("vec2"):
            return _ONE[a], "return vec2(x.x * y.x - x.y * y.y, x.x * y.y + x.y * y.x);"
        return _ONE[a], "return x * y;"
    if op in ("and", "or"):
        if a not in ("u32", "i32", "u64", "i64"):
            raise ValueError(f"scan: {op} needs an integer accumulator, got {a}")
        ident = _ZERO[a] if op == "or" else {"u32": "0xffffffffu", "i32": "-1i",
                                              "u64": "0xfffffffffffffffflu", "i64": "-1li"}[a]
        return ident, f"return x {'&' if op == 'and' else '|'} y;"
    big = op == "max"
    ident = _LOW[a] if big else _HIGH[a]
    cmp = "y > x" if big else "y < x"
    if a in _NAN:  # NaN propagates (WGSL max/min are undefined on NaN)
        nx, ny = _NAN[a].replace("v", "x"), _NAN[a].replace("v", "y")
        return ident, f"if ({nx}) {{ return x; }} if ({ny}) {{ return y; }} " \
                      f"return select(x, y, {cmp});"
    return ident, f"return select(x, y, {cmp});"


_FRAME = Template.file(__package__, "scan.wgsl")


_SHORT = Template("""${helpers}
${layout}
fn comb(x: ${A}, y: ${A}) -> ${A} { ${comb} }
fn val(row: u32, col: u32) -> ${A} {
  let j = ${S_off} + row * ${s_rs} + col * ${s_es};
  return ${value};
}
@compute @workgroup_size(${wg})
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let row = gid.x + gid.y * nw.x * ${wg}u;
  if (row >= ${L}) { return; }
  let ob = ${D_off} + row * ${d_rs};
  var r = ${ident};
  for (var c = 0u; c < ${mc}; c++) {
    let v = val(row, c);
${step}
  }
${total}
}
""", "scan_short")

# rows at most this long are scanned by one thread each (sequentially, as NumPy's loop)
SHORT = 64


@dataclasses.dataclass(frozen=True)
class ScanSpec(KernelSpec):
    """One pass: ``reduce`` (block totals) or ``scan`` (with block offsets when ``offs``)."""

    op: str
    in_t: WType
    acc_t: WType
    mode: str      # "reduce" | "inclusive" | "exclusive" | "total"
    offs: bool     # pass 2 reads the exclusive scan of the block totals
    short: bool = False  # one thread per row (rows of at most SHORT elements)

    def needs(self):
        need = {"shader-f64": "f64", "shader-int64": "int64"}
        return tuple(need[t.need] for t in (self.in_t, self.acc_t) if t.need)

    def layout(self, caps):
        a = self.acc_t.arr
        bufs = [Buf("S", self.in_t.arr)]
        if self.offs:
            bufs.append(Buf("OFF", a))
        bufs.append(Buf("D", a, "rw"))
        words = ["L", "mc", "nbr", "g_base", "s_rs", "s_es", "d_rs", "total_col"]
        return Layout(bufs, words, caps)

    def render(self, caps):
        lay = self.layout(caps)
        h = set()
        A = self.acc_t.val
        ident, comb = _op(self.op, A)
        value = convert(self.in_t, self.acc_t, load(self.in_t, "S", "j", h), h, caps.int64)
        if self.short:
            if self.mode == "inclusive":
                step = "    r = comb(r, v);\n    D[ob + c] = r;"
            else:
                step = "    D[ob + c] = r;\n    r = comb(r, v);"
            total = (f"  if ({lay.word('total_col')} != 0xffffffffu) {{ D[ob + {lay.word('mc')}]"
                     f" = r; }}") if self.mode == "total" else ""
            return _SHORT.render(lay.tokens(), helpers=render_helpers(h, caps.int64), A=A,
                                 wg=WG, comb=comb, ident=ident, value=value, step=step,
                                 total=total)
        loads = "\n".join(f"  let v{k} = val(row, c0 + {k}u);" for k in range(PER))
        fold = "\n".join(f"  s = comb(s, v{k});" for k in range(PER))
        if self.mode == "reduce":
            tail = f"  if (lid.x == {WG - 1}u) {{ D[{lay.word('D_off')} + g] = sh[{WG - 1}]; }}"
        else:
            off = f"OFF[{lay.word('OFF_off')} + g]" if self.offs else ident
            d = lay.word("D_off")
            lines = [f"  var r = {off};",
                     "  if (lid.x > 0u) { r = comb(r, sh[lid.x - 1u]); }",
                     f"  let ob = {d} + row * {lay.word('d_rs')};"]
            for k in range(PER):
                c = f"c0 + {k}u"
                if self.mode == "inclusive":
                    lines.append(f"  r = comb(r, v{k});")
                    lines.append(f"  if ({c} < {lay.word('mc')}) {{ D[ob + {c}] = r; }}")
                else:
                    lines.append(f"  if ({c} < {lay.word('mc')}) {{ D[ob + {c}] = r; }}")
                    lines.append(f"  r = comb(r, v{k});")
            if self.mode == "total":
                # the thread holding the row's last element (column total_col - 1) ends
                # with the row's total: it goes in the extra column after the row
                tc = lay.word("total_col")
                lines.append(f"  if ({tc} != 0xffffffffu && {tc} - 1u >= c0 && "
                             f"{tc} - 1u < c0 + {PER}u) {{ D[ob + {tc}] = r; }}")
            tail = "\n".join(lines)
        return _FRAME.render(lay.tokens(), helpers=render_helpers(h, caps.int64), A=A,
                             wg=WG, comb=comb, ident=ident, value=value, block=BLOCK,
                             per=PER, loads=loads, fold=fold, tail=tail)

    @property
    def label(self):
        return f"scan_{self.op}_{self.in_t.name}_{self.acc_t.name}_{self.mode}" + \
            ("_offs" if self.offs else "") + ("_short" if self.short else "")


class ScanPlan:
    """The passes of one (op, input dtype, accumulator dtype, mode) scan on one client."""

    def __init__(self, client, op, in_dtype, acc_dtype, mode):
        if op not in OPS or mode not in ("inclusive", "exclusive", "total"):
            raise ValueError(f"scan: op {op!r} / mode {mode!r}")
        self.client = client
        self.in_t, self.acc_t = WTYPES[in_dtype], WTYPES[acc_dtype]
        self.op, self.mode, self.acc_dtype = op, mode, acc_dtype

    def _kernel(self, mode, offs, short=False):
        return self.client.kernel(ScanSpec(self.op, self.in_t, self.acc_t, mode, offs, short))

    def record(self, src, out=None):
        """Scan the rows of ``src`` (a (rows, m) view); returns (rows, m [+ 1]) ``acc``."""
        R, m = src.shape
        extra = 1 if self.mode == "total" else 0
        if out is None:
            out = new_output((R, m + extra), self.acc_dtype, self.client)
        if R == 0 or m + extra == 0:
            return out
        if m == 0:  # totals of empty rows: the identity
            from ..kernels.fill import full
            ident = {"add": 0, "mul": 1, "or": 0}.get(self.op)
            if ident is None:
                raise ValueError(f"scan: {self.op} of an empty row has no identity here")
            return full((R, 1), ident, self.acc_dtype, self.client)
        if not src.fits_binding() and abs(src.strides[1]) != 1:
            # interleaved rows (an axis other than the last, moved last) beyond one
            # binding: one row-major copy (split over buffers) lets windows take whole rows
            src = src.contiguous()
        if m <= SHORT:
            for w in _windows(src, out, 1, extra):
                self._launch(self.mode, False, src, out, w, 1, short=True)
            return out
        nbr = -(-m // BLOCK)
        offs = None
        if nbr > 1:
            totals = new_output((R, nbr), self.acc_dtype, self.client)
            for w in _windows(src, None, nbr, 0):
                self._launch("reduce", False, src, totals, w, nbr)
            sub = _plan(self.client, self.op, self.acc_dtype, self.acc_dtype, "exclusive")
            offs = sub.record(totals)
        for w in _windows(src, out, nbr, extra):
            self._launch(self.mode, offs is not None, src, out, w, nbr, offs)
        return out

    def _launch(self, mode, has_offs, src, dst, w, nbr, offs=None, short=False):
        r0, r1, c0, c1, last = w
        R, m = src.shape
        whole = r0 == 0 and r1 == R and c0 == 0  # (views equal to the operands: no slicing)
        sv = src if whole and c1 == m else src[r0:r1, c0:c1]
        L, mc = sv.shape
        staged = None
        if mode == "reduce":  # block totals of the whole (R, nbr) array, global numbers
            dv, d_rs = dst, 0
        else:
            hi = c1 + (1 if mode == "total" and last else 0)
            dv = dst if whole and dst.shape == (R, hi) else dst[r0:r1, c0:hi]
            if not dv.fits_binding():  # one block across a buffer boundary: via a copy
                staged, dv = dv, new_output(dv.shape, dv.dtype, self.client)
            d_rs = dv.strides[0] if L > 1 else 0
        if not sv.fits_binding():
            sv = sv.copy()
        k = self._kernel(mode, has_offs, short)
        nb = -(-L // WG) if short else L * (-(-mc // BLOCK))
        gx = min(nb, self.client.max_groups)
        args = dict(S=sv, D=dv, L=L, mc=mc, nbr=nbr, g_base=r0 * nbr + c0 // BLOCK,
                    s_rs=sv.strides[0], s_es=sv.strides[1], d_rs=d_rs,
                    total_col=mc if (mode == "total" and last) else 0xFFFFFFFF)
        if has_offs:
            args["OFF"] = offs
        k.launch((gx, -(-nb // gx), 1), **args)
        if staged is not None:
            _store(dv, staged)


def _store(src, view):
    """Copy the contiguous ``src`` into ``view`` (any view; split over buffers)."""
    from ..codegen.types import RAW
    from ..kernels.nary import launch
    t = RAW[src.itemsize]
    launch(src.client, ("map",), (src,), [t], t, t,
           f"fn op(a: {t.val}, e: u32) -> {t.val} {{ return a; }}", "", view.shape, view,
           scatter=True)


def _windows(src, out, nbr, extra):
    """(r0, r1, c0, c1, last column run) launch windows: whole-row runs when rows fit,
    else runs of blocks inside one row, each fitting one binding (and the output's)."""
    R, m = src.shape
    if src.size < (1 << 30) and src.fits_binding() and R * nbr < (1 << 31) and (
            out is None or (out.size < (1 << 30) and out.fits_binding())):
        return [(0, R, 0, m, True)]  # (the common case, without slicing views)

    def fits(r0, r1, c0, c1, last):
        views = [src[r0:r1, c0:c1]]
        if out is not None:
            views.append(out[r0:r1, c0:c1 + (extra if last else 0)])
        return all(v.size < (1 << 30) and v.fits_binding() for v in views) and \
            (r1 - r0) * -(-(c1 - c0) // BLOCK) < (1 << 31)

    wins = []
    if fits(0, 1, 0, m, True):
        r0 = 0
        while r0 < R:
            n = R - r0
            while n > 1 and not fits(r0, r0 + n, 0, m, True):
                n = (n + 1) // 2
            wins.append((r0, r0 + n, 0, m, True))
            r0 += n
        return wins
    for r in range(R):
        c0 = 0
        while c0 < m:
            nblk = nbr - c0 // BLOCK
            while nblk > 1 and not fits(r, r + 1, c0, min(m, c0 + nblk * BLOCK),
                                        c0 + nblk * BLOCK >= m):
                nblk = (nblk + 1) // 2
            c1 = min(m, c0 + nblk * BLOCK)  # may still straddle a buffer: _launch stages it
            wins.append((r, r + 1, c0, c1, c1 >= m))
            c0 = c1
    return wins


_PLANS = {}


def _plan(client, op, in_dtype, acc_dtype, mode):
    key = (id(client), op, in_dtype, acc_dtype, mode)
    p = _PLANS.get(key)
    if p is None:
        p = _PLANS[key] = ScanPlan(client, op, in_dtype, acc_dtype, mode)
    return p


def scan(src, op, acc_dtype, mode, out=None):
    """Scan the rows of the (rows, m) view ``src`` (see the module docstring)."""
    return _plan(src.client, op, src.dtype, acc_dtype, mode).record(src, out)


def variants():
    out = []
    for d in (dt.bool_, dt.int8, dt.float16, dt.int32, dt.uint32, dt.float32, dt.int64,
              dt.float64, dt.complex64, dt.complex128):
        acc = {dt.bool_: dt.uint32, dt.int8: dt.int32, dt.float16: dt.float32}.get(d, d)
        ops = ("add", "mul") if d.kind in "fc" or d is dt.bool_ else OPS
        if d.kind == "f":
            ops = ("add", "mul", "max", "min")
        for op in ops:
            for mode, offs in (("reduce", False), ("inclusive", True), ("exclusive", False),
                               ("total", True)):
                out.append(ScanSpec(op, WTYPES[d], WTYPES[acc], mode, offs))
            for mode in ("inclusive", "total"):
                out.append(ScanSpec(op, WTYPES[d], WTYPES[acc], mode, False, True))
    return out


_caches.register("primitives.scan _PLANS", _PLANS.clear)
