"""The webgpu namespace's backend, one mixin module per family (composed in ../backend.py)."""
