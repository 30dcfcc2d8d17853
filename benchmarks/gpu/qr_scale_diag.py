"""Diagnosis: the wide QR panel on float32 matrices scaled by 1e+-30 gave NaN on
the H100 (tests/webgpu_kernels/test_qr_wide.py), not on lavapipe. Prints, per scale and
build (checked / unchecked), where R and Q hold non-finite values."""
import warnings

import numpy as np

import numr_array_api.webgpu as xp
from numr_array_api import tuning

warnings.simplefilter("ignore")
tuning.force(QR_WIDE_MIN=32, QR_WIDE_RPT=4, LINALG_PLAN=False)
ONE = {"QR_WIDE_MIN": 1 << 30, "QR_LOOP_MAX_F32": 0}   # every panel on one workgroup

rng = np.random.default_rng(11)
base = rng.standard_normal((80, 50))
for trusted in (True, False):
    for wide in (True, False):
        with tuning.override(LINALG_TRUSTED=trusted, **({} if wide else ONE)):
            for sc in (1.0, 1e10, 1e18, 1e20, 1e25, 1e30, 1e-10, 1e-18, 1e-20, 1e-25, 1e-30):
                a = (base * sc).astype(np.float32)
                q, r = (np.asarray(y.to_device("cpu")) for y in xp.linalg.qr(xp.asarray(a)))
                bad_r = np.argwhere(~np.isfinite(r))
                bad_q = np.argwhere(~np.isfinite(q))
                a64 = a.astype(np.float64)
                err = np.linalg.norm(a64 - q.astype(np.float64) @ r) / np.linalg.norm(a64)
                zr = np.argwhere(np.diag(r) == 0)
                print(f"trusted={trusted} wide={wide} scale={sc:8.0e}: nonfinite R {len(bad_r)} "
                      f"(first {bad_r[:1].tolist()}), Q {len(bad_q)} (first {bad_q[:1].tolist()}), "
                      f"zero diag {zr[:3].ravel().tolist()}, err {err:.2e}", flush=True)
