"""The dispatch-per-round path of one-sided Jacobi, for matrices beyond workgroup memory
(mixin._rotate_all, mixin._finish): RoundSpec (jacobi_round.wgsl) rotates one pair of
columns of one matrix a workgroup, a round a dispatch; FinishSpec (svd_finish.wgsl) then
takes the column norms, the order and the outputs, a workgroup per (column, matrix).
"""

from __future__ import annotations

import dataclasses

from ....._core import dtypes as dt
from ...codegen.layout import Buf, Layout
from ...codegen.spec import KernelSpec
from ...codegen.template import Template
from ...codegen.types import WTYPES, WType
from .jacobi_common import consts, elem_fns, elem_types, lit, needs


@dataclasses.dataclass(frozen=True)
class RoundSpec(KernelSpec):
    """One round-robin round of one-sided Jacobi, a workgroup per (pair, matrix)."""

    t: WType
    vectors: bool

    def needs(self):
        return needs(self.t)

    def layout(self, caps):
        E, T = elem_types(self.t)
        bufs = [Buf("U", E, "rw")]
        if self.vectors:
            bufs.append(Buf("V", E, "rw"))
        bufs.append(Buf("CNT", "atomic<u32>", "rw"))
        return Layout(bufs, ["R", "C", "rnd", "sw", "maxsw"], caps)

    def render(self, caps):
        lay = self.layout(caps)
        k = consts(self.t)
        T = k["T"]
        v_rot = ""
        if self.vectors:
            v_rot = f"""    let vp = {lay.word('V_off')} + b * C * C + pq.x * C;
    let vq = {lay.word('V_off')} + b * C * C + pq.y * C;
    for (var i = lid; i < C; i += 256u) {{
      let x = V[vp + i];
      let y = V[vq + i];
      V[vp + i] = x - (mul(cj(g), y) + h * x);
      V[vq + i] = y + (mul(g, x) - h * y);
    }}"""
        floor = 2.0 ** -124 if T == "f32" else 2.0 ** -1020
        return Template.file(__package__, "jacobi_round.wgsl").render(
            lay.tokens(), k, cfns=elem_fns(self.t), wg=256, floor=lit(T, floor), v_rot=v_rot)

    @property
    def label(self):
        return f"jround_{self.t.name}{'_v' if self.vectors else ''}"


@dataclasses.dataclass(frozen=True)
class FinishSpec(KernelSpec):
    """After RoundSpec's sweeps: column norms, then order and outputs, a workgroup per
    (column, matrix). Completing U's basis stays with SvdSpec(resume=True)."""

    t: WType
    vectors: bool
    entries = ("norms", "small", "write")

    def needs(self):
        return needs(self.t)

    def layout(self, caps):
        E, T = elem_types(self.t)
        bufs = [Buf("U", E), Buf("NRM", T, "rw"), Buf("ZC", "atomic<u32>", "rw"),
                Buf("SV", T, "rw")]
        words = ["R", "C"]
        if self.vectors:
            bufs += [Buf("UO", E, "rw"), Buf("VO", E, "rw"), Buf("VIN", E)]
            words += ["urs", "ucs", "ubs", "vrs", "vcs", "vbs", "pcj", "qcj"]
        return Layout(bufs, words, caps)

    def render(self, caps):
        lay = self.layout(caps)
        k = consts(self.t)
        E, T = k["E"], k["T"]
        cfns = elem_fns(self.t)
        vec_write = ""
        if self.vectors:
            cj = (lambda w: f"select(x, cj(x), {lay.word(w)} != 0u)") if E != T else \
                (lambda w: "x")
            cfns += (f"\nfn pf(x: {E}) -> {E} {{ return {cj('pcj')}; }}"
                     f"\nfn qf(x: {E}) -> {E} {{ return {cj('qcj')}; }}")
            w = lay.word
            vec_write = f"""  let vo = {w('VO_off')} + b * {w('vbs')} + rk * {w('vcs')};
  let vi = {w('VIN_off')} + b * C * C + j * C;
  for (var i = lid; i < C; i += 256u) {{ VO[vo + i * {w('vrs')}] = qf(VIN[vi + i]); }}
  let uo = {w('UO_off')} + b * {w('ubs')} + rk * {w('ucs')};
  let ui = {w('U_off')} + b * R * C + j * R;
  let rs = select({k['zero']}, {k['one']} / sj, sj > TINYN);
  for (var i = lid; i < R; i += 256u) {{ UO[uo + i * {w('urs')}] = pf(U[ui + i] * rs); }}"""
        tiny = 2.0 ** -60 if T == "f32" else 2.0 ** -500
        return Template.file(__package__, "svd_finish.wgsl").render(
            lay.tokens(), k, cfns=cfns, tiny=lit(T, tiny), vec_write=vec_write)

    @property
    def label(self):
        return f"svd_finish_{self.t.name}{'_v' if self.vectors else ''}"


def variants():
    return [cls(WTYPES[d], vec) for d in (dt.float32, dt.float64, dt.complex64, dt.complex128)
            for vec in (False, True) for cls in (RoundSpec, FinishSpec)]
