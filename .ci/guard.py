"""Run a command under a time limit and report its duration and peak memory.

    python .ci/guard.py --limit SECONDS -- COMMAND [ARGS...]

The command runs in this process's group, so Ctrl-C in a terminal or a kill of the group
reaches it and everything it started. Every second the guard sums the proportional set size
(Pss, /proc/PID/smaps_rollup: shared pages are divided among the processes that share them,
so the sum is the memory the tree really holds) over the command's whole process tree and
keeps the peak.

When the limit is reached the guard first sends SIGUSR1 to every Python process of the tree
(tests/conftest.py registers faulthandler on it: each prints the stack of every thread, so
the log shows which tests were still running), then SIGINT to the command (pytest prints its
summary), and SIGKILL to the whole tree 60 s later. The exit code is the command's, or 124
after the limit.
"""

import argparse
import os
import signal
import subprocess
import sys
import threading
import time


def _children():
    kids = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        ppid = int(stat[stat.rindex(")") + 2:].split()[1])
        kids.setdefault(ppid, []).append(int(name))
    return kids


def tree(root):
    kids = _children()
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(kids.get(pid, ()))
    return out


def pss_kib(pid):
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def is_python(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            argv0 = f.read().split(b"\0", 1)[0]
    except OSError:
        return False
    return b"python" in os.path.basename(argv0)


def signal_tree(root, sig, only_python=False):
    for pid in tree(root):
        if only_python and not is_python(pid):
            continue
        try:
            os.kill(pid, sig)
        except OSError:
            pass


def watch(proc):
    """Sample the peak memory of ``proc``'s process tree every second, in a thread; returns
    stop(), which ends the sampling and gives the peak in GiB."""
    peak = [0]
    done = threading.Event()

    def sample():
        while not done.wait(1.0):
            peak[0] = max(peak[0], sum(pss_kib(p) for p in tree(proc.pid)))

    threading.Thread(target=sample, daemon=True).start()

    def stop():
        done.set()
        return peak[0] / 2**20

    return stop


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=float, required=True)
    ap.add_argument("--label", default="guard")
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd[:1] == ["--"] else a.cmd
    start = time.monotonic()
    proc = subprocess.Popen(cmd)
    stop = watch(proc)
    timed_out = False
    # the terminal's Ctrl-C reaches the child directly (same process group): wait for it
    signal.signal(signal.SIGINT, lambda *_: None)
    signal.signal(signal.SIGTERM, lambda *_: signal_tree(proc.pid, signal.SIGTERM))
    try:
        rc = proc.wait(timeout=a.limit)
    except subprocess.TimeoutExpired:
        timed_out = True
        running = tree(proc.pid)  # orphans leave the tree when a parent exits: keep the list
        print(f"\n[{a.label}] time limit of {a.limit:.0f}s reached: the stacks of what is still "
              f"running follow (SIGUSR1), then SIGINT", file=sys.stderr, flush=True)
        # one process at a time, so their stacks do not interleave in the log
        for pid in tree(proc.pid):
            if is_python(pid):
                try:
                    os.kill(pid, signal.SIGUSR1)
                except OSError:
                    pass
                time.sleep(0.5)
        time.sleep(1)
        signal_tree(proc.pid, signal.SIGINT)  # pytest stops its workers and reports
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            pass
        for pid in set(running) | set(tree(proc.pid)):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        proc.wait()
        rc = 124
    peak = stop()
    if rc < 0:  # killed by a signal: the shell's convention
        rc = 128 - rc
    elapsed = time.monotonic() - start
    print(f"[{a.label}] exit code {rc} after {elapsed:.0f}s; peak memory of the process tree "
          f"{peak:.2f} GiB (sum of Pss, sampled every second)"
          + (" [stopped at the time limit]" if timed_out else ""), flush=True)
    sys.exit(rc)


if __name__ == "__main__":
    main()
