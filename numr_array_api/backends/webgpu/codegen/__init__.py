"""WGSL code generation: dtype -> storage/load/store snippets, conversions, templates."""
