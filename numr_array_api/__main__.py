"""Demo: ``python -m numr_array_api [cpu] [cuda] [webgpu]``.

Lists the backends and devices numr finds in this process, what each offers (the standard's
``__array_namespace_info__()``: capabilities, default dtypes, dtypes per device), and runs a
short worked example on every available backend (elementwise ops, reductions and a small
least-squares fit through ``linalg.solve``), compared with NumPy. A backend that cannot run
here (no CuPy / CUDA device, no WebGPU adapter) is reported with the reason; the demo itself
never fails because of it. The exit status is 0 when the cpu backend ran its example.
"""

import importlib
import sys
import traceback
import warnings

import numpy as np

BACKENDS = ("cpu", "cuda", "webgpu")


def _reason(e):
    """One line for an exception (numr errors carry their own message)."""
    msg = str(e).strip().splitlines()[0] if str(e).strip() else ""
    return f"{type(e).__name__}: {msg}" if msg else type(e).__name__


def to_host(x):
    """A NumPy copy of an array of any namespace, explicitly (no implicit-conversion warning)."""
    try:
        return np.from_dlpack(x, device="cpu")
    except Exception:
        pass
    try:  # numr: an explicit transfer to the cpu device, which then converts zero-copy
        return np.asarray(x.to_device("cpu"))
    except Exception:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return np.asarray(x)


def _names(d):
    return ", ".join(d) if d else "(none)"


def describe(name, xp):
    """Print the namespace's info API; return the devices (empty tuple on failure)."""
    print(f"  namespace: {xp.__name__}, array API {getattr(xp, '__array_api_version__', '?')}")
    try:
        info = xp.__array_namespace_info__()
    except Exception as e:
        print(f"  __array_namespace_info__() failed: {_reason(e)}")
        return ()
    try:
        caps = info.capabilities()
        print("  capabilities: " + ", ".join(f"{k}={v}" for k, v in caps.items()))
    except Exception as e:
        print(f"  capabilities() failed: {_reason(e)}")
    try:
        devices = tuple(info.devices())
        default = info.default_device()
    except Exception as e:
        print(f"  devices() failed: {_reason(e)}")
        return ()
    print(f"  devices: {len(devices)} (default: {default!r})")
    for d in devices:
        print(f"  - {d!r}")
        try:
            dd = info.default_dtypes(device=d)
            print("      default dtypes: " + ", ".join(f"{k}={v}" for k, v in dd.items()))
        except Exception as e:
            print(f"      default_dtypes() failed: {_reason(e)}")
        try:
            print("      dtypes: " + _names(list(info.dtypes(device=d))))
        except Exception as e:
            print(f"      dtypes() failed: {_reason(e)}")
    return devices


def example(xp, device):
    """Worked example on one device.

    Returns (ok, unsupported): ok is False when a step raised an unexpected error or did not
    match NumPy; unsupported counts steps the device declined with a BackendLimitation.
    Warnings (e.g. an operation falling back to the host) are summarised under the step."""
    info = xp.__array_namespace_info__()
    have = info.dtypes(device=device)
    fname = "float64" if "float64" in have else "float32"
    fdt = getattr(xp, fname)
    # float32: WGSL only promises a few ulp (sin: 2^-11 absolute), so allow 1e-3 there.
    rtol = 1e-10 if fname == "float64" else 1e-3
    rng = np.random.default_rng(0)
    A_np = rng.standard_normal((200, 3)).astype(fname)
    coef_true = np.array([1.5, -2.0, 0.5], dtype=fname)
    b_np = (A_np @ coef_true + 0.01 * rng.standard_normal(200)).astype(fname)
    print(f"  example on {device!r} in {fname}:")
    ok, unsupported = True, 0

    def step(label, compute, reference, tol=rtol):
        nonlocal ok, unsupported
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                got = to_host(compute())
                ref = np.asarray(reference)
                err = float(np.max(np.abs(got - ref) / np.maximum(np.abs(ref), 1.0)))
                good = err <= tol
                ok &= good
                shown = np.array2string(np.asarray(got).ravel()[:3], precision=5,
                                        separator=", ")
                print(f"    {label:<38} {shown:<34} vs NumPy: rel. err {err:.1e}"
                      f" {'ok' if good else 'MISMATCH'}")
            except NotImplementedError as e:  # numr's BackendLimitation
                unsupported += 1
                print(f"    {label:<38} not supported here: {_reason(e)}")
            except Exception as e:
                ok = False
                print(f"    {label:<38} failed: {_reason(e)}")
        notes = []
        for w in caught:
            line = str(w.message).splitlines()[0]
            line = f"{w.category.__name__}: {line.split(';')[0]}"
            if line not in notes:
                notes.append(line)
        for line in notes[:4]:
            print(f"      note: {line}")
        if len(notes) > 4:
            print(f"      note: ... and {len(notes) - 4} more warnings")

    try:
        A = xp.asarray(A_np, dtype=fdt, device=device)
        b = xp.asarray(b_np, dtype=fdt, device=device)
    except Exception as e:
        print(f"    asarray on this device failed: {_reason(e)}")
        return False, 0
    x0 = A_np[:, 0]
    step("exp(-x**2) * sin(x) (first 3)",
         lambda: (xp.exp(-A[:, 0] ** 2) * xp.sin(A[:, 0]))[:3],
         (np.exp(-x0 ** 2) * np.sin(x0))[:3])
    step("sum(x), mean(x), std(x)",
         lambda: xp.stack([xp.sum(A[:, 0]), xp.mean(A[:, 0]), xp.std(A[:, 0])]),
         [x0.sum(), x0.mean(), x0.std()])
    step("max(abs(A), axis=0)", lambda: xp.max(xp.abs(A), axis=0), np.abs(A_np).max(axis=0))
    if hasattr(xp, "linalg"):
        ref = np.linalg.lstsq(A_np.astype(np.float64), b_np.astype(np.float64), rcond=None)[0]

        def lstsq():
            At = xp.matrix_transpose(A)
            return xp.linalg.solve(At @ A, At @ b[:, None])[:, 0]

        step("least squares: solve(A^T A, A^T b)", lstsq, ref, max(rtol, 1e-8))
    else:
        print("    least squares: skipped (this namespace has no linalg extension)")
    return ok, unsupported


