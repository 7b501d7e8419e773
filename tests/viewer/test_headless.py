"""Without a display, ``detlens view`` exits 2 with one line instead of Qt's abort."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from viewer.app.display import debian_package, display_problem

DETLENS = [sys.executable, "-c", "import sys; from metrics.cli.main import main; sys.exit(main())"]


def _env_without_display() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.pop("QT_QPA_PLATFORM", None)
    return env


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="X11 platforms only")
def test_view_without_display_exits_2_with_one_line(tmp_path: Path) -> None:
    run = subprocess.run(
        [*DETLENS, "view"],
        env=_env_without_display(),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    lines = run.stderr.strip().splitlines()
    assert run.returncode == 2, run.stderr
    assert len(lines) == 1 and lines[0].startswith("detlens: error: no display")
    assert "--screenshot" in lines[0] and "export" in lines[0] and "report" in lines[0]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="X11 platforms only")
def test_screenshot_needs_no_display(tmp_path: Path) -> None:
    out = tmp_path / "shot.png"
    run = subprocess.run(
        [*DETLENS, "view", "--screenshot", str(out)],
        env=_env_without_display(),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert out.stat().st_size > 0


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="X11 platforms only")
def test_platform_choices() -> None:
    assert display_problem({"QT_QPA_PLATFORM": "offscreen"}) is None
    assert display_problem({"WAYLAND_DISPLAY": "wayland-0"}) is None
    assert "DISPLAY is not set" in (display_problem({}) or "")
    assert "DISPLAY is not set" in (display_problem({"QT_QPA_PLATFORM": "xcb"}) or "")


def test_library_names_its_package() -> None:
    assert debian_package("libxcb-icccm.so.4") == "libxcb-icccm4"
    assert debian_package("libxkbcommon-x11.so.0") == "libxkbcommon-x11-0"
    assert debian_package("libEGL.so.1") == "libegl1"
