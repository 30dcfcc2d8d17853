"""float16 GEMM on cooperative matrices (tensor cores), f32 accumulation.

wgpu's experimental ``cooperative-matrix`` feature (Vulkan VK_KHR_cooperative_matrix)
gives WGSL ``enable wgpu_cooperative_matrix;``: subgroup-scoped ``coop_mat16x16<T, R>``
values (role R: A, B or the accumulator C), ``coopLoad`` / ``coopStore`` (column-major
memory, a stride in elements) and ``coopMultiplyAdd(a, b, c) = a * b + c``.

The kernel: a workgroup of ``wm x wn`` subgroups (32 invocations each, NVIDIA's warp)
computes a ``bm x bn`` tile of C; K advances ``bk`` at a time through two pairs of
workgroup tiles (A row-major ``bm x bk``, B row-major ``bk x bn``, f16, rows padded by 8
halves), loaded as vec4<u32> (8 halves) per thread into registers one K tile ahead (one
barrier per K tile). Only column-major loads are used, and they read the row-major tiles
as transposes: the product computed is ``C^T = B^T A^T``, and a column-major store of C^T
is a row-major C. So the kernel relies on nothing but the documented column-major
``coopLoad`` / ``coopStore`` (a ``rowmajor`` variant uses coopLoadT / coopStoreT on the
row-major tiles directly).

Honest detection: the path runs only where the device was granted ``cooperative-matrix``
and ``shader-f16``, and only after a self-test on the device (a 128 x 96 @ 96 x 128 product
of small integers, exact in f16 / f32, compared with NumPy) passed for that configuration;
a compile error or a wrong result turns the path off for the client (``status``), and
every GEMM then takes the f32-compute kernels of spec.py. ``NUMR_WEBGPU_GEMM_COOP=1``
(before the device is created) turns it on; off by default until measured.
Eligible launches: float16 operands with contiguous rows, offsets / strides / K / N
multiples of 8, M and N multiples of the tile, no epilogue, no K-panel accumulation.
"""

from __future__ import annotations

import dataclasses
import os

from ...codegen.layout import Buf, Layout, Words
from ...codegen.spec import KernelSpec
from .spec import batch_fn

SUBGROUP = 32


@dataclasses.dataclass(frozen=True)
class CoopConfig:
    bm: int
    bn: int
    bk: int
    wm: int   # subgroups along M
    wn: int   # subgroups along N
    rowmajor: bool = False   # coopLoadT / coopStoreT (row-major memory) instead of the
    #                          transposed product through column-major loads
    decl_init: bool = False  # accumulators zeroed by declaration, not the constructor
    elem: str = "f16"        # A / B fragments: f16 (16x16) or f32 (8x8: float16 values
    #                          are exact in f32 and in TF32, so still f16 x f16 products)

    @property
    def frag(self):
        return 16 if self.elem == "f16" else 8

    @property
    def pad(self):
        return 8 if self.elem == "f16" else 4   # 16 bytes per tile row

    @property
    def name(self):
        return (f"c{self.bm}x{self.bn}k{self.bk}w{self.wm}x{self.wn}"
                f"{'t' if self.rowmajor else ''}{'d' if self.decl_init else ''}"
                f"{'' if self.elem == 'f16' else '_' + self.elem}")

    @property
    def threads(self):
        return SUBGROUP * self.wm * self.wn

    def shared_bytes(self):
        size = 2 if self.elem == "f16" else 4
        return 2 * size * (self.bm * (self.bk + self.pad) + self.bk * (self.bn + self.pad))


COOP_CONFIGS = {c.name: c for c in (
    CoopConfig(128, 128, 32, 2, 4),   # 8 subgroups of 64 x 32: 8 accumulators each
    CoopConfig(128, 128, 32, 2, 2),   # 4 subgroups of 64 x 64: 16 accumulators each
    CoopConfig(128, 128, 16, 2, 4),
    CoopConfig(64, 64, 32, 2, 2),     # small outputs: more workgroups
    CoopConfig(256, 256, 16, 4, 4),   # 16 subgroups of 64 x 64 (512 invocations)
    # the same tile spelled differently, in case the naga / driver pair refuses a form
    CoopConfig(128, 128, 32, 2, 4, rowmajor=True),
    CoopConfig(128, 128, 32, 2, 4, decl_init=True),
    # f32 8x8 fragments: where the adapter's only configuration is 8x8x8 f32
    CoopConfig(128, 128, 16, 2, 4, elem="f32"),
)}
DEFAULT = "c128x128k32w2x4"
# tried in this order until one passes the self-test (the same tile spelled differently,
# then f32 8x8 fragments)
PREFERENCE = (DEFAULT, "c128x128k32w2x4t", "c128x128k32w2x4d", "c128x128k16w2x4_f32")


