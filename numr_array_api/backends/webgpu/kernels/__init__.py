"""Kernels the runtime itself needs: strided copy, fill, cast (one template each)."""
