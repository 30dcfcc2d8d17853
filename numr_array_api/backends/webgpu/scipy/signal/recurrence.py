"""Linear recurrences (IIR filters) on the GPU: a chunked parallel scan over state space.

A filter of order N in transposed direct form II is the affine recurrence

    y[n] = D x[n] + z0[n-1]          z[n] = A z[n-1] + B x[n]

(A the companion matrix of the denominator, B = b[1:] - a[1:] b0, D = b0, a[0] = 1). The
state after a stretch of samples is A^len times the state before plus the stretch's own
contribution from a zero state, so stretches combine associatively and a row of L samples
splits into independent pieces:

1. ``local``: a workgroup owns a block of WG * C samples of one row, staged through
   workgroup memory (coalesced loads). Each thread runs its chunk of C samples from a zero
   state; one thread then folds the WG chunk states into the block's state (with A^C).
2. ``carry``: one thread per row walks the blocks in order, S_b = A^(WG C) S_(b-1) +
   local_b, starting from ``zi``: the state entering every block.
3. ``apply``: each block again: chunk states from zero, the entering state of every chunk
   from the block's (A^C), then every thread runs its chunk from its true state and writes
   y (through workgroup memory); the thread holding a row's last sample writes its final
   state ``zf``.

x is read twice and y written once; the sequential parts are WG and L / (WG C) steps of
N x N products. The powers of A are computed on the host in float64 from the (host)
coefficients, in the eigenbasis of A (``modal_basis``), and the block states are combined
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

_COMMON = """${layout}
var<workgroup> sx: array<${T}, ${SX}>;
var<workgroup> sz: array<${S}, ${SZ}>;

const N: u32 = ${N}u;
const C: u32 = ${C}u;
const WG: u32 = ${WG}u;
const BL: u32 = ${BL}u;

// cf (data type): a[1..N] | B[0..N) | D
// pw (state type), N x N each: A'^C | A'^(WG C) | T^-1 | T, A' = T^-1 A T (coefficient_table)
fn tab(i: u32) -> ${T} { return cf[${cf_off} + i]; }
fn pow_(i: u32) -> ${S} { return pw[${pw_off} + i]; }

// the block's samples of one row into workgroup memory, chunk-major with a padding slot
fn stage(row: u32, blk: u32, tid: u32) {
  let L = ${L};
  for (var i = tid; i < BL; i += WG) {
    let n = blk * BL + i;
    var v = ${T}(0);
    if (n < L) { v = x[${x_off} + row * L + n]; }
    sx[(i / C) * (C + 1u) + i % C] = v;
  }
}

// every thread: its chunk's state from a zero state into sz[tid * N ..]
fn chunk_local(tid: u32) {
  var z: array<${T}, ${N}>;
  let base = tid * (C + 1u);
  for (var j = 0u; j < C; j++) {
    let xv = sx[base + j];
    let z0 = z[0];
    for (var i = 0u; i + 1u < N; i++) {
      z[i] = tab(N + i) * xv - tab(i) * z0 + z[i + 1u];
    }
    z[N - 1u] = tab(2u * N - 1u) * xv - tab(N - 1u) * z0;
  }
  // into the basis the powers are written in (see coefficient_table)
  for (var i = 0u; i < N; i++) {
    var acc = ${S}(0);
    for (var j = 0u; j < N; j++) { acc += pow_(2u * N * N + i * N + j) * ${S}(z[j]); }
    sz[tid * N + i] = acc;
  }
}

