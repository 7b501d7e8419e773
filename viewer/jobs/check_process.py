"""The dataset check of a large set in a child process (no Qt here).

``metrics.check.check_dataset`` runs array and GEOS calls over the whole set at once (the
reader's geometry warnings, every metric's validation, the boxes' statistics); in a thread
of the viewer each holds the interpreter for its whole length (up to 0.8 s at 1,000,000
words, ``benchmarks/probe_viewer.py``), so the window could not repaint meanwhile. For a
large set a
``Companion`` child process reads the same files with the same reader while the viewer
reads them, and checks the set; only the findings (a few KB) come back.

``python -m viewer.jobs.check_process`` is that child: it reads the paths as JSON on its
standard input and writes one length-prefixed pickled message to its standard output:
``("findings", list)`` or ``("error", text)``.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import json
import os
import pickle
import signal
import struct
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Any

from metrics.check import Finding, check_dataset
from metrics.io.reader import load_dataset
from viewer.app.paths import DatasetPaths

LARGE_BYTES = 1_000_000  # input files from which the check runs in a child process
_ROOT = str(Path(__file__).resolve().parents[1])  # the child imports this very package
_lock = threading.Lock()
_companions: dict[DatasetPaths, Companion] = {}


def input_bytes(paths: DatasetPaths) -> int:
    """Size of the GT and detection files (a folder: of the files in it)."""
    total = 0
    for name in (paths.gt, paths.det, paths.gt_lines):
        if not name:
            continue
        if os.path.isdir(name):
            with os.scandir(name) as entries:
                total += sum(e.stat().st_size for e in entries if e.is_file())
        elif os.path.exists(name):
            total += os.path.getsize(name)
    return total


class Stopped(RuntimeError):
    """The companion was ended on purpose: its results are of no use any more."""


class Companion:
    """The child process checking one set (started at once)."""

    def __init__(self, paths: DatasetPaths) -> None:
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([_ROOT, os.environ.get("PYTHONPATH", "")]),
        }
        self.paths = paths
        self.stopped = False  # ended on purpose
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "viewer.jobs.check_process"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(paths.__dict__).encode())
        self.proc.stdin.close()
        with _lock:
            _companions[paths] = self

    def findings(self) -> list[Finding]:
        """The child's findings (blocks until it has checked the set), then it ends;
        ``Stopped`` when it was ended on purpose (another set opened, the window closed)."""
        try:
            found = self._expect("findings")
        finally:
            self.stop()
        assert isinstance(found, list)
        return found

    def _expect(self, kind: str) -> Any:
        got, value = _receive(self.proc.stdout)
        if self.stopped:
            raise Stopped()
        if got == "error":
            self.stop()
            raise RuntimeError(str(value))
        if got != kind:
            self.stop()
            raise RuntimeError(f"the check process ended early (exit {self.proc.poll()})")
        return value

    def stop(self) -> None:
        self.stopped = self.stopped or self.proc.poll() is None
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        with _lock:
            if _companions.get(self.paths) is self:
                del _companions[self.paths]


def take(paths: DatasetPaths | None) -> Companion | None:
    """The companion started for ``paths`` (the dataset check then reads its findings)."""
    with _lock:
        return _companions.get(paths) if paths is not None else None


@atexit.register
def stop_all(keep: DatasetPaths | None = None) -> None:
    """End the companions still running (the window closed; another set opened: all but
    ``keep``'s)."""
    with _lock:
        running = [c for p, c in _companions.items() if p != keep]
    for c in running:
        c.stop()


def _receive(stream: IO[bytes] | None) -> tuple[str, Any]:
    head = stream.read(8) if stream is not None else b""
    if len(head) < 8:
        return "", None
    (size,) = struct.unpack("<Q", head)
    kind, value = pickle.loads(stream.read(size) if stream is not None else b"")
    return str(kind), value


def _send(kind: str, value: Any) -> None:
    blob = pickle.dumps((kind, value), protocol=pickle.HIGHEST_PROTOCOL)
    sys.stdout.buffer.write(struct.pack("<Q", len(blob)) + blob)
    sys.stdout.flush()


def _die_with_parent() -> None:
    """Linux: this child ends when the thread that started it does (the viewer's)."""
    with contextlib.suppress(OSError, AttributeError):  # elsewhere the parent's atexit ends it
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def main() -> int:
    _die_with_parent()
    paths = DatasetPaths(**json.loads(sys.stdin.read()))
    try:
        ds = load_dataset(
            paths.gt,
            paths.det,
            gt_lines=paths.gt_lines,
            images=paths.images,
            options=paths.options(),
        )
        _send("findings", check_dataset(ds))
    except Exception as exc:  # the viewer reads the same files and reports its own error
        _send("error", f"{type(exc).__name__}: {exc}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
