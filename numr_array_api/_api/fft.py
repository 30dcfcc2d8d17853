"""The ``fft`` extension. (Being completed: see docs/architecture.md.)"""


def build(ctx):
    return {"__fft__": {}}
