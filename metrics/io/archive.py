"""Read the text files of a zip archive or a folder, split into numbered lines (spec 0.2)."""

from __future__ import annotations

import contextlib
import errno
import mmap
import os
import struct
import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path

from metrics.core.model import InputError, Problem, Severity
from metrics.core.records import dataclass

TEXT_SUFFIXES = (".txt",)
MAX_MB_ENV = "DETLENS_MAX_FILE_MB"
DEFAULT_MAX_MB = 32
"""Largest text file (or zip member) read, in MB; ``$DETLENS_MAX_FILE_MB`` raises it.
The biggest annotation file of the shared datasets is well under 1 MB (an image of 1,000
words is about 40 kB): a file of 32 MB holds some 800,000 boxes, and one of hundreds of MB
is almost surely the wrong file; reading it would take minutes and gigabytes."""
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".gif", ".tif", ".tiff", ".webp")
BOM = b"\xef\xbb\xbf"
_LOCAL = b"PK\x03\x04"  # a zip local file header


@dataclass(frozen=True, slots=True)
class Member:
    """One file inside an archive or folder."""

    name: str  # base name, e.g. "gt_img_1.txt"
    label: str  # for messages, e.g. "gt.zip:gt_img_1.txt"
    data: bytes


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a text file and its 1-based number."""

    number: int  # 1-based
    text: str


def read_members(
    path: str | os.PathLike[str], suffixes: tuple[str, ...] = TEXT_SUFFIXES
) -> list[Member]:
    """Every file with one of ``suffixes`` in a zip, a folder (not recursive) or one file."""
    p = Path(path)
    if not p.exists():
        what = _missing(p)
        raise InputError([Problem(Severity.ERROR, str(p), None, what)])
    try:
        if p.is_dir():
            return _folder_members(p, suffixes)
        if not p.is_file():
            raise InputError([_error(p, "not a regular file (a pipe or a device?): not read")])
        if zipfile.is_zipfile(p):
            return _zip_members(p, suffixes)
        if p.suffix.lower() in suffixes:
            return [Member(p.name, str(p), read_file(p))]
    except (OSError, zipfile.BadZipFile, RuntimeError, MemoryError) as exc:
        raise InputError([Problem(Severity.ERROR, str(p), None, f"cannot read: {exc}")]) from exc
    raise InputError(
        [Problem(Severity.ERROR, str(p), None, "not a zip archive, a folder or a .txt file")]
    )


def _missing(p: Path) -> str:
    """Why a path that does not exist cannot be read."""
    if not p.is_symlink():
        return "no such file or folder"
    try:
        os.stat(p)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "a symbolic link loop: it never reaches a file"
    return "a dangling symbolic link"


def _error(p: Path | str, msg: str) -> Problem:
    return Problem(Severity.ERROR, str(p), None, msg)


def max_bytes() -> int:
    """The size limit of one file (``$DETLENS_MAX_FILE_MB``, default 32 MB)."""
    raw = os.environ.get(MAX_MB_ENV, "")
    try:
        mb = float(raw) if raw.strip() else DEFAULT_MAX_MB
    except ValueError:
        raise InputError([_error(MAX_MB_ENV, f"not a number of MB: {raw!r}")]) from None
    return int(mb * 1024 * 1024)


def _check_size(label: str, size: int) -> None:
    limit = max_bytes()
    if size > limit:
        raise InputError(
            [
                _error(
                    label,
                    f"{size / 2**20:.0f} MB, above the limit of {limit / 2**20:.0f} MB for one "
                    f"file: not read (set {MAX_MB_ENV} to raise it)",
                )
            ]
        )


def read_file(p: Path) -> bytes:
    """The bytes of one regular file, refused (``InputError`` naming it) above the size limit
    before anything is read: every input file goes through here (a file given directly, a
    folder's files; zip members are checked by their declared size)."""
    _check_size(str(p), p.stat().st_size)
    with open(p, "rb") as f:  # the size may have grown since: never read past the limit
        data = f.read(max_bytes() + 1)
    _check_size(str(p), len(data))
    return data


def _folder_members(p: Path, suffixes: tuple[str, ...]) -> list[Member]:
    """Regular files of the folder; a dangling link or a pipe with a wanted suffix is an
    error naming it (never silently dropped)."""
    out = []
    for f in sorted(p.iterdir()):
        if f.suffix.lower() not in suffixes:
            continue
        if f.is_file():
            out.append(Member(f.name, str(f), read_file(f)))
        elif f.is_symlink() and not f.exists():
            raise InputError([_error(f, "a dangling symbolic link: its target does not exist")])
        elif not f.is_dir():
            raise InputError([_error(f, "not a regular file (a pipe or a device?): not read")])
    return out


def _zip_members(p: Path, suffixes: tuple[str, ...]) -> list[Member]:
    out = []
    with zipfile.ZipFile(p) as zf, _mapped(p) as raw:
        for info in zf.infolist():
            base = info.filename.replace("\\", "/").rsplit("/", 1)[-1]
            if info.is_dir() or not base or base.startswith("."):
                continue
            if base.lower().endswith(suffixes):
                label = f"{p.name}:{info.filename}"
                _check_size(label, info.file_size)
                out.append(Member(base, label, _member_bytes(zf, info, raw)))
    return out


@contextlib.contextmanager
def _mapped(p: Path) -> Iterator[mmap.mmap | None]:
    """The archive mapped read-only, or None where it cannot be (``zipfile`` reads it)."""
    with open(p, "rb") as f:
        try:
            raw = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError):
            raw = None
        try:
            yield raw  # errors of the caller's block propagate as they are
        finally:
            if raw is not None:
                raw.close()


