"""Creation kernels: empty, full, arange, eye, linspace, tril/triu, copy, astype.

arange / eye / linspace / tri are snippets of the N-ary template that read the output
element number ``e`` (plus 0-d operands for start/step and u32 words for shape parameters),
so they add no template of their own. Float ranges are computed in float64 when the
adapter has it (as NumPy does) and converted to the result dtype.
"""


from ...._core import dtypes as dt
from ..codegen.types import WTYPES, widen, wtype
from ..kernels.cast import cast as _cast
from ..kernels.copy import copy as _copy
from ..kernels.fill import full as _fill
from ..storage import WgpuStorage
from ..kernels.nary import launch
from ..storage import new_output


def _i32_word(k):
    return k & 0xFFFFFFFF


class CreationMixin:
    def fix_result(self, r):
        return r  # kernels always return WgpuStorage

    def empty(self, shape, dtype, device):
        self.check_dtype_supported(dtype)
        return WgpuStorage.empty(shape, dtype, self._client(device))

    def full(self, shape, value, dtype, device):
        self.check_dtype_supported(dtype)
        return _fill(shape, value, dtype, self._client(device))

    def copy(self, data):
        return _copy(data)

    def astype(self, data, dtype, copy=True):
        if dtype is data.dtype and not copy:
            return data
        return _cast(data, dtype)

    def _wide(self, kind, device):
        """Compute dtype of float/complex ranges: the widest the target adapter has."""
        f64 = dt.float64 in self.device_native_dtypes(device)
        if kind == "c":
            return dt.complex128 if f64 else dt.complex64
        return dt.float64 if f64 else dt.float32

    def arange(self, start, stop, step, n, dtype, device):
        client = self._client(device)
        self.check_dtype_supported(dtype)
        out = new_output((n,), dtype, client)
        if n == 0:
            return out
        ct = dtype if dtype.kind in "iu" else self._wide(dtype.kind, device)
        t = wtype(ct, client, "arange")
        a, b = _fill((), start, ct, client), _fill((), step, ct, client)
        cv = t.val
        op = f"fn op(a: {cv}, b: {cv}, e: u32) -> {cv} {{ return a + {widen(cv, 'e')} * b; }}"
        return launch(client, ("arange",), (a, b), [t, t], t, wtype(dtype, client), op, "",
                      (n,), out)

    def eye(self, n, m, k, dtype, device):
        client = self._client(device)
        self.check_dtype_supported(dtype)
        out = new_output((n, m), dtype, client)
        if n * m == 0:
            return out
        k = max(-n, min(m, k))  # beyond the matrix every diagonal is empty (and fits i32)
        op = ("fn op(e: u32) -> bool { let q = e / X0(); "
              "return i32(e - q * X0()) - i32(q) == bitcast<i32>(X1()); }")
        return launch(client, ("eye",), (), [], WTYPES[dt.bool_], wtype(dtype, client), op,
                      "", (n, m), out, extra=(m, _i32_word(k)))

    def linspace(self, start, stop, num, endpoint, dtype, device):
        client = self._client(device)
        self.check_dtype_supported(dtype)
        out = new_output((num,), dtype, client)
        if num == 0:
            return out
        ct = self._wide("c" if dtype.kind == "c" or isinstance(start, complex) or
                        isinstance(stop, complex) else "f", device)
        div = num - 1 if endpoint else num
        step = (stop - start) / div if div > 0 else 0.0
        t = wtype(ct, client, "linspace")
        ops = [_fill((), v, ct, client) for v in (start, step, stop)]
        last = num - 1 if endpoint and num > 1 else 0xFFFFFFFF
        cv, rv = t.val, ("f64" if "f64" in t.val else "f32")
        op = (f"fn op(a: {cv}, b: {cv}, c: {cv}, e: u32) -> {cv} {{ if (e == X0()) "
              f"{{ return c; }} return a + {rv}(e) * b; }}")
        return launch(client, ("linspace",), ops, [t, t, t], t, wtype(dtype, client), op, "",
                      (num,), out, extra=(last,))

    def tri(self, data, k, upper):
        client = data.client
        t = wtype(data.dtype, client, "tril/triu")
        out = new_output(data.shape, data.dtype, client)
        if data.size == 0:
            return out
        rows, cols = data.shape[-2], data.shape[-1]
        cmp = ">=" if upper else "<="
        op = (f"fn op(a: {t.val}, e: u32) -> {t.val} {{ let q = e / X1(); "
              f"let col = i32(e - q * X1()); let row = i32(q - (q / X0()) * X0()); "
              f"return select({t.val}(), a, col - row {cmp} bitcast<i32>(X2())); }}")
        return launch(client, ("tri", upper), (data,), [t], t, t, op, "", data.shape, out,
                      extra=(rows, cols, _i32_word(k)))
