"""Cheap views: basic indexing, reshape of contiguous data, permute, broadcast, flip.

WgpuStorage views share the buffer (offset + strides, negative strides for flips), so none
of these copies data or touches the device; a reshape of non-contiguous data makes one GPU
copy first.
"""

from ...._core.errors import ShapeMismatch
from ..storage import ReadOnlyStorage


class ViewsMixin:
    max_dimensions = 64

    def is_readonly(self, data):
        return not data.writable

    def readonly(self, data):
        if not data.writable:
            return data
        return ReadOnlyStorage(data.block, data.offset, data.shape, data.strides, data.dtype,
                               data.client)

    def getitem_basic(self, data, key):
        return data[key]

    def reshape(self, data, shape, copy=None):
        if copy is False and not data.is_contiguous:
            raise ValueError("reshape: copy=False but the array cannot be reshaped without "
                             "copying")
        r = data.reshape(shape)
        if copy and r.block is data.block:
            r = r.copy()
        return r

    def permute(self, data, axes):
        return data.permute(axes)

    def broadcast_to(self, data, shape):
        try:
            return data.broadcast_to(shape)
        except ShapeMismatch as e:
            raise ValueError(str(e)) from None

    def flip(self, data, axes):
        return data.flip(axes)