def _member_bytes(zf: zipfile.ZipFile, info: zipfile.ZipInfo, raw: mmap.mmap | None) -> bytes:
    """A member's bytes straight from the mapped archive (stored or deflated, its size and
    CRC checked), without a file object per member; anything else (encryption, another
    compression, a mismatch) is read by ``zipfile``, which raises its own errors."""
    h = info.header_offset
    if raw is None:
        return zf.read(info)
    if not info.flag_bits & 1 and info.compress_type in (0, 8) and raw[h : h + 4] == _LOCAL:
        n, e = struct.unpack_from("<HH", raw, h + 26)
        start = h + 30 + n + e
        blob = raw[start : start + info.compress_size]
        try:
            data = (
                zlib.decompressobj(-15).decompress(blob, info.file_size + 1)
                if info.compress_type == 8
                else blob
            )
        except zlib.error:
            data = b""
        if len(data) == info.file_size and zlib.crc32(data) == info.CRC:
            return data
    return zf.read(info)


def split_lines(member: Member, problems: list[Problem]) -> list[Line]:
    """Decode as UTF-8 (BOM removed), split on LF, drop CRs and empty lines; a file whose
    only line ends are CRs is split on them, with a warning (``Decoded.split``)."""
    return decode(member).split(problems)


@dataclass(frozen=True, slots=True)
class Decoded:
    """A text file's bytes decoded once (BOM removed): the text when it is valid UTF-8
    (None otherwise), and whether its only line ends are CRs."""

    member: Member
    data: bytes  # without the BOM
    text: str | None
    cr_only: bool

    def plain(self) -> tuple[str, int] | None:
        """The text (CRs dropped) and its line count when every line is numbered by its
        position (no NUL, empty line inside, undecodable byte or CR-only line ends); None
        otherwise."""
        text = self.text
        if text is None or self.cr_only or "\x00" in text:
            return None
        if "\r" in text:
            text = text.replace("\r", "")
        if "\n\n" in text or text.startswith("\n"):
            return None
        body = text[:-1] if text.endswith("\n") else text
        return (text, body.count("\n") + 1) if body else None

    def split(self, problems: list[Problem]) -> list[Line]:
        """The numbered lines: split on LF, CRs and empty lines dropped (a file whose only
        line ends are CRs is split on them, with a warning). Undecodable bytes are replaced
        by U+FFFD and reported as a warning with the line number, as the official tools
        replace them silently."""
        if self.cr_only:
            problems.append(
                Problem(
                    Severity.WARNING,
                    self.member.label,
                    None,
                    "line ends are CR only (classic Mac): each CR is read as a line end (the "
                    "official scripts would merge the lines into one)",
                )
            )
        if self.text is None:
            return self._split_bytes(problems)
        text = self.text.replace("\r", "\n") if self.cr_only else self.text
        if "\r" not in text:
            return [Line(i, t) for i, t in enumerate(text.split("\n"), start=1) if t]
        out = []
        for i, raw in enumerate(text.split("\n"), start=1):
            t = raw.replace("\r", "")
            if t:
                out.append(Line(i, t))
        return out

    def _split_bytes(self, problems: list[Problem]) -> list[Line]:
        """The lines of a file that is no valid UTF-8, each decoded on its own to locate
        its undecodable bytes."""
        data = self.data.replace(b"\r", b"\n") if self.cr_only else self.data
        out = []
        for i, raw in enumerate(data.split(b"\n"), start=1):
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                text = raw.decode("utf-8", errors="replace")
                problems.append(
                    Problem(
                        Severity.WARNING,
                        self.member.label,
                        i,
                        f"not valid UTF-8 ({exc.reason} at byte {exc.start}); "
                        "undecodable bytes replaced by U+FFFD",
                    )
                )
            text = text.replace("\r", "")
            if text:
                out.append(Line(i, text))
        return out


def decode(member: Member) -> Decoded:
    """``member``'s bytes decoded once (``Decoded``)."""
    data = member.data[len(BOM) :] if member.data.startswith(BOM) else member.data
    cr_only = False
    if b"\r" in data:
        body = data.rstrip(b"\r\n")
        cr_only = b"\r" in body and b"\n" not in body
    try:
        text: str | None = data.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    return Decoded(member, data, text, cr_only)
