"""`python -m numr_array_api` prints no driver noise.

wgpu-native probes every backend when it enumerates adapters; Mesa's OpenGL (EGL) probe prints
"XDG_RUNTIME_DIR is invalid or not set in the environment." to fd 2 from C, once per probe,
when no desktop session is around. numr enumerates adapters with fd 2 pointed at a temporary
file and passes on everything but those lines (backends/webgpu/runtime/adapters.py).
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
NOISE = "XDG_RUNTIME_DIR"
NOISE_GL = "indirect-validation error"  # NVIDIA's EGL adapter (GPU machine)


def _run(code_or_module, extra_env=None, module=False):
    env = {k: v for k, v in os.environ.items() if k != "XDG_RUNTIME_DIR"}  # the noisy case
    env["PYTHONPATH"] = os.pathsep.join([str(REPO)] + [p for p in [env.get("PYTHONPATH")] if p])
    env.update(extra_env or {})
    args = [sys.executable, "-m", code_or_module] if module else [sys.executable, "-c",
                                                                  code_or_module]
    return subprocess.run(args, env=env, capture_output=True, text=True, timeout=240,
                          cwd=str(REPO))


def test_demo_prints_no_driver_noise():
    r = _run("numr_array_api", module=True)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    out = r.stdout + r.stderr
    assert NOISE not in out and NOISE_GL not in out, \
        [ln for ln in out.splitlines() if NOISE in ln or NOISE_GL in ln]
    assert "== summary ==" in r.stdout


def test_probe_filter_keeps_other_stderr_and_drops_only_the_noise():
    # A stand-in for wgpu's enumeration that writes like the driver (to fd 2, from outside
    # Python's sys.stderr) plus a line that must survive.
    code = (
        "import os, wgpu\n"
        "from numr_array_api.backends.webgpu.runtime import adapters as a\n"
        "def fake():\n"
        "    os.write(2, b'error: XDG_RUNTIME_DIR is invalid or not set in the environment.\\n')\n"
        "    os.write(2, b'indirect-validation error: ComputePipeline(Internal(\"The selected "
        "version doesn\\'t support Features(BUFFER_STORAGE | COMPUTE_SHADER)\"))\\n')\n"
        "    os.write(2, b'a real driver warning\\n')\n"
        "    return ['adapter']\n"
        "wgpu.gpu.enumerate_adapters_sync = fake\n"
        "print(a.enumerate_adapters())\n"
    )
    r = _run(code)
    assert r.returncode == 0, r.stderr
    assert "['adapter']" in r.stdout
    assert "a real driver warning" in r.stderr
    assert NOISE not in r.stderr and NOISE_GL not in r.stderr
    # the escape hatch keeps everything (and shows the test above can see the noise)
    r = _run(code, {"NUMR_WEBGPU_PROBE_STDERR": "keep"})
    assert NOISE in r.stderr and NOISE_GL in r.stderr and "a real driver warning" in r.stderr


def test_real_probe_is_noisy_without_the_filter():
    """Where the GL probe is noisy at all (lavapipe, no desktop session), it is the probe that
    prints it: with the filter off the line appears, with it on it does not."""
    code = ("from numr_array_api.backends.webgpu.runtime import adapters as a\n"
            "print(len(a.enumerate_adapters()))\n")
    raw = _run(code, {"NUMR_WEBGPU_PROBE_STDERR": "keep"})
    if raw.returncode != 0 or NOISE not in raw.stderr:
        pytest.skip("this machine's drivers print no XDG_RUNTIME_DIR line while probed")
    quiet = _run(code)
    assert quiet.returncode == 0 and NOISE not in quiet.stderr


@pytest.mark.webgpu
def test_device_requests_are_filtered_too():
    """NVIDIA's OpenGL ES adapter prints its 'indirect-validation error' when a device is
    requested (wgpu builds its validation pipelines then), after enumeration: the device
    request runs inside the same filter."""
    code = (
        "import contextlib\n"
        "from numr_array_api.backends.webgpu.runtime import adapters as a\n"
        "seen = []\n"
        "real = a.quiet_driver\n"
        "@contextlib.contextmanager\n"
        "def spy():\n"
        "    import traceback\n"
        "    seen.append('/'.join(f.name for f in traceback.extract_stack()[-6:]))\n"
        "    with real():\n"
        "        yield\n"
        "a.quiet_driver = spy\n"
        "import numr_array_api.webgpu as xp\n"
        "if not xp.__array_namespace_info__().devices():\n"
        "    print('NO-ADAPTER')\n"
        "else:\n"
        "    xp.asarray([1.0]) + 1\n"
        "    print(seen)\n"
    )
    r = _run(code)
    assert r.returncode == 0, r.stderr
    if "NO-ADAPTER" in r.stdout:
        pytest.skip("no WebGPU adapter")
    assert "enumerate_adapters" in r.stdout and "__init__" in r.stdout, r.stdout  # client
