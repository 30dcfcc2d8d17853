"""numr's own WGSL implementations of SciPy functions for webgpu arrays, the webgpu side of
``numr_array_api.scipy`` (which dispatches per backend and routes SciPy to them).

special/   SciPy's elementwise special functions on the n-ary elementwise kernels, with the
           WGSL math library's special-function units
ndimage/   filters: correlations and convolutions, separable Gaussian / uniform passes,
           rank filters, morphology and Fourier filters
signal/    convolution (direct and FFT), IIR filtering on a GPU scan, resampling, smoothing
           and spectral estimates
"""
