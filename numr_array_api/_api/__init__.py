"""The array API front-end: one module per category, each a ``build(ctx)`` returning the
namespace functions bound to a backend context. Validation, promotion, broadcasting and
special cases live here once for every backend."""

from . import (creation, data_types, elementwise, indexing, info, linalg, fft, manipulation,
               nan_functions, searching, sets, sorting, statistical, utility, constants, host)

BUILDERS = (
    host.build, constants.build, data_types.build, creation.build, elementwise.build,
    manipulation.build, indexing.build, searching.build, sets.build, sorting.build,
    statistical.build, utility.build, linalg.build, fft.build, info.build,
    nan_functions.build,
)
