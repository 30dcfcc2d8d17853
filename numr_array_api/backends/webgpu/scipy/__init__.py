"""numr's own WGSL implementations of SciPy functions for webgpu arrays, the webgpu side of
``numr_array_api.scipy`` (which dispatches per backend and routes SciPy to them).

special/   SciPy's elementwise special functions on the n-ary elementwise kernels, with the
           WGSL math library's special-function units (wgsl/_special.py, wgsl/_bessel.py)
ndimage/   filters: correlations and convolutions, separable Gaussian / uniform passes,
           rank filters, grey morphology and Fourier filters
signal/    convolution (direct and FFT), IIR filtering on a GPU scan, resampling, smoothing,
           spectral estimates and waveforms
"""
