"""scipy.ndimage for numr webgpu arrays.

filters.py     SciPy's filter API: correlations, convolutions, uniform / Gaussian /
               derivative filters, rank filters
morphology.py  grey morphology (erosion, dilation, opening, closing, gradients, top-hats)
fourier.py     Fourier filters (fourier_gaussian, fourier_uniform, fourier_shift,
               fourier_ellipsoid)
stencil.py     the n-d stencil kernel: every boundary mode, any overhang
linepass.py    the 1-D passes of separable filters, tiled in workgroup memory
run.py         launches, compute types, the cache of parameter buffers
support.py     SciPy's argument rules (sizes, footprints, origins, modes, outputs)
"""
