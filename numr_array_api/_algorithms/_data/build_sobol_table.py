"""Build ``sobol_joe_kuo.npz``, the Sobol direction-number table shipped with numr.

Run once by a maintainer (``python -m numr_array_api._algorithms._data.build_sobol_table``); the
package never downloads anything at run time. The source is the public Joe & Kuo (2008)
"new-joe-kuo-6.21201" table as SciPy ships it (``scipy/stats/_sobol_direction_numbers.npz``:
``poly`` = primitive polynomial with its leading and constant terms, ``vinit`` = the initial
odd integers m_1..m_s, zero padded to 18 columns).

Why a different layout: SciPy stores both arrays as int64 (about 0.6 MB compressed). Each
``m_k`` is below ``2**k`` (1-based k), so the columns fit uint8 / uint16 / uint32 and the
zero padding beyond the polynomial degree compresses to nothing; ``poly`` fits uint32.
"""

import hashlib
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "sobol_joe_kuo.npz")


def _column_dtype(k):
    # m_k (0-based column k) is below 2**(k + 1)
    if k < 8:
        return np.uint8
    if k < 16:
        return np.uint16
    return np.uint32


def build(src, out=OUT):
    with np.load(src) as z:
        poly = np.asarray(z["poly"], dtype=np.int64)
        vinit = np.asarray(z["vinit"], dtype=np.int64)
    if poly.min() < 0 or poly.max() >= 2**32:
        raise ValueError("unexpected polynomial range")
    cols = {}
    for k in range(vinit.shape[1]):
        dt = _column_dtype(k)
        col = vinit[:, k]
        if col.min() < 0 or col.max() > np.iinfo(dt).max:
            raise ValueError(f"column {k} does not fit {dt}")
        cols[f"m{k:02d}"] = col.astype(dt)
    digest = hashlib.sha256(poly.tobytes() + vinit.tobytes()).hexdigest()
    np.savez_compressed(
        out,
        poly=poly.astype(np.uint32),
        sha256_int64=np.array(digest),
        **cols,
    )
    return out, digest


def load(path=OUT):
    """(poly int64 [D], vinit int64 [D, 18]) as SciPy lays them out."""
    with np.load(path) as z:
        poly = z["poly"].astype(np.int64)
        keys = sorted(k for k in z.files if k.startswith("m"))
        vinit = np.stack([z[k].astype(np.int64) for k in keys], axis=1)
    return poly, vinit


if __name__ == "__main__":
    if len(sys.argv) > 1:
        source = sys.argv[1]
    else:
        import scipy.stats

        source = os.path.join(
            os.path.dirname(scipy.stats.__file__), "_sobol_direction_numbers.npz"
        )
    path, digest = build(source)
    print(f"wrote {path} ({os.path.getsize(path)} bytes), source sha256(int64) {digest}")
