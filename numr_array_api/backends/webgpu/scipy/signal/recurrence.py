"""Linear recurrences (IIR filters) on the GPU: a chunked parallel scan over state space.

A filter of order N in transposed direct form II is the affine recurrence

    y[n] = D x[n] + z0[n-1]          z[n] = A z[n-1] + B x[n]

(A the companion matrix of the denominator, B = b[1:] - a[1:] b0, D = b0, a[0] = 1). The
state after a stretch of samples is A^len times the state before plus the stretch's own
contribution from a zero state, so stretches combine associatively and a row of L samples
splits into independent pieces:

1. ``local``: a workgroup owns a block of WG * C samples of one row, staged through
   workgroup memory (coalesced loads). Each thread runs its chunk of C samples from a zero
   state; a Hillis-Steele scan over the workgroup (log2 WG steps, P_d = A^(C 2^d)) combines
   the chunk states, and the last thread writes the block's state.
2. ``carry``: one thread per row walks the blocks in order, S_b = A^(WG C) S_(b-1) +
   local_b, starting from ``zi``: the state entering every block.
3. ``apply``: each block again: chunk states from zero, the block's entering state folded
   into the first chunk's, the same scan (now every chunk's true end state), then every
   thread runs its chunk from the previous chunk's end state and writes y (through
   workgroup memory); the thread holding a row's last sample writes its final state ``zf``.

x is read twice and y written once; the sequential parts are C samples per thread, log2 WG
scan steps and L / (WG C) carry steps of N x N products. The powers of A are computed on
the host in float64 from the (host) coefficients, in the eigenbasis of A (``modal_basis``), and the block states are combined
in float64 where the adapter has it (``state_dtype``): in the companion basis the powers of
a narrow filter have large entries that cancel, which costs digits in float64 and can make
float32 combinations unstable. What remains is the conditioning of the filter itself, as
in SciPy's sample-by-sample loop (narrow high-order filters in (b, a) form lose accuracy
in any arithmetic; SciPy recommends second-order sections, order 2 each here).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ....._core import dtypes as D
from ....._core.errors import BackendLimitation
from ...codegen.layout import Buf, Layout
from ...codegen.spec import KernelSpec
from ...codegen.template import Template
from ...codegen.types import WTYPES
from ...storage import new_output
from .direct import WINDOW_SLACK

__all__ = ["ScanSpec", "run_recurrence", "coefficient_table", "max_order", "state_dtype", "WG",
           "CHUNK"]

WG = 64          # threads (chunks) of one block
CHUNK = 32       # samples of one chunk
BLOCK = WG * CHUNK
LOG_WG = WG.bit_length() - 1

# Every state lives in scalar registers (z0..z<N-1>, s0..): the code is unrolled over the
# order N, since a runtime-indexed private array is spilled to per-invocation memory.
# Tables: cf (data type) a[1..N] | B[0..N) | D; pw (state type), N x N each:
# T^-1 | T | P_0 .. P_LOG_WG with P_d = A'^(C 2^d), A' = T^-1 A T (coefficient_table).


def _v(name, n):
    return [f"{name}{i}" for i in range(n)]


def _coeffs(N):
    lines = [f"let a{i} = cf[${{cf_off}} + {i}u];" for i in range(N)]
    lines += [f"let b{i} = cf[${{cf_off}} + {N + i}u];" for i in range(N)]
    return "\n  ".join(lines)


def _step(N, xv):
    """One sample of the transposed direct form II from state z (z0 read before it moves)."""
    lines = ["let zo = z0;"]
    for i in range(N - 1):
        lines.append(f"z{i} = b{i} * {xv} - a{i} * zo + z{i + 1};")
    lines.append(f"z{N - 1} = b{N - 1} * {xv} - a{N - 1} * zo;")
    return "\n    ".join(lines)


def _matvec(N, dst, mat, src, add=None, cast=""):
    """dst_i = sum_j pw[mat + i N + j] src_j (+ add_i), as lets."""
    out = []
    for i in range(N):
        terms = " + ".join(f"pw[{mat} + {i * N + j}u] * {cast}({src[j]})" for j in range(N))
        base = f"{add[i]} + " if add else ""
        out.append(f"let {dst[i]} = {base}{terms};")
    return "\n  ".join(out)


def _head(N):
    return f"""${{layout}}
var<workgroup> sx: array<${{T}}, ${{SX}}>;
var<workgroup> sz: array<${{S}}, ${{SZ}}>;

