"""Qt's messages, less one: the offscreen platform plugin's note on ``propagateSizeHints()``.

Every ``detlens view --screenshot`` (the offscreen plugin) printed "This plugin does not
support propagateSizeHints()" on stderr, twice: a note of the plugin that says nothing about
the user's data, next to output a user reads for mistakes. The handler drops exactly that
message and passes every other one on: to the handler installed before, or formatted as Qt
formats it, on stderr.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from PySide6.QtCore import QMessageLogContext, QtMsgType, qFormatLogMessage, qInstallMessageHandler

DROPPED = "This plugin does not support propagateSizeHints()"

Handler = Callable[[QtMsgType, QMessageLogContext, str], None]

_installed: list[Handler] = []  # the handler in place, once installed


def quiet_plugin_notes() -> None:
    """Install the handler (once per process) in front of Qt's own or the one before."""
    if _installed:
        return
    previous: Handler | None = None

    def handler(mode: QtMsgType, context: QMessageLogContext, message: str) -> None:
        if message == DROPPED:
            return
        if previous is not None:
            previous(mode, context, message)
            return
        print(qFormatLogMessage(mode, context, message), file=sys.stderr, flush=True)

    previous = qInstallMessageHandler(handler)
    _installed.append(handler)
