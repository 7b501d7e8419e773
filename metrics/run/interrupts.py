"""Ctrl-C while the command line loads: noted, then raised once the command has loaded.

``metrics.launch.entry`` calls ``note_while_loading`` before it imports the command line;
the command line calls ``interruptible`` once its command's modules are loaded. Here, below
both, so that the entry and the commands share the state without importing each other.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import signal
else:  # the C module, same functions: ``signal`` builds three enums at import (~1 ms)
    import _signal as signal

_noted: list[int] = []  # interrupts that came while the command line was loading


def _note(signum: int, frame: object) -> None:
    _noted.append(signum)


def note_while_loading() -> None:
    """From here until ``interruptible``, an interrupt is only noted (unless the process
    inherited SIGINT ignored); what the ``metrics`` package noted since the console script
    began (``metrics._note_early``) is taken over."""
    package = sys.modules.get("metrics")
    early = getattr(package, "_note_early", None)
    current = signal.getsignal(signal.SIGINT)
    if current is signal.default_int_handler or (early is not None and current is early):
        signal.signal(signal.SIGINT, _note)
        if current is early:  # after the switch: one noted in between is not lost
            _noted.extend(getattr(package, "_early", ()))


def interruptible() -> None:
    """The command line has loaded: an interrupt noted meanwhile stops the command now, and
    from here Ctrl-C raises ``KeyboardInterrupt`` as usual. While modules load it is only
    noted: raised inside an import's clean-up callback it would be printed and swallowed
    (the command then ran to its end). A no-op outside ``entry`` (tests, the API)."""
    if signal.getsignal(signal.SIGINT) is _note:
        signal.signal(signal.SIGINT, _raise)
        if _noted:
            raise KeyboardInterrupt


def _raise(signum: int, frame: object) -> None:
    """Ctrl-C once the command runs: ``KeyboardInterrupt``, as Python's own handler, and
    noted, so that one raised inside an extension module's start (numpy imported by the
    command), which the extension may turn into another error, is still known as one."""
    _noted.append(signum)
    raise KeyboardInterrupt


def interrupted() -> bool:
    """Whether Ctrl-C came while ``entry`` ran this command (loading or running)."""
    return bool(_noted)