const C: u32 = ${{C}}u;
const WG: u32 = ${{WG}}u;
const BL: u32 = ${{BL}}u;
const NN: u32 = {N * N}u;

// the block's samples of one row into workgroup memory, chunk-major with a padding slot
fn stage(row: u32, blk: u32, tid: u32) {{
  let L = ${{L}};
  for (var i = tid; i < BL; i += WG) {{
    let n = blk * BL + i;
    var v = ${{T}}(0);
    if (n < L) {{ v = x[${{x_off}} + row * L + n]; }}
    sx[(i / C) * (C + 1u) + i % C] = v;
  }}
}}

@compute @workgroup_size(${{WG}})
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nw: vec3<u32>) {{
  let tid = lid.x;
  // one workgroup per (row, block); the index is workgroup-uniform, so the return is too
  let w = wid.x + wid.y * nw.x;
  if (w >= ${{rows}} * ${{nblk}}) {{ return; }}
  let blk = w % ${{nblk}};
  let row = w / ${{nblk}};
  {_coeffs(N)}
  stage(row, blk, tid);
  workgroupBarrier();
  // this thread's chunk from a zero state
  {"; ".join(f"var z{i} = ${{T}}(0)" for i in range(N))};
  let base = tid * (C + 1u);
  for (var j = 0u; j < C; j++) {{
    let xv = sx[base + j];
    {_step(N, "xv")}
  }}
  let po = ${{pw_off}};
  // into the basis the powers are written in
  {_matvec(N, _v("t", N), "po", _v("z", N), cast="${S}")}
  {"; ".join(f"var s{i} = t{i}" for i in range(N))};
"""


def _scan(N):
    """Inclusive scan of the chunk states over the workgroup (Hillis-Steele): after step d,
    s(t) = sum over the 2^(d+1) chunks up to t of P^(t - k) s(k); P^(2^d) = P_d."""
    store = "; ".join(f"sz[tid * {N}u + {i}u] = s{i}" for i in range(N))
    prev = "; ".join(f"let q{i} = sz[(tid - h) * {N}u + {i}u]" for i in range(N))
    upd = _matvec(N, _v("u", N), "m", _v("q", N), add=_v("s", N))
    assign = "; ".join(f"s{i} = u{i}" for i in range(N))
    return f"""
  for (var d = 0u; d < {LOG_WG}u; d++) {{
    let h = 1u << d;
    {store};
    workgroupBarrier();
    if (tid >= h) {{
      let m = po + (2u + d) * NN;
      {prev};
      {upd}
      {assign};
    }}
    workgroupBarrier();
  }}
"""


def _local(N):
    st = "; ".join(f"st[o + {i}u] = s{i}" for i in range(N))
    return _head(N) + _scan(N) + f"""
  if (tid == WG - 1u) {{
    let o = ${{st_off}} + (row * ${{nblk}} + blk) * {N}u;
    {st};
  }}
}}
"""


def _apply(N):
    enter = "; ".join(f"let e{i} = st[o + {i}u]" for i in range(N))
    seed = _matvec(N, _v("f", N), "po + 2u * NN", _v("e", N), add=_v("s", N))
    reseed = "; ".join(f"s{i} = f{i}" for i in range(N))
    store = "; ".join(f"sz[tid * {N}u + {i}u] = s{i}" for i in range(N))
    pick = "; ".join(f"g{i} = sz[(tid - 1u) * {N}u + {i}u]" for i in range(N))
    gvars = "; ".join(f"var g{i} = e{i}" for i in range(N))
    back = "\n  ".join(
        f"z{i} = ${{T}}(" + " + ".join(f"pw[po + NN + {i * N + j}u] * g{j}" for j in range(N)) + ");"
        for i in range(N))
    zf = "; ".join(f"zf[${{zf_off}} + row * {N}u + {i}u] = z{i}" for i in range(N))
    return _head(N) + f"""
  // the block's entering state (carry) seeds the first chunk, so the scan gives true states
  let o = ${{st_off}} + (row * ${{nblk}} + blk) * {N}u;
  {enter};
  if (tid == 0u) {{
    {seed}
    {reseed};
  }}
