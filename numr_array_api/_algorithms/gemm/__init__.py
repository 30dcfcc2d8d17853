"""GEMM with fused epilogue: activation formulas, portable and NumPy implementations."""
