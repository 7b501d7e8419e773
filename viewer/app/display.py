"""Can a window open here? Asked before Qt is started, because Qt aborts the process (exit
134, "Reinstalling the application may fix this problem") when its platform plugin cannot
load or reach a display: on a server without one, or with a system library missing.

``display_problem()`` says why not, in one line naming what works headless and, for a
missing library, the Debian/Ubuntu package that has it; None when a window can open (or
when Qt is told to use another platform, such as ``offscreen``).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import importlib.util
import os
import re
import sys
from pathlib import Path

HEADLESS = "headless, use detlens view --screenshot OUT.png, detlens export or detlens report"
X11_PLATFORMS = ("", "xcb")


def display_problem(env: dict[str, str] | None = None) -> str | None:
    """Why no window can open in this environment, or None."""
    env = dict(os.environ) if env is None else env
    if not sys.platform.startswith("linux"):
        return None
    platform = env.get("QT_QPA_PLATFORM", "").split(":")[0].strip().lower()
    if platform not in X11_PLATFORMS:
        return None  # offscreen, wayland, vnc...: Qt was told what to use
    if not platform and env.get("WAYLAND_DISPLAY"):
        return None
    display = env.get("DISPLAY", "")
    if not display:
        return f"no display to open the window on (DISPLAY is not set); {HEADLESS}"
    missing = missing_library()
    if missing is not None:
        return (
            f"the window cannot open: Qt's X11 plugin needs {missing} "
            f"(install the package {debian_package(missing)}); {HEADLESS}"
        )
    if not x_display_reachable(display):
        return f"cannot connect to the display {display!r}; {HEADLESS}"
    return None


def _xcb_plugin() -> Path | None:
    spec = importlib.util.find_spec("PySide6")
    if spec is None or spec.origin is None:
        return None
    plugin = Path(spec.origin).parent / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    return plugin if plugin.exists() else None


def missing_library(plugin: Path | None = None) -> str | None:
    """The shared library that the X11 platform plugin cannot load, or None."""
    plugin = plugin or _xcb_plugin()
    if plugin is None:
        return None
    try:
        ctypes.CDLL(str(plugin), mode=os.RTLD_LAZY | os.RTLD_LOCAL)
    except OSError as exc:
        found = re.search(r"(lib[\w.+-]+\.so[\w.]*)", str(exc).replace(str(plugin), ""))
        return found.group(1) if found else str(exc)
    return None


def debian_package(soname: str) -> str:
    """``libxcb-icccm.so.4`` -> ``libxcb-icccm4``; ``libxkbcommon-x11.so.0`` ->
    ``libxkbcommon-x11-0`` (Debian's naming of a library's package)."""
    name, _, version = soname.partition(".so")
    version = version.lstrip(".").split(".")[0]
    name = name.lower()
    if not version:
        return name
    return f"{name}-{version}" if name[-1].isdigit() else f"{name}{version}"


def x_display_reachable(display: str) -> bool:
    """Whether an X connection to ``display`` opens (libxcb; True when it cannot be asked)."""
    path = ctypes.util.find_library("xcb")
    if path is None:
        return True
    xcb = ctypes.CDLL(path)
    xcb.xcb_connect.restype = ctypes.c_void_p
    xcb.xcb_connect.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
    xcb.xcb_connection_has_error.argtypes = [ctypes.c_void_p]
    xcb.xcb_disconnect.argtypes = [ctypes.c_void_p]
    conn = xcb.xcb_connect(display.encode(), None)
    try:
        return bool(conn) and xcb.xcb_connection_has_error(conn) == 0
    finally:
        if conn:
            xcb.xcb_disconnect(conn)
