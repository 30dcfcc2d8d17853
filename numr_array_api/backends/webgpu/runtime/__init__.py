"""WebGPU runtime: adapters, the per-adapter client, buffer pool, pipeline cache, batching."""
