"""The standard's constants."""

import math


def build(ctx):
    return {"e": math.e, "pi": math.pi, "inf": math.inf, "nan": math.nan, "newaxis": None}
