#!/usr/bin/env python3
"""NumPy float32 model of the round path's eigvalsh (one-sided Jacobi on B = A + sigma I,
sigma = ||A||_inf), showing the rotation drift behind the float32 failures on NVIDIA and its
fix.

    python benchmarks/gpu/spectral_drift_sim.py [n]

"classic" applies p' = c x - s y, q' = s x + c y with c = 1 / sqrt(1 + t^2): for |t| < 2^-12
c rounds to 1 while s = t, so each late rotation grows both columns by 1 + t^2 / 2 and every
eigenvalue drifts up (~1.5e-4 ||A|| at n = 200 with exact rounding: inside 10 n eps = 2.4e-4,
as on lavapipe; a 2-ulp bias in c, as approximate sqrt / division may give, puts it at 1.2e-3).
"update" applies p' = x - (s y + h x), q' = y + (s x - h y), h = s^2 / (1 + c), after one
Newton step on c^2 + s^2 = 1 (spec._jrot): ~2e-6 with or without the bias.
"""
import sys

import numpy as np

f32 = np.float32


def rounds(m):
    mm = m - 1
    for r in range(mm):
        ks = np.arange(m // 2)
        p = np.where(ks == 0, mm, (r + ks) % mm)
        q = np.where(ks == 0, r, (r + mm - ks) % mm)
        yield np.minimum(p, q), np.maximum(p, q)


def jacobi(B, update, bias, rng, maxsw=30):
    U = B.T.copy().astype(f32)
    C, R = U.shape
    eps = f32(2.0 ** -23)
    tol = eps * f32(np.sqrt(R))
    for _ in range(maxsw):
        cnt = 0
        for ps, qs in rounds(C + C % 2):
            ok = qs < C
            ps, qs = ps[ok], qs[ok]
            x, y = U[ps], U[qs]
            al, be, g = (x * x).sum(1), (y * y).sum(1), (x * y).sum(1)
            ga = np.abs(g)
            rot = ga > np.maximum(f32(2.0 ** -124), tol * np.sqrt(al) * np.sqrt(be))
            d = be - al
            gs = np.where(ga > 0, ga, f32(1))
            th = d / (f32(2) * gs)
            t = np.where(th >= 0, f32(1), f32(-1)) / (np.abs(th) + np.sqrt(th * th + f32(1)))
            t = np.where(ga < np.abs(d) * eps, ga / np.where(d != 0, d, f32(1)), t).astype(f32)
            c = (f32(1) / np.sqrt(t * t + f32(1))).astype(f32)
            c = (c * (f32(1) + f32(bias) * rng.uniform(0, 1, c.shape).astype(f32))).astype(f32)
            s = (np.sign(g) * t * c).astype(f32)
            if update:
                f = f32(1.5) - f32(0.5) * (c * c + s * s)
                c, s = c * f, s * f
                h = (s * s / (f32(1) + c)).astype(f32)
            h, s = np.where(rot, h if update else f32(0), f32(0)), np.where(rot, s, f32(0))
            c = np.where(rot, c, f32(1))
            cnt += int(rot.sum())
            if update:
                U[ps] = x - (s[:, None] * y + h[:, None] * x)
                U[qs] = y + (s[:, None] * x - h[:, None] * y)
            else:
                U[ps] = c[:, None] * x - s[:, None] * y
                U[qs] = s[:, None] * x + c[:, None] * y
        if cnt == 0:
            break
    return np.sort(np.sqrt((U.astype(np.float64) ** 2).sum(1)))


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    rng = np.random.default_rng(n)
    a = rng.standard_normal((n, n))
    a = ((a + a.T) / 2).astype(f32)
    a64 = a.astype(np.float64)
    wr, scale = np.linalg.eigvalsh(a64), np.linalg.norm(a64, 2)
    sig = np.abs(a64).sum(1).max()
    sc = 2.0 ** -np.frexp(sig)[1]
    B = (a64 * sc).astype(f32)
    B[np.diag_indices(n)] += f32(sig * sc)
    print(f"n = {n}: bound 10 n eps = {10 * n * 2.0 ** -23:.2e} (errors relative to ||A||_2)")
    for update in (False, True):
        for bias in (0.0, 2.0 ** -22):
            s = jacobi(B, update, bias, np.random.default_rng(1))
            e = (s - f32(sig * sc)) / sc - wr
            print(f"{'update ' if update else 'classic'} c bias {bias / 2.0 ** -23:.0f} ulp: "
                  f"max {np.abs(e).max() / scale:.2e}  mean shift {e.mean() / scale:+.2e}")


if __name__ == "__main__":
    main()