""" + _scan(N) + f"""
  {store};
  workgroupBarrier();
  // this chunk's entering state: the previous chunk's end (the block's for the first)
  {gvars};
  if (tid > 0u) {{ {pick}; }}
  {back}
  let L = ${{L}};
  let n0 = blk * BL + tid * C;
  let dd = cf[${{cf_off}} + {2 * N}u];
  for (var j = 0u; j < C; j++) {{
    let xv = sx[base + j];
    sx[base + j] = dd * xv + z0;
    {_step(N, "xv")}
    if (n0 + j + 1u == L) {{ {zf}; }}
  }}
  workgroupBarrier();
  for (var i = tid; i < BL; i += WG) {{
    let n = blk * BL + i;
    if (n < L) {{ y[${{y_off}} + row * L + n] = sx[(i / C) * (C + 1u) + i % C]; }}
  }}
}}
"""


def _carry(N):
    """One thread per row walks its blocks: S_b = P_LOG_WG S_(b-1) + local_b from zi."""
    zi = "; ".join(f"let c{i} = ${{S}}(zi[${{zi_off}} + row * {N}u + {i}u])" for i in range(N))
    init = _matvec(N, _v("t", N), "po", _v("c", N))
    sv = "; ".join(f"var s{i} = t{i}" for i in range(N))
    loc = "; ".join(f"let l{i} = st[${{st_off}} + o + {i}u]" for i in range(N))
    nxt = _matvec(N, _v("u", N), f"po + {2 + LOG_WG}u * NN", _v("s", N), add=_v("l", N))
    put = "; ".join(f"st[${{st_off}} + o + {i}u] = s{i}" for i in range(N))
    assign = "; ".join(f"s{i} = u{i}" for i in range(N))
    return f"""${{layout}}
