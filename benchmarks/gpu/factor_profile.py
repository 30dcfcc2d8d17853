"""GPU time per kernel family of a large factorisation, from its recorded plan.

A factorisation's dispatches are captured once (ops/linalg/plan.py); replaying the capture
with one family's dispatches left out gives that family's share of the GPU time (results
are then wrong; only the time counts). Host time is out of the picture: a replay is four
native calls a dispatch. Usage:
    python benchmarks/gpu/factor_profile.py solve:4096:float32 'default;LU_LEAF=32'
(a variant: tuning knobs NAME=value, ',' between them)
Reports only."""
import collections
import sys
import time

import numpy as np

import numr_array_api.webgpu as xp
from numr_array_api import tuning
from numr_array_api.backends.webgpu.ops.linalg import plan as LP


def fam(label):
    return str(label or "?").split(":")[0][:44]


def replay_ms(client, raw, ids, reps=3):
    rec = client.recorder
    best = 1e9
    for _ in range(reps):
        xp.synchronize()
        t = time.perf_counter()
        rec.replay(raw, ids)
        xp.synchronize()
        best = min(best, time.perf_counter() - t)
    return best * 1e3


def main():
    cases = sys.argv[1].split(",")
    variants = sys.argv[2].split(";") if len(sys.argv) > 2 else ["default"]
    rng = np.random.default_rng(0)
    for case in cases:
        name, n, dtype = case.split(":")
        n = int(n)
        a = rng.standard_normal((n, n)).astype(dtype)
        if name == "cholesky":
            a = (a @ a.T + n * np.eye(n)).astype(dtype)
        x = xp.asarray(a)
        b = xp.asarray(rng.standard_normal((n, 64)).astype(dtype))
        fn = {"solve": lambda: xp.linalg.solve(x, b), "inv": lambda: xp.linalg.inv(x),
              "cholesky": lambda: xp.linalg.cholesky(x), "qr": lambda: xp.linalg.qr(x)}[name]
        for v in variants:
            tuning.unforce_all()
            if v != "default":
                tuning.force(**dict(kv.split("=") for kv in v.split(",")))
            LP.clear()
            fn()
            xp.synchronize()
            t = time.perf_counter()
            fn()
            xp.synchronize()
            call = (time.perf_counter() - t) * 1e3
            g = next(iter(LP._PLANS.values()))
            client = g.client
            raw, ids = g._raw, g._ids
            total = replay_ms(client, raw, ids)
            count = collections.Counter(fam(r[0].label) for r in raw)
            print(f"== {case} [{v}] call {call:.2f} ms, replay {total:.2f} ms, "
                  f"{len(raw)} dispatches")
            for f, c in count.most_common():
                rest = [r for r in raw if fam(r[0].label) != f]
                t_rest = replay_ms(client, rest, ids, 2)
                print(f"   {f:44s} x{c:5d}  share {total - t_rest:8.2f} ms")
            sys.stdout.flush()


main()
