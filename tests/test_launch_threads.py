"""The ``detlens`` entry runs numpy with one BLAS thread unless the user set a number:
OpenBLAS's spinning pool otherwise takes CPU from the evaluation (and from the other worker
with ``--workers 2``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import ROOT

# a stand-in command line: it imports numpy as ``eval`` does, then says how many threads
# the process has and what the entry left in the environment
CHILD = """
import os, sys, types
fake = types.ModuleType("metrics.cli.main")
def main():
    import numpy
    numpy.ones((64, 64)) @ numpy.ones((64, 64))
    print(len(os.listdir("/proc/self/task")), os.environ.get("OPENBLAS_NUM_THREADS"))
    return 0
fake.main = main
sys.modules["metrics.cli.main"] = fake
from metrics.launch import entry
sys.argv = ["detlens", "view"]
sys.exit(entry())
"""


def _child(**env: str) -> list[str]:
    base = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    done = subprocess.run(
        [sys.executable, "-c", CHILD],
        env={**base, "PYTHONPATH": str(ROOT), **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return done.stdout.split()


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux's /proc")
def test_one_blas_thread_by_default() -> None:
    threads, value = _child()
    assert value == "1"
    assert threads == "1"


def test_the_users_setting_wins() -> None:
    assert _child(OPENBLAS_NUM_THREADS="2")[1] == "2"


GC_CHILD = """
import gc, sys, types
fake = types.ModuleType("metrics.cli.main")
fake.main = lambda: print(*gc.get_threshold()) or 0
sys.modules["metrics.cli.main"] = fake
from metrics.launch import entry
sys.argv = ["detlens", sys.argv[1]]
sys.exit(entry())
"""


@pytest.mark.parametrize(("command", "expected"), [("eval", "10000 50 100"), ("view", "700 10 10")])
def test_engine_commands_collect_garbage_less_often(command: str, expected: str) -> None:
    """An engine command runs with a larger young generation; the viewer keeps Python's
    default (it lives long and frees as it goes)."""
    done = subprocess.run(
        [sys.executable, "-c", GC_CHILD, command],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.stdout.split() == expected.split()
