"""``dataclass`` with its generated methods' byte code cached, as Python caches a module's.

``dataclasses.dataclass`` writes the source of every class's ``__init__``, ``__repr__``,
``__eq__``, ``__hash__`` and (frozen) ``__setattr__`` / ``__delattr__`` and compiles it each
time the class is created: about 1.2 ms a class here, 70 to 90 ms of every ``detlens eval``
start (its data model is some 75 dataclasses), more than the evaluation of a small set.
This decorator is the standard one, with one difference: while it runs, the source text the
standard module compiles is looked up in a cache of code objects (keyed by the whole text,
so a changed class compiles again) kept beside this module's byte code
(``__pycache__/records.<cache tag>.dataclass-code``, written atomically, never when Python
writes no byte code), one section per module, unmarshalled only when that module makes a
class. The methods are the same functions the standard decorator makes (same text, same
globals); creating a class then costs about 0.2 ms.

Type checkers see ``dataclasses.dataclass`` itself (the ``TYPE_CHECKING`` branch), so every
use is checked as a standard dataclass; ``dataclasses.fields``, ``replace`` and ``asdict``
work unchanged. On a Python whose ``dataclasses`` compiles in another way the cache is
simply not used.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import marshal
import os
import sys
import threading
from dataclasses import field
from types import CodeType
from typing import TYPE_CHECKING, Any

__all__ = ["dataclass", "field"]  # field: the standard one, beside its decorator

_SPARE = 4  # a module's section keeps old versions up to this many times what it uses
_lock = threading.Lock()
_sections: dict[str, bytes] | None = None  # module -> its section, marshalled, as read
_codes: dict[str, dict[str, CodeType]] = {}  # module -> source text -> code (unmarshalled)
_used: dict[str, set[str]] = {}  # module -> the texts this process asked for
_dirty: set[str] = set()  # modules whose section compiled something new


def cache_path() -> str | None:
    """Where the code cache lives (None where Python has no byte code path for us)."""
    try:
        pyc = importlib.util.cache_from_source(__file__)
    except (NotImplementedError, ValueError):
        return None
    tag = sys.implementation.cache_tag
    return os.path.join(os.path.dirname(pyc), f"records.{tag}.dataclass-code")


def _read() -> dict[str, bytes]:
    """The file's sections, one per module (each unmarshalled when its module needs it)."""
    global _sections
    if _sections is None:
        _sections = {}
        path = cache_path()
        found = None
        if path is not None:
            try:
                with open(path, "rb") as f:
                    found = marshal.loads(f.read())  # one read: load(f) reads piece by piece
            except (OSError, EOFError, ValueError, TypeError):
                found = None  # absent, unreadable or from another build: compile again
        if isinstance(found, dict):
            _sections = {
                k: v for k, v in found.items() if isinstance(k, str) and isinstance(v, bytes)
            }
    return _sections


def _section(module: str) -> dict[str, CodeType]:
    codes = _codes.get(module)
    if codes is None:
        codes = {}
        raw = _read().get(module)
        if raw is not None:
            try:
                found = marshal.loads(raw)
            except (EOFError, ValueError, TypeError):
                found = None
            if isinstance(found, dict):
                codes = {
                    k: v for k, v in found.items() if isinstance(k, str) and isinstance(v, CodeType)
                }
        _codes[module] = codes
    return codes


def _save() -> None:
    """Write the sections of the modules that compiled something new (a module's old
    versions dropped once they outnumber what it uses), the others as read."""
    path = cache_path()
    if path is None or sys.dont_write_bytecode:
        return
    sections = _read()  # kept up to date: what this process wrote last included
    for module in _dirty:
        codes, used = _codes[module], _used.get(module, set())
        if len(codes) > _SPARE * max(len(used), 8):
            codes = {k: v for k, v in codes.items() if k in used}
        sections[module] = marshal.dumps(codes)
    import tempfile  # only when writing: with random and shutil, a few ms of every start

    folder = os.path.dirname(path)
    try:
        os.makedirs(folder, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".records-", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                marshal.dump(sections, f)
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)  # as the byte code beside it, not mkstemp's 0600
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        pass  # a read-only install: the classes are made as usual, only slower


def _flush() -> None:
    """Write the cache if a class compiled something new (once per class made)."""
    with _lock:
        if _dirty:
            _save()
            _dirty.clear()


def _cached_exec(source: str | CodeType, globals_: dict[str, Any], ns: dict[str, Any]) -> None:
    """``exec`` as ``dataclasses`` calls it, with the compiled source looked up first (in
    the section of the module that defines the class)."""
    if not isinstance(source, str):
        exec(source, globals_, ns)
        return
    module = str(globals_.get("__name__", ""))
    with _lock:
        codes = _section(module)
        code = codes.get(source)
        if code is None:
            code = compile(source, "<string>", "exec")
            codes[source] = code
            _dirty.add(module)
        _used.setdefault(module, set()).add(source)
    exec(code, globals_, ns)


if TYPE_CHECKING:
    from dataclasses import dataclass as dataclass
else:

    def dataclass(cls=None, /, **options):
        """``dataclasses.dataclass(cls, **options)`` with the generated code cached."""

        def wrap(c):
            had = "exec" in vars(dataclasses)
            dataclasses.exec = _cached_exec
            try:
                return dataclasses.dataclass(c, **options)
            finally:
                if not had:
                    vars(dataclasses).pop("exec", None)
                _flush()

        return wrap if cls is None else wrap(cls)
