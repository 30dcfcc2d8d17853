"""Backends: payload handling and kernels behind the shared front-end."""
