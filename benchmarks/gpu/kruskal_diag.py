"""Where numr cuda's kruskal statistic leaves exact 0 (SciPy TestKruskal::
test_nan_policy_omit_raise): each intermediate of scipy.stats.kruskal, numr vs NumPy."""
import sys

import numpy as np
import scipy
from scipy.stats import _stats_py as sp

import numr_array_api

name = sys.argv[1] if len(sys.argv) > 1 else "cuda"
xp = getattr(__import__("numr_array_api." + name), name)
print("scipy", scipy.__version__)


def h(v):
    return [float(t).hex() for t in np.asarray(v.to_device("cpu") if hasattr(v, "to_device") and not isinstance(v, np.ndarray) else v).ravel()]


for mod in (np, xp):
    x = mod.arange(9.0)
    alldata = mod.concat([x, x], axis=-1)
    r = sp._rankdata(alldata, method="average", return_ties=True)
    ranked, t = r[0], r[-1]
    print(mod.__name__, "ranked", h(ranked)[:6], "t", h(t)[:4])
    s = mod.sum(ranked[..., 0:9], axis=-1)
    print("  sum", h(s), "sq/9", h(s ** 2 / 9), "sq", h(s ** 2), "s*s", h(s * s))
    n = mod.asarray(18.0)
    a = 12.0 / (n * (n + 1))
    ssbn = s ** 2 / 9 + s ** 2 / 9
    print("  a", h(a), "ssbn", h(ssbn), "a*ssbn", h(a * ssbn), "h", h(a * ssbn - 3 * (n + 1)))
    res = sp.kruskal(x, x)
    print("  kruskal", res.statistic)
