"""Scale-out: numr arrays as the chunks of Cubed arrays, computed on a Dask cluster with one
worker per device. Cubed plans, Dask runs; numr computes each chunk on its worker's device.

* ``numr_array_api.distributed.cpu`` / ``.cuda`` / ``.webgpu``: the chunk namespaces to name
  in ``CUBED_BACKEND_ARRAY_API_MODULE`` (numr's namespaces plus what Cubed needs beyond the
  standard).
* ``cluster``: a local Dask cluster with one worker per GPU, each pinned to its device.
* ``chunks``: chunk sizes from device memory.

Importing this package imports neither Cubed nor Dask. See docs/scale-out.md.
"""
