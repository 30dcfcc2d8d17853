"""numr's tuning: one registry of every tuning value, per-adapter tables, the tune command.

    import numr_array_api.tuning as tuning
    tuning.knobs()                          # every knob: type, default, choices, doc
    tuning.get("CHOL_NB", client)           # the value on an adapter
    with tuning.override(FFT_PAD=0):    # in-process, for a block (bumps tuning.epoch())
        ...
    python -m numr_array_api.tuning [--quick] [--families fft,linalg]   # tune this adapter

docs/architecture.md describes the layering and how to add a variant.
"""

from . import knobs as _declarations  # noqa: F401  (declares every knob)
from .registry import Knob, epoch, force, get, knobs, override, unforce_all, values
from .tables import reload as reload_tables

__all__ = ["Knob", "epoch", "force", "get", "knobs", "override", "unforce_all", "values",
           "reload_tables"]
