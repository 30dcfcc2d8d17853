"""Diagnosis: the wide QR panel on float32 matrices scaled by 1e+-30 gave NaN on
the H100 (tests/webgpu_kernels/test_qr_wide.py), not on lavapipe. Prints, per scale and
build (checked / unchecked), where R and Q hold non-finite values."""
import os
import warnings

import numpy as np

warnings.simplefilter("ignore")
os.environ.update(NUMR_WEBGPU_QR_WIDE_MIN="32", NUMR_WEBGPU_QR_WIDE_RPT="4",
                  NUMR_WEBGPU_LINALG_PLAN="0")
import numr_array_api.webgpu as xp  # noqa: E402

rng = np.random.default_rng(11)
base = rng.standard_normal((80, 50))
for trusted in ("1", "0"):
    os.environ["NUMR_WEBGPU_QR_WIDE_TRUSTED"] = trusted
    for wide in ("1", "0"):
        os.environ["NUMR_WEBGPU_QR_WIDE"] = wide
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
