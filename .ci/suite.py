"""Run the whole test suite as a few pytest processes, one after the other.

    python .ci/suite.py PYTEST_ARGS...

Why several processes: a process that has compiled the suite's WebGPU kernels holds them for
the rest of its life (on lavapipe each is LLVM code in the host's memory, about 1 MB), so one
process for the whole suite grows past CI's 4 GB. Each part below starts fresh workers. The
parts are files and folders of tests/; the last part is everything else under tests/, so a
new test file or folder always runs.

Each part's results go to a JUnit XML file; at the end one line sums them up
("suite: N passed, N failed, N skipped"; errors count as failed). The exit code is pytest's: 0 when every
part passed, 1 when a test failed, 5 when no test ran at all, otherwise the first other code.
"""

import faulthandler
import glob
import os
import signal
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from guard import watch  # noqa: E402


def _run_part(cmd):
    """(exit code, peak memory of the part's process tree in GiB)."""
    proc = subprocess.Popen(cmd)
    stop = watch(proc)
    rc = proc.wait()
    return rc, stop()

# The parts, each small enough that the kernels its workers compile stay within CI's memory
# (measured on lavapipe from an empty shader cache: all of tests/webgpu_kernels in one part
# peaked at 5.8 GiB, the four other WebGPU folders at 3.9 GiB, SciPy-on-the-GPU's tests with
# everything else at 3.9 GiB): the kernel tests in three (linear algebra; the files of
# hundreds of MB, whose tests run one at a time; the rest), the other WebGPU folders in two,
# the integration folders, SciPy on the GPU, test_elementwise.py, then everything else.
# Workers take whole files, so a part of few files would leave one worker idle.
KERNELS = "tests/webgpu_kernels"
LINALG = ("test_linalg", "test_chol", "test_qr", "test_warp", "test_eigh", "test_svd",
          "test_small_spectral")
BIG = ("test_big_", "test_gather_big", "test_reduction_big", "test_sort_big", "test_gpu_")


def _parts():
    kernels = sorted(glob.glob(f"{KERNELS}/test_*.py"))
    linalg = [f for f in kernels if os.path.basename(f).startswith(LINALG)]
    big = [f for f in kernels if os.path.basename(f).startswith(BIG)]
    return [
        linalg,
        [f for f in kernels if f not in linalg and f not in big],
        big,
        ["tests/ext", "tests/wgsl_math"],
        ["tests/webgpu_runtime", "tests/webgpu_namespace"],
        ["tests/integration", "tests/reliability", "tests/scaleout"],
        ["tests/scipy_routes"],
        # one file: its tests spread over the workers (--dist load), each compiling the
        # kernels it meets
        ["tests/test_elementwise.py", "--dist=load"],
    ]


def _counts(path):
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError):
        return None
    suites = [root] if root.tag == "testsuite" else root.findall("testsuite")
    c = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for s in suites:
        for k in c:
            c[k] += int(s.get(k, 0))
    return c


def main():
    args = sys.argv[1:]
    parts = [[p for p in part if p.startswith("-") or os.path.exists(p)] for part in _parts()]
    parts = [p for p in parts if p and not p[0].startswith("-")]
    named = [KERNELS] + [p for part in parts if not part[0].startswith(KERNELS)
                         for p in part if not p.startswith("-")]
    rest = ["tests"] + [f"--ignore={p}" for p in named]
    parts.append(rest)
    total = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    codes = []
    t0 = time.monotonic()
    # Ctrl-C reaches the running pytest directly (one process group): it stops and reports,
    # and the parts after it do not start (a handler, not SIG_IGN, which children inherit)
    signal.signal(signal.SIGINT, lambda *_: None)
    # .ci/guard.py asks every Python process of the run for its stacks with SIGUSR1 (whose
    # default action would end this one and orphan the running part)
    if hasattr(signal, "SIGUSR1"):
        faulthandler.register(signal.SIGUSR1, all_threads=True)
    with tempfile.TemporaryDirectory(prefix="numr-suite-") as tmp:
        for i, part in enumerate(parts):
            xml = os.path.join(tmp, f"part{i}.xml")
            shown = " ".join(part)
            print(f"\n[suite] part {i + 1}/{len(parts)}: {shown}", flush=True)
            t = time.monotonic()
            # a part's own options (--dist=...) come after the run's, so they win
            paths = [p for p in part if not p.startswith("-")]
            own = [p for p in part if p.startswith("-")]
            rc, peak = _run_part([sys.executable, "-m", "pytest", *paths, *args, *own,
                                  f"--junitxml={xml}"])
            codes.append(rc)
            c = _counts(xml)
            print(f"[suite] part {i + 1} exit code {rc} after {time.monotonic() - t:.0f}s, "
                  f"peak memory {peak:.2f} GiB", flush=True)
            if c is not None:
                for k in total:
                    total[k] += c[k]
            if rc not in (0, 1, 5):  # interrupted, internal or usage error: stop here
                break
    passed = total["tests"] - total["failures"] - total["errors"] - total["skipped"]
    print(f"\n[suite] {len(codes)} parts, exit codes {codes}, {time.monotonic() - t0:.0f}s; "
          f"{total['errors']} of the failures are errors", flush=True)
    print(f"suite: {passed} passed, {total['failures'] + total['errors']} failed, "
          f"{total['skipped']} skipped", flush=True)
    bad = [c for c in codes if c not in (0, 5)]
    if bad:
        rc = 1 if all(c == 1 for c in bad) else next(c for c in bad if c != 1)
    else:
        rc = 0 if total["tests"] else 5
    sys.exit(rc)


if __name__ == "__main__":
    main()
