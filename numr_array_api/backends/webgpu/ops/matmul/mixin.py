"""matmul / tensordot / vecdot: views and dtype promotion around gemm and rowdot."""

from ....._core.promotion import promote
from ....._core.shapes import broadcast_shapes
from ...codegen.render import collapse
from .gemm import fits_rowdot, gemm, rowdot
from .spec import WIDE


def _promoted(be, a, b):
    if a.dtype is b.dtype:
        return a, b
    t = promote(a.dtype, b.dtype)
    return be.astype(a, t), be.astype(b, t)


class MatmulMixin:
    def matmul(self, a, b):
        a, b = _promoted(self, a, b)
        va = a.expand_dims(0) if a.ndim == 1 else a      # (K,) -> (1, K)
        vb = b.expand_dims(1) if b.ndim == 1 else b      # (K,) -> (K, 1)
        r = gemm(va, vb)
        if a.ndim == 1:
            r = r.squeeze(r.ndim - 2)
        if b.ndim == 1:
            r = r.squeeze(r.ndim - 1)
        return r

    def tensordot(self, a, b, axes):
        if isinstance(axes, int):
            ax_a = tuple(range(a.ndim - axes, a.ndim))
            ax_b = tuple(range(axes))
        else:
            ax_a = tuple(x % a.ndim if a.ndim else x for x in axes[0])
            ax_b = tuple(x % b.ndim if b.ndim else x for x in axes[1])
        free_a = [d for d in range(a.ndim) if d not in ax_a]
        free_b = [d for d in range(b.ndim) if d not in ax_b]
        # contracted dims may broadcast (size 1 against n): bring both to the larger
        kshape = tuple(max(a.shape[i], b.shape[j]) for i, j in zip(ax_a, ax_b))
        fa = tuple(a.shape[d] for d in free_a)
        fb = tuple(b.shape[d] for d in free_b)
        pa = a.permute(free_a + list(ax_a)).broadcast_to(fa + kshape)
        pb = b.permute(list(ax_b) + free_b).broadcast_to(kshape + fb)
        k = _prod(kshape)
        ma = _as2(pa, len(fa)) if _viewable2(pa, len(fa)) else pa.reshape((_prod(fa), k))
        mb = _as2(pb, len(kshape)) if _viewable2(pb, len(kshape)) else \
            pb.reshape((k, _prod(fb)))
        ma, mb = _promoted(self, ma, mb)
        return gemm(ma, mb).reshape(fa + fb)

    def vecdot(self, a, b, axis):
        a, b = _promoted(self, a, b)
        shape = broadcast_shapes(a.shape, b.shape)
        a, b = a.broadcast_to(shape), b.broadcast_to(shape)
        nd = len(shape)
        axis = axis % nd
        order = [d for d in range(nd) if d != axis] + [axis]
        pa, pb = a.permute(order), b.permute(order)
        if fits_rowdot(pa, pb):
            return rowdot(pa, pb)
        # beyond one binding: an elementwise product and a sum, which both split their
        # work; sub-word dtypes accumulate in their 4-byte type, as the kernel does
        dtype = a.dtype
        wide = WIDE.get(dtype, dtype)
        if wide is not dtype:
            pa, pb = self.astype(pa, wide), self.astype(pb, wide)
        x = self.unary_kernel("conj")(pa) if dtype.kind == "c" else pa
        r = self.reduce("sum", self.binary_kernel("multiply")(x, pb), (nd - 1,), False, wide)
        return r if wide is dtype else self.astype(r, dtype)


def _prod(s):
    p = 1
    for n in s:
        p *= n
    return p


def _viewable2(x, split):
    """Can x be seen as 2-D (prod(shape[:split]), prod(shape[split:])) without a copy?"""
    for part in (slice(0, split), slice(split, None)):
        shp, _ = collapse(x.shape[part], x.strides[part])
        if len(shp) > 1:
            return False
    return True


def _as2(x, split):
    dims = []
    for part in (slice(0, split), slice(split, None)):
        shp, st = collapse(x.shape[part], x.strides[part])
        dims.append((_prod(x.shape[part]), st[0] if st else 0))
    return x._view((dims[0][0], dims[1][0]), (dims[0][1], dims[1][1]))
