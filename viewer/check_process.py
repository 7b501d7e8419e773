"""The dataset check of a large set in a child process (no Qt here).

``metrics.check.check_dataset`` runs array and GEOS calls over the whole set at once; in a
thread of the viewer each holds the interpreter for its whole length (seconds at 1,000,000
words), so the window could not repaint meanwhile. For a set that large the check runs in a
child process that reads the same files with the same reader; only its findings (a few KB)
come back. ``python -m viewer.check_process`` is that child: it reads the paths as JSON on
its standard input and writes the pickled findings (or the error text) to its standard
output.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import json
import os
import pickle
import signal
import subprocess
import sys
import threading
from pathlib import Path

from metrics.check import Finding, check_dataset
from metrics.io.reader import load_dataset
from metrics.model import Dataset
from viewer.paths import DatasetPaths

LARGE = 50_000  # GT + detections from which the check runs in a child process
_ROOT = str(Path(__file__).resolve().parents[1])  # the child imports this very package
_lock = threading.Lock()
_children: set[subprocess.Popen[bytes]] = set()


def size(ds: Dataset) -> int:
    """GT and detections in the set."""
    return sum(len(s.gt) + len(s.det) for s in ds.samples)


def check_in_child(paths: DatasetPaths) -> list[Finding]:
    """The findings of the set at ``paths``, checked by a child process (blocks the calling
    thread, never the interpreter); RuntimeError with the child's reason if it failed."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([_ROOT, os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen(
        [sys.executable, "-m", "viewer.check_process"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    with _lock:
        _children.add(proc)
    try:
        out, err = proc.communicate(json.dumps(paths.__dict__).encode())
    finally:
        with _lock:
            _children.discard(proc)
    if proc.returncode != 0 or not out:
        why = err.decode(errors="replace").strip().splitlines()
        raise RuntimeError(why[-1] if why else f"the check process ended with {proc.returncode}")
    found = pickle.loads(out)
    assert isinstance(found, list)
    return found


@atexit.register
def stop_children() -> None:
    """End the check processes still running (the window closed, another set opened)."""
    with _lock:
        running = list(_children)
    for proc in running:
        if proc.poll() is None:
            proc.kill()


def _die_with_parent() -> None:
    """Linux: this child ends when the viewer does (no orphan checks a set for minutes)."""
    with contextlib.suppress(OSError, AttributeError):  # not Linux: the parent's atexit
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def main() -> int:
    _die_with_parent()
    paths = DatasetPaths(**json.loads(sys.stdin.read()))
    ds = load_dataset(paths.gt, paths.det, gt_lines=paths.gt_lines, images=paths.images)
    sys.stdout.buffer.write(pickle.dumps(check_dataset(ds), protocol=pickle.HIGHEST_PROTOCOL))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
