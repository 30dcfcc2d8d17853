"""eig / eigvals as a spec: EigSpec, the complex Schur form of a real or complex matrix by
shifted QR on the Hessenberg form, one workgroup per matrix in scratch memory (eig.wgsl;
eig_vectors.wgsl: the eigenvectors from the Schur form). conj.py then pairs the
eigenvalues of real input.
"""

from __future__ import annotations

import dataclasses

from ....._core import dtypes as dt
from ...codegen.layout import Buf, Layout
from ...codegen.spec import KernelSpec
from ...codegen.template import Template
from ...codegen.types import WTYPES, WType
from .jacobi_common import consts, elem_fns, lit, needs


@dataclasses.dataclass(frozen=True)
class EigSpec(KernelSpec):
    """eig / eigvals: complex Schur form of a real or complex matrix (scratch memory)."""

    t: WType          # input element type (float32 / float64 / complex64 / complex128)
    vectors: bool

    def needs(self):
        return needs(self.t)

    @property
    def ct(self) -> WType:
        return WTYPES[dt.complex128 if "f64" in self.t.val else dt.complex64]

    def wg(self) -> int:
        return 256

    def layout(self, caps):
        E = self.ct.val
        bufs = [Buf("A", self.t.val), Buf("W", E, "rw"), Buf("ST", "u32", "rw")]
        if self.vectors:
            bufs.append(Buf("V", E, "rw"))
        bufs.append(Buf("S", E, "rw"))
        return Layout(bufs, ["n", "nb", "sstride"], caps)

    @staticmethod
    def scratch(n: int, vectors: bool) -> int:
        return n * n * (3 if vectors else 1)

    def render(self, caps):
        lay = self.layout(caps)
        k = consts(self.ct)
        E, T = k["E"], k["T"]
        cfns = elem_fns(self.ct)
        if self.t.val == E:
            cfns += (f"\nfn toe(x: {E}) -> {E} {{ return x; }}"
                     f"\nfn amaxi(x: {E}) -> {T} {{ return amax(x); }}")
        else:
            cfns += (f"\nfn toe(x: {T}) -> {E} {{ return tov(x); }}"
                     f"\nfn amaxi(x: {T}) -> {T} {{ return abs(x); }}")
        if self.vectors:
            q_init = f"      S[oq + e] = select({k['ezero']}, tov({k['one']}), e / n == e % n);"
            q_rot = """    let qx = S[oq + i * n + k];
    let qy = S[oq + i * n + k + 1u];
    S[oq + i * n + k] = c * qx + mul(qy, cj(s));
    S[oq + i * n + k + 1u] = c * qy - mul(qx, s);"""
            vec_out = Template.file(__package__, "eig_vectors.wgsl").render(
                lay.tokens(), k, wg=self.wg()).rstrip("\n")
        else:
            q_init = q_rot = vec_out = ""
        tiny = lit(T, 2.0 ** -120 if T == "f32" else 2.0 ** -1000)
        wg = self.wg()
        row_loop = _par("j", wg, """let x = h(k, j, n);
let y = h(k + 1u, j, n);
hset(k, j, n, c * x + mul(s, y));
hset(k + 1u, j, n, c * y - mul(cj(s), x));""")
        col_loop = _par("i", wg, """let x = h(i, k, n);
let y = h(i, k + 1u, n);
hset(i, k, n, c * x + mul(y, cj(s)));
hset(i, k + 1u, n, c * y - mul(x, s));
""" + q_rot)
        defl_loop = _par("l", wg, """if (l >= 1u && l <= hi0) {
  let sub = cabs1(h(l, l - 1u, n));
  let dsum = cabs1(h(l - 1u, l - 1u, n)) + cabs1(h(l, l, n));
  if (sub <= max(EPS * dsum, TINY)) {
    hset(l, l - 1u, n, """ + k["ezero"] + """);
    atomicMax(&DL, l);
  }
}""", "      ")
        return Template.file(__package__, "eig.wgsl").render(
            lay.tokens(), k, cfns=cfns, wg=wg, tiny=tiny, q_init=q_init,
            vec_out=vec_out, row_loop=row_loop, col_loop=col_loop, defl_loop=defl_loop)

    @property
    def label(self):
        return f"eig_{self.t.name}{'_v' if self.vectors else ''}"


def _par(var: str, wg: int, body: str, indent: str = "  ") -> str:
    """``body`` for every ``var`` in [0, n) over the workgroup: loop-free when n <= wg, since
    lavapipe counts a loop's iterations over every entry (and this runs per rotation)."""
    inner = "\n".join(f"{indent}    {ln}" for ln in body.strip().splitlines())
    return "\n".join([
        f"{indent}if (n <= {wg}u) {{", f"{indent}  let {var} = lid;",
        f"{indent}  if ({var} < n) {{", inner, f"{indent}  }}", f"{indent}}} else {{",
        f"{indent}  for (var {var} = lid; {var} < n; {var} += {wg}u) {{", inner,
        f"{indent}  }}", f"{indent}}}"])


def variants():
    return [EigSpec(WTYPES[d], v) for d in (dt.float32, dt.float64, dt.complex64,
                                            dt.complex128) for v in (False, True)]