// s <- P s + v for the N x N power at pw offset p
fn affine(s: ptr<function, array<${S}, ${N}>>, p: u32, v: ptr<function, array<${S}, ${N}>>) {
  var t: array<${S}, ${N}>;
  for (var i = 0u; i < N; i++) {
    var acc = (*v)[i];
    for (var j = 0u; j < N; j++) { acc += pow_(p + i * N + j) * (*s)[j]; }
    t[i] = acc;
  }
  *s = t;
}
"""

_HEAD = """
@compute @workgroup_size(${WG})
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nw: vec3<u32>) {
  let tid = lid.x;
  // one workgroup per (row, block); the index is workgroup-uniform, so the return is too
  let w = wid.x + wid.y * nw.x;
  if (w >= ${rows} * ${nblk}) { return; }
  let blk = w % ${nblk};
  let row = w / ${nblk};
  stage(row, blk, tid);
  workgroupBarrier();
  chunk_local(tid);
  workgroupBarrier();
"""

_LOCAL = Template(_COMMON + _HEAD + """
  if (tid == 0u) {
    var s: array<${S}, ${N}>;
    for (var t = 0u; t < WG; t++) {
      var v: array<${S}, ${N}>;
      for (var i = 0u; i < N; i++) { v[i] = sz[t * N + i]; }
      affine(&s, 0u, &v);
    }
    let o = ${st_off} + (row * ${nblk} + blk) * N;
    for (var i = 0u; i < N; i++) { st[o + i] = s[i]; }
  }
}
""", "iir_local")

_CARRY = Template("""${layout}
const N: u32 = ${N}u;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
  let row = g.x;
  if (row >= ${rows}) { return; }
  var s: array<${S}, ${N}>;
  for (var i = 0u; i < N; i++) {
    var acc = ${S}(0);
    for (var j = 0u; j < N; j++) {
      acc += pw[${pw_off} + 2u * N * N + i * N + j] * ${S}(zi[${zi_off} + row * N + j]);
    }
    s[i] = acc;
  }
  let p = N * N;
  for (var b = 0u; b < ${nblk}; b++) {
    let o = (row * ${nblk} + b) * N;
    var t: array<${S}, ${N}>;
    for (var i = 0u; i < N; i++) {
      var acc = st[${st_off} + o + i];
      for (var j = 0u; j < N; j++) { acc += pw[${pw_off} + p + i * N + j] * s[j]; }
      t[i] = acc;
    }
    for (var i = 0u; i < N; i++) { st[${st_off} + o + i] = s[i]; }
    s = t;
  }
}
""", "iir_carry")

_APPLY = Template(_COMMON + _HEAD + """
  let L = ${L};
  if (tid == 0u) {
    var s: array<${S}, ${N}>;
    let o = ${st_off} + (row * ${nblk} + blk) * N;
    for (var i = 0u; i < N; i++) { s[i] = st[o + i]; }
    for (var t = 0u; t < WG; t++) {
      var v: array<${S}, ${N}>;
      for (var i = 0u; i < N; i++) {
        v[i] = sz[t * N + i];
        sz[t * N + i] = s[i];
      }
      affine(&s, 0u, &v);
    }
  }
  workgroupBarrier();
  var z: array<${T}, ${N}>;
  for (var i = 0u; i < N; i++) {
    var acc = ${S}(0);
    for (var j = 0u; j < N; j++) { acc += pow_(3u * N * N + i * N + j) * sz[tid * N + j]; }
    z[i] = ${T}(acc);
  }
  let base = tid * (C + 1u);
  let n0 = blk * BL + tid * C;
  let d = tab(2u * N);
  for (var j = 0u; j < C; j++) {
    let xv = sx[base + j];
    let z0 = z[0];
    sx[base + j] = d * xv + z0;
    for (var i = 0u; i + 1u < N; i++) {
      z[i] = tab(N + i) * xv - tab(i) * z0 + z[i + 1u];
    }
    z[N - 1u] = tab(2u * N - 1u) * xv - tab(N - 1u) * z0;
    if (n0 + j + 1u == L) {
      for (var i = 0u; i < N; i++) { zf[${zf_off} + row * N + i] = z[i]; }
    }
  }
  workgroupBarrier();
  for (var i = tid; i < BL; i += WG) {
    let n = blk * BL + i;
    if (n < L) { y[${y_off} + row * L + n] = sx[(i / C) * (C + 1u) + i % C]; }
  }
}
""", "iir_apply")


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
        if self.stage == "carry":
            toks.pop("L")
            return _CARRY.render(toks, S=S, N=str(self.order))
        tpl = _LOCAL if self.stage == "local" else _APPLY
        return tpl.render(toks, T=T, S=S, N=str(self.order), C=str(CHUNK), WG=str(WG),
                          BL=str(BLOCK), SX=str(WG * (CHUNK + 1)), SZ=str(WG * self.order))


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
    P1 = np.linalg.matrix_power(Ti @ A @ T, CHUNK)
    P2 = np.linalg.matrix_power(P1, WG)
    pw = np.concatenate([P1.ravel(), P2.ravel(), Ti.ravel(), T.ravel()])
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