def run_backend(name):
    print(f"\n== {name} ==")
    try:
        xp = importlib.import_module(f"numr_array_api.{name}")
    except Exception as e:
        print(f"  unavailable: {_reason(e)}")
        if name == "webgpu":
            _webgpu_hint()
        return f"unavailable ({_reason(e)})"
    try:
        devices = describe(name, xp)
    except Exception as e:  # never crash on a missing or half-working backend
        print(f"  unavailable: {_reason(e)}")
        return f"unavailable ({_reason(e)})"
    if not devices:
        print("  no device to run the example on")
        return "unavailable (no device)"
    if name == "webgpu":
        _webgpu_hint()
    ok, unsupported = True, 0
    for d in devices:
        try:
            d_ok, d_unsupported = example(xp, d)
        except Exception as e:
            print(f"  example on {d!r} failed: {_reason(e)}")
            d_ok, d_unsupported = False, 0
        ok &= d_ok
        unsupported += d_unsupported
    if not ok:
        return "FAILED: see the example above"
    if unsupported:
        return f"ok: example matched NumPy ({unsupported} step(s) not supported on some device)"
    return "ok: example matched NumPy"


def _webgpu_hint():
    """List the adapters wgpu itself sees (explains a missing or partial webgpu backend)."""
    try:
        import wgpu
    except Exception as e:
        print(f"  (wgpu-py not importable: {_reason(e)})")
        return
    try:
        # numr's enumeration: cached, and without the drivers' probe chatter on stderr
        from numr_array_api.backends.webgpu.runtime.adapters import list_adapters
        adapters = list_adapters()
    except Exception as e:
        print(f"  (wgpu {wgpu.__version__} found no adapter: {_reason(e)}; on a machine "
              "without a GPU install Mesa's lavapipe: apt-get install mesa-vulkan-drivers)")
        return
    if not adapters:
        print(f"  (wgpu {wgpu.__version__} found no adapter; on a machine without a GPU install "
              "Mesa's lavapipe: apt-get install mesa-vulkan-drivers)")
    for a in adapters:
        print(f"  wgpu {wgpu.__version__} sees adapter: {a['name'] or '?'} "
              f"[{a['backend'] or '?'}, {a['type'] or '?'}]")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if any(a in ("-h", "--help") for a in argv):
        print(__doc__)
        return 0
    wanted = [a for a in argv if a in BACKENDS] or list(BACKENDS)
    unknown = [a for a in argv if a not in BACKENDS]
    if unknown:
        print(f"unknown backend(s): {', '.join(unknown)}; choose from {', '.join(BACKENDS)}")
        return 2
    try:
        import numr_array_api as pkg
        version = getattr(pkg, "__version__", "unknown")
    except Exception as e:
        version = f"(package import failed: {_reason(e)})"
    print(f"numr-array-api {version} | Python {sys.version.split()[0]} | NumPy {np.__version__}")
    results = {}
    for name in wanted:
        try:
            results[name] = run_backend(name)
        except Exception:  # last resort: report, never crash
            traceback.print_exc(limit=3)
            results[name] = "FAILED: see the traceback above"
    print("\n== summary ==")
    for name, status in results.items():
        print(f"  {name:<7} {status}")
    return 0 if results.get("cpu", "ok").startswith("ok") else 1


if __name__ == "__main__":
    sys.exit(main())