ENABLE = ("1", "on", "auto", "true", "yes")


def mode() -> str:
    """'auto' (use where granted and self-tested) when NUMR_WEBGPU_GEMM_COOP is one of
    ENABLE, else 'off' (the default until measured on the GPU machine). The device asks
    for the feature only when enabled at its creation (runtime/client.py)."""
    v = os.environ.get("NUMR_WEBGPU_GEMM_COOP", "0").strip().lower()
    return "auto" if v in ENABLE else "off"


def config_names() -> list:
    """NUMR_WEBGPU_GEMM_COOP_CFG (one name), else PREFERENCE: the first that passes its
    self-test on the device is used."""
    name = os.environ.get("NUMR_WEBGPU_GEMM_COOP_CFG", "").strip()
    return [name] if name in COOP_CONFIGS else list(PREFERENCE)


@dataclasses.dataclass(frozen=True)
class CoopSpec(KernelSpec):
    brank: int
    cfg: CoopConfig

    def needs(self):
        return ("f16", "coop")

    def layout(self, caps):
        return Layout([Buf("A", "vec4<u32>"), Buf("B", "vec4<u32>"), Buf("C", "f32", "rw")],
                      ["M", "N", "K", "nb", "a_rs", "b_rs", "c_rs", "c_bs",
                       Words("batch", max(1, 3 * self.brank))], caps)

    def render(self, caps):
        lay = self.layout(caps)
        c = self.cfg
        nthr = c.threads
        sa, sb = c.bk + c.pad, c.bn + c.pad
        F, E = c.frag, c.elem
        conv = "f16" if E == "f16" else ""
        a_size, b_size = c.bm * sa, c.bk * sb
        ca, cb = c.bm * c.bk // 8, c.bk * c.bn // 8   # 8-half chunks per tile
        ka, nbq = c.bk // 8, c.bn // 8
        tm, tn = c.bm // c.wm // F, c.bn // c.wn // F   # F x F blocks per subgroup
        a_rs, b_rs, c_rs = lay.word("a_rs"), lay.word("b_rs"), lay.word("c_rs")
        ld, st, regs = [], [], []

        def halves(reg, base):
            out = []
            for w, comp in enumerate("xyzw"):
                out.append(f"let h{w} = unpack2x16float({reg}.{comp});")
            for w in range(4):
                out.append(f"{base.format(2 * w)} = {conv}(h{w}.x); "
                           f"{base.format(2 * w + 1)} = {conv}(h{w}.y);")
            return " ".join(out)

        for i in range(-(-ca // nthr)):
            regs.append(f"    var ra{i} = vec4<u32>();")
            guard = f"tid + {i * nthr}u < {ca}u" if (i + 1) * nthr > ca else "true"
            ld.append(f"""        if ({guard}) {{
          let e = tid + {i * nthr}u;
          let gm = row0 + e / {ka}u; let gk = k1 + (e % {ka}u) * 8u;
          ra{i} = vec4<u32>();
          if (gm < M && gk < K) {{ ra{i} = A[(o.x + gm * {a_rs} + gk) >> 3u]; }}
        }}""")
            st.append(f"""        if ({guard}) {{
          let e = tid + {i * nthr}u;
          let p = ab + (e / {ka}u) * {sa}u + (e % {ka}u) * 8u;
          {halves(f"ra{i}", "sa[p + {}u]")}
        }}""")
        for i in range(-(-cb // nthr)):
            regs.append(f"    var rb{i} = vec4<u32>();")
            guard = f"tid + {i * nthr}u < {cb}u" if (i + 1) * nthr > cb else "true"
            ld.append(f"""        if ({guard}) {{
          let e = tid + {i * nthr}u;
          let gk = k1 + e / {nbq}u; let gn = col0 + (e % {nbq}u) * 8u;
          rb{i} = vec4<u32>();
          if (gk < K && gn < N) {{ rb{i} = B[(o.y + gk * {b_rs} + gn) >> 3u]; }}
        }}""")
            st.append(f"""        if ({guard}) {{
          let e = tid + {i * nthr}u;
          let p = bb + (e / {nbq}u) * {sb}u + (e % {nbq}u) * 8u;
          {halves(f"rb{i}", "sb[p + {}u]")}
        }}""")
        decl, inner, stores = [], [], []
        for i in range(tm):
            for j in range(tn):
                decl.append(f"    var acc{i}_{j}: coop_mat{F}x{F}<f32, C>;" if c.decl_init else
                            f"    var acc{i}_{j} = coop_mat{F}x{F}<f32, C>();")
        for ks in range(c.bk // F if not c.rowmajor else 0):
            for i in range(tm):   # A^T blocks: role B (16 k x 16 m)
                inner.append(f"        let y{ks}_{i} = coopLoad<coop_mat{F}x{F}<{E}, B>>("
                             f"&sa[ab + (wm0 + {F * i}u) * {sa}u + {F * ks}u], {sa}u);")
            for j in range(tn):   # B^T blocks: role A (16 n x 16 k)
                inner.append(f"        let x{ks}_{j} = coopLoad<coop_mat{F}x{F}<{E}, A>>("
                             f"&sb[bb + {F * ks}u * {sb}u + wn0 + {F * j}u], {sb}u);")
            for i in range(tm):
                for j in range(tn):
                    inner.append(f"        acc{i}_{j} = coopMultiplyAdd(x{ks}_{j}, y{ks}_{i}, "
                                 f"acc{i}_{j});")
        for ks in range(c.bk // F if c.rowmajor else 0):
            for i in range(tm):   # A blocks, row-major: role A (16 m x 16 k)
                inner.append(f"        let a{ks}_{i} = coopLoadT<coop_mat{F}x{F}<{E}, A>>("
                             f"&sa[ab + (wm0 + {F * i}u) * {sa}u + {F * ks}u], {sa}u);")
            for j in range(tn):   # B blocks, row-major: role B (16 k x 16 n)
                inner.append(f"        let b{ks}_{j} = coopLoadT<coop_mat{F}x{F}<{E}, B>>("
                             f"&sb[bb + {F * ks}u * {sb}u + wn0 + {F * j}u], {sb}u);")
            for i in range(tm):
                for j in range(tn):
                    inner.append(f"        acc{i}_{j} = coopMultiplyAdd(a{ks}_{i}, b{ks}_{j}, "
                                 f"acc{i}_{j});")
        store = "coopStoreT" if c.rowmajor else "coopStore"
        for i in range(tm):
            for j in range(tn):
                stores.append(f"    {store}(acc{i}_{j}, &C[cb + (row0 + wm0 + {F * i}u) * "
                              f"{c_rs} + col0 + wn0 + {F * j}u], {c_rs});")
        nl = "\n"
        return f"""enable f16;
enable wgpu_cooperative_matrix;
{lay.decl()}
var<workgroup> sa: array<{E}, {2 * a_size}>;
var<workgroup> sb: array<{E}, {2 * b_size}>;
{batch_fn(lay, self.brank)}
@compute @workgroup_size({nthr})
fn main(@builtin(local_invocation_index) tid: u32, @builtin(workgroup_id) wg: vec3<u32>,
        @builtin(num_workgroups) nw: vec3<u32>) {{
  let M = {lay.word('M')}; let N = {lay.word('N')}; let K = {lay.word('K')};
  let nb = {lay.word('nb')};
  let sg = tid / {SUBGROUP}u;
  let wm0 = (sg / {c.wn}u) * {c.bm // c.wm}u; let wn0 = (sg % {c.wn}u) * {c.bn // c.wn}u;
  let row0 = wg.y * {c.bm}u; let col0 = wg.x * {c.bn}u;
  let nt = (K + {c.bk - 1}u) / {c.bk}u;
  for (var bi = wg.z; bi < nb; bi += nw.z) {{
    let o = batch_off(bi);
{nl.join(decl)}
{nl.join(regs)}
    {{
      let k1 = 0u;
{nl.join(ld)}
      let ab = 0u; let bb = 0u;
{nl.join(st)}
    }}
    workgroupBarrier();
    for (var kt = 0u; kt < nt; kt++) {{
      let cur = kt & 1u;
      let more = kt + 1u < nt;
      if (more) {{
        let k1 = (kt + 1u) * {c.bk}u;
{nl.join(ld)}
      }}
      {{
        let ab = cur * {a_size}u; let bb = cur * {b_size}u;
{nl.join(inner)}
      }}
      if (more) {{
        let ab = (1u - cur) * {a_size}u; let bb = (1u - cur) * {b_size}u;
{nl.join(st)}
      }}
      workgroupBarrier();
    }}
    let cb = {lay.word('C_off')} + bi * {lay.word('c_bs')};
{nl.join(stores)}
  }}
}}
"""

    @property
    def label(self):
        return f"gemm_coop_f16_b{self.brank}_{self.cfg.name}"


def eligible(a, b, c, K, N, M, sa, sb, cfg, accumulate, epilogue):
    """Host-side conditions of one coop launch (views a: (..., M, K), b: (..., K, N), c the
    f32 output panel; sa / sb: A's and B's collapsed batch strides)."""
    if accumulate or epilogue is not None:
        return False
    if M % cfg.bm or N % cfg.bn or K % 8 or K == 0:
        return False
    if a.strides[-1] != 1 or b.strides[-1] != 1 or c.strides[-1] != 1:
        return False
    if a.strides[-2] % 8 or b.strides[-2] % 8 or c.strides[-2] % 4:
        return False
    if any(s % 8 for s in sa) or any(s % 8 for s in sb):
        return False
    if c.ndim > 2 and c.strides[-3] % 4:
        return False
    return (a.binding()[3] % 8 == 0 and b.binding()[3] % 8 == 0
            and c.binding()[3] % 4 == 0)


def select(client):
    """(the CoopConfig to use or None, a status line): 'on <name>', 'off' (the
    environment), 'unavailable' (feature not granted), or why every candidate's self-test
    failed. Self-tests run once per client and configuration, on first use."""
    if mode() == "off":
        return None, "off"
    if "cooperative-matrix" not in client.features or "shader-f16" not in client.features:
        why = getattr(client, "coop_refused", None)
        return None, "unavailable" + (f" (device request refused: {why})" if why else "")
    cache = client.__dict__.setdefault("_numr_coop", {})
    fails = []
    for name in config_names():
        if name not in cache:
            cache[name] = "testing"
            try:
                cache[name] = _self_test(client, COOP_CONFIGS[name])
            except Exception as exc:  # noqa: BLE001 - any failure: the next, or f32 compute
                cache[name] = f"self-test failed: {type(exc).__name__}: {str(exc)[:300]}"
        if cache[name] == "on":
            return COOP_CONFIGS[name], f"on {name}"
        fails.append(f"{name}: {cache[name]}")
    return None, "; ".join(fails)


def status(client):
    return select(client)[1]


def _self_test(client, cfg):
    import numpy as np

    from ...transfer import from_numpy
    from ...storage import new_output
    from ....._core import dtypes as dt
    rng = np.random.default_rng(7)
    M, N, K = cfg.bm, cfg.bn, 3 * cfg.bk + 8 * (cfg.bk > 8)
    a = rng.integers(-3, 4, (M, K)).astype(np.float16)
    b = rng.integers(-3, 4, (K, N)).astype(np.float16)
    ga, gb = from_numpy(a, client), from_numpy(b, client)
    out = new_output((M, N), dt.float32, client)
    launch(client, ga, gb, out, (), [], [], cfg)
    got = out.to_numpy()
    want = a.astype(np.float32) @ b.astype(np.float32)
    if not np.array_equal(got, want):
        bad = int(np.sum(got != want))
        tr = np.array_equal(got, want.T)
        return f"self-test wrong: {bad} of {got.size} differ{' (transposed)' if tr else ''}"
    return "on"


def launch(client, ab, bb, out, bshape, sa, sb, cfg):
    """One coop dispatch of C = A @ B (views already checked by ``eligible``)."""
    M, K = ab.shape[-2:]
    N = bb.shape[-1]
    batch = out.shape[:-2]
    nb = 1
    for n in batch:
        nb *= n
    k = client.kernel(CoopSpec(len(bshape), cfg))
    words = []
    for d in range(len(bshape)):
        words += [bshape[d], sa[d], sb[d]]
    c_bs = out.strides[-3] if batch else 0
    k.launch((N // cfg.bn, M // cfg.bm, max(1, min(nb, client.max_groups))), A=ab, B=bb,
             C=out, M=M, N=N, K=K, nb=nb, a_rs=ab.strides[-2], b_rs=bb.strides[-2],
             c_rs=out.strides[-2], c_bs=c_bs, batch=words or [0])


def variants():
    return [CoopSpec(r, c) for c in COOP_CONFIGS.values() for r in (0, 1)]
