"""A screenshot run says nothing on stderr: Qt's offscreen plugin printed "This plugin does
not support propagateSizeHints()" twice at every ``detlens view --screenshot``; that note is
dropped (``viewer.app.qt_notes``), every other Qt message still gets through."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.support import ROOT

ENV = {**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"}


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=ENV, timeout=120
    )


def test_a_screenshot_of_the_demo_has_an_empty_stderr(tmp_path: Path) -> None:
    out = tmp_path / "demo.png"
    done = _python(
        "import sys; from metrics.cli import main; "
        f"sys.exit(main(['view', '--screenshot', {str(out)!r}]))"
    )
    assert done.returncode == 0, done.stderr
    assert out.stat().st_size > 0
    assert done.stderr == ""
    assert done.stdout.strip() == str(out)


def test_only_the_plugin_note_is_dropped() -> None:
    done = _python(
        "from PySide6.QtCore import qWarning\n"
        "from viewer.app.qt_notes import DROPPED, quiet_plugin_notes\n"
        "quiet_plugin_notes()\n"
        "quiet_plugin_notes()  # once: not two handlers in a row\n"
        "qWarning(DROPPED)\n"
        "qWarning('a note of Qt that matters')\n"
        "qWarning(DROPPED + ' and more')\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [
        "a note of Qt that matters",
        "This plugin does not support propagateSizeHints() and more",
    ]
