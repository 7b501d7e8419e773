"""Issue 30, point 7: SIGTERM or SIGHUP to the parent of ``eval --workers 2`` left the
worker orphaned and blocked on a pipe nobody read (2 of 2 runs). The parent forwards them to
its workers, and a worker dies with its parent whatever killed it (``PR_SET_PDEATHSIG``:
SIGKILL too). Each run is a process of its own, bounded in time."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support import ROOT, icdar_grid_set

ENTRY = "import sys; from metrics.launch import entry; sys.exit(entry())"

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="reads process states from /proc (Linux)"
)


def dataset(root: Path) -> tuple[Path, Path]:
    """A set that takes seconds to evaluate with every metric."""
    return icdar_grid_set(root, images=300, boxes=60)


def children(pid: int) -> list[int]:
    """The live (not zombie) child processes of ``pid``."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and _parent_and_state(int(entry.name))[0] == pid:
            out.append(int(entry.name))
    return [c for c in out if alive(c)]


def _parent_and_state(pid: int) -> tuple[int, str]:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return -1, "X"
    fields = stat.rsplit(")", 1)[1].split()
    return int(fields[1]), fields[0]


def alive(pid: int) -> bool:
    """Running or sleeping: neither gone nor a zombie (a dead process not yet reaped)."""
    return _parent_and_state(pid)[1] not in ("X", "Z")


def start_eval(root: Path) -> tuple[subprocess.Popen[str], list[int]]:
    """``detlens eval --workers 2`` on a slow set, and its worker once it runs."""
    gt, det = dataset(root)
    argv = ["eval", "--gt", str(gt), "--det", str(det), "--metric", "all", "--workers", "2"]
    proc = subprocess.Popen(
        [sys.executable, "-c", ENTRY, *argv, "--quiet"],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        workers = children(proc.pid)
        if workers:
            return proc, workers
        time.sleep(0.05)
    proc.kill()
    pytest.fail(f"no worker started (exit {proc.poll()}): {proc.communicate()[1][-500:]}")


def wait_gone(pids: list[int], timeout: float) -> list[int]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        left = [p for p in pids if alive(p)]
        if not left:
            return []
        time.sleep(0.05)
    return [p for p in pids if alive(p)]


@pytest.mark.parametrize("sig", ["SIGTERM", "SIGHUP", "SIGKILL"])
def test_workers_end_with_their_parent(tmp_path: Path, sig: str) -> None:
    proc, workers = start_eval(tmp_path)
    time.sleep(0.3)  # the worker is evaluating
    proc.send_signal(getattr(signal, sig))
    try:
        _, err = proc.communicate(timeout=30)
        left = wait_gone(workers, timeout=15)
    finally:
        for pid in workers:  # never leave one behind, even when the test fails
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
    assert proc.returncode in (-getattr(signal, sig), 0), err  # killed as asked (or done)
    assert "Traceback" not in err
    assert left == [], f"worker(s) {left} outlived the parent ({sig})"


FUZZ_RUNS = max(3, int(os.environ.get("DETLENS_FUZZ_EXAMPLES", "400")) // 100)
EXPECTED = {"SIGINT": 130, "SIGTERM": -signal.SIGTERM, "SIGHUP": -signal.SIGHUP}


def test_signal_fuzz(tmp_path: Path) -> None:
    """Random signals at random moments of ``eval --workers 2 --json``: the run ends as the
    signal says (or finished first), no traceback, no worker left, no partial file.
    ``DETLENS_FUZZ_EXAMPLES`` raises the number of runs (default 4)."""
    import random

    rng = random.Random(int(os.environ.get("DETLENS_FUZZ_SEED", "30")))
    (tmp_path / "set").mkdir()
    gt, det = dataset(tmp_path / "set")
    for k in range(FUZZ_RUNS):
        sig = rng.choice([*EXPECTED, "SIGKILL"])
        out = tmp_path / f"out{k}"
        out.mkdir()
        argv = ["eval", "--gt", str(gt), "--det", str(det), "--metric", "all", "--workers", "2"]
        proc = subprocess.Popen(
            [sys.executable, "-c", ENTRY, *argv, "--quiet", "--json", str(out / "r.json")],
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        deadline = time.monotonic() + 60
        workers: list[int] = []
        while not workers and time.monotonic() < deadline and proc.poll() is None:
            workers = children(proc.pid)
            time.sleep(0.02)
        time.sleep(rng.uniform(0, 1.0))
        workers = sorted(set(workers) | set(children(proc.pid)))
        proc.send_signal(getattr(signal, sig))
        try:
            _, err = proc.communicate(timeout=60)
            left = wait_gone(workers, timeout=15)
        finally:
            for pid in workers:
                if alive(pid):
                    os.kill(pid, signal.SIGKILL)
        why = f"run {k}: {sig}, exit {proc.returncode}: {err[-300:]}"
        assert proc.returncode in (EXPECTED.get(sig, -signal.SIGKILL), 0), why
        assert "Traceback" not in err and left == [], why
        leftovers = [p.name for p in out.iterdir() if p.name != "r.json"]
        assert leftovers == [], why
        if proc.returncode != 0:
            assert not (out / "r.json").exists(), why