const NN: u32 = {N * N}u;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {{
  let row = g.x;
  if (row >= ${{rows}}) {{ return; }}
  let po = ${{pw_off}};
  {zi};
  {init}
  {sv};
  for (var b = 0u; b < ${{nblk}}; b++) {{
    let o = (row * ${{nblk}} + b) * {N}u;
    {loc};
    {nxt}
    {put};
    {assign};
  }}
}}
"""


_KERNELS = {"local": _local, "carry": _carry, "apply": _apply}


@dataclasses.dataclass(frozen=True)
class ScanSpec(KernelSpec):
    dtype: object      # the data's: float32 or float64
    state: object      # the block states' and powers': float64 where the adapter has it
    order: int         # N >= 1
    stage: str         # "local" | "carry" | "apply"

    def needs(self):
        return ("f64",) if D.float64 in (self.dtype, self.state) else ()

    def layout(self, caps):
        t = WTYPES[self.dtype].arr
        u = WTYPES[self.state].arr
        if self.stage == "local":
            bufs = [Buf("x", t), Buf("cf", t), Buf("pw", u), Buf("st", u, "rw")]
        elif self.stage == "carry":
            bufs = [Buf("zi", t), Buf("pw", u), Buf("st", u, "rw")]
        else:
            bufs = [Buf("x", t), Buf("cf", t), Buf("pw", u), Buf("st", u), Buf("y", t, "rw"),
                    Buf("zf", t, "rw")]
        return Layout(bufs, ["L", "rows", "nblk"], caps)

    def render(self, caps):
        lay = self.layout(caps)
        toks = lay.tokens()
        T = WTYPES[self.dtype].val
        S = WTYPES[self.state].val
        tpl = Template(_KERNELS[self.stage](self.order), f"iir_{self.stage}")
        if self.stage == "carry":
            toks.pop("L")
            return tpl.render(toks, S=S)
        return tpl.render(toks, T=T, S=S, C=str(CHUNK), WG=str(WG), BL=str(BLOCK),
                          SX=str(WG * (CHUNK + 1)), SZ=str(WG * self.order))


def state_dtype(dtype, caps):
    """The block states and powers of A are float64 whenever the adapter has it: A^C of a
    narrow filter has large entries of alternating sign (its powers cancel), and rounding
    them to float32 can move the eigenvalues of the product outside the unit circle."""
    return D.float64 if caps.f64 else dtype


def max_order(dtype, caps):
    """The largest order whose block fits the adapter's workgroup memory."""
    per = WTYPES[dtype].itemsize
    sper = WTYPES[state_dtype(dtype, caps)].itemsize
    free = caps.workgroup_storage - WG * (CHUNK + 1) * per
    return max(0, free // (WG * sper))


def coefficient_table(b, a, np_dtype, state_np):
    """(cf, pw, N): the tables the kernels read (``tab`` / ``pow_``) from 1-D host b, a
    with a[0] != 0."""
    b = np.asarray(b, np.float64) / a[0]
    a = np.asarray(a, np.float64) / a[0]
    N = max(len(a), len(b)) - 1
    bb = np.zeros(N + 1)
    aa = np.zeros(N + 1)
    bb[:len(b)] = b
    aa[:len(a)] = a
    # the recursion runs on the coefficients as rounded to the data's dtype (as SciPy's
    # does): the powers are those of that rounded filter
    cf = np.concatenate([aa[1:], bb[1:] - aa[1:] * bb[0], [bb[0]]]).astype(np_dtype)
    ar = cf[:N].astype(np.float64)
    A = np.zeros((N, N))
    A[:, 0] = -ar
    A[np.arange(N - 1), np.arange(1, N)] = 1.0
    T = modal_basis(A)
    Ti = np.linalg.inv(T)
    P = [np.linalg.matrix_power(Ti @ A @ T, CHUNK)]
    for _ in range(LOG_WG):
        P.append(P[-1] @ P[-1])
    pw = np.concatenate([Ti.ravel(), T.ravel()] + [m.ravel() for m in P])
    return cf, pw.astype(state_np), N


def modal_basis(A):
    """Columns T with T^-1 A T block diagonal (the real and imaginary parts of the
    eigenvectors), or the identity when A is too close to defective for that.

    The companion matrix is far from normal: its powers have entries of 1e3..1e7 that
    cancel (narrow filters), so block states combined with them lose that many digits.
    In the eigenbasis the powers are rotations scaled by |pole|^k, entries at most 1; the
    price is the basis change, whose error grows with the basis's condition number only.
    """
    N = A.shape[0]
    lam, V = np.linalg.eig(A)
    cols = []
    for k in range(N):
        if lam[k].imag == 0:
            cols.append(V[:, k].real)
        elif lam[k].imag > 0:            # the conjugate partner adds nothing new
            cols += [V[:, k].real, V[:, k].imag]
    if len(cols) != N:
        return np.eye(N)
    T = np.column_stack(cols)
    T = T / np.linalg.norm(T, axis=0)
    cond = np.linalg.cond(T)
    return T if np.isfinite(cond) and cond < _MAX_BASIS_COND else np.eye(N)


_MAX_BASIS_COND = 1e10


def _grid(groups, client):
    gx = min(groups, 32768, client.max_groups)
    return (gx, -(-groups // gx), 1)


def run_recurrence(x, cf, pw, order, zi):
    """(y, zf): the filter of the tables ``cf`` / ``pw`` (coefficient_table, uploaded) over
    the rows of the contiguous (rows, L) storage ``x`` from the (rows, N) states ``zi``.
    Rows go in groups whose samples fit one storage binding."""
    client = x.client
    rows, L = x.shape
    y = new_output((rows, L), x.dtype, client)
    zf = new_output((rows, order), x.dtype, client)
    row_bytes = L * x.itemsize
    budget = client.max_binding - WINDOW_SLACK
    if row_bytes > budget:
        raise BackendLimitation("webgpu", f"a recursive filter over rows of {L} samples",
                                f"one row must fit a storage binding ({client.max_binding} "
                                "bytes on this adapter)")
    group = max(1, min(rows, budget // row_bytes))
    for r0 in range(0, rows, group):
        r1 = min(rows, r0 + group)
        _run_rows(x[r0:r1], cf, pw, order, zi[r0:r1], y[r0:r1], zf[r0:r1])
    return y, zf


def _run_rows(x, cf, pw, order, zi, y, zf):
    client = x.client
    rows, L = x.shape
    nblk = -(-L // BLOCK)
    st = new_output((rows * nblk * order,), pw.dtype, client)
    grid = _grid(rows * nblk, client)
    words = dict(L=L, rows=rows, nblk=nblk)
    client.kernel(ScanSpec(x.dtype, pw.dtype, order, "local")).launch(
        grid, x=x, cf=cf, pw=pw, st=st, **words)
    client.kernel(ScanSpec(x.dtype, pw.dtype, order, "carry")).launch(
        (-(-rows // 64), 1, 1), zi=zi, pw=pw, st=st, rows=rows, nblk=nblk)
    client.kernel(ScanSpec(x.dtype, pw.dtype, order, "apply")).launch(
        grid, x=x, cf=cf, pw=pw, st=st, y=y, zf=zf, **words)


def variants():
    pairs = ((D.float32, D.float64), (D.float64, D.float64), (D.float32, D.float32))
    return [ScanSpec(dt, st, n, s) for dt, st in pairs for n in (1, 2)
            for s in ("local", "carry", "apply")]
