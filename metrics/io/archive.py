"""Read the text files of a zip archive or a folder, split into numbered lines (spec 0.2)."""

from __future__ import annotations

import os
import zipfile
from dataclasses import dataclass
from pathlib import Path

from metrics.model import InputError, Problem, Severity

TEXT_SUFFIXES = (".txt",)
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".gif", ".tif", ".tiff", ".webp")
BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True, slots=True)
class Member:
    """One file inside an archive or folder."""

    name: str  # base name, e.g. "gt_img_1.txt"
    label: str  # for messages, e.g. "gt.zip:gt_img_1.txt"
    data: bytes


@dataclass(frozen=True, slots=True)
class Line:
    number: int  # 1-based
    text: str


def read_members(
    path: str | os.PathLike[str], suffixes: tuple[str, ...] = TEXT_SUFFIXES
) -> list[Member]:
    """Every file with one of ``suffixes`` in a zip, a folder (not recursive) or one file."""
    p = Path(path)
    if not p.exists():
        raise InputError([Problem(Severity.ERROR, str(p), None, "no such file or folder")])
    try:
        if p.is_dir():
            return [
                Member(f.name, str(f), f.read_bytes())
                for f in sorted(p.iterdir())
                if f.is_file() and f.suffix.lower() in suffixes
            ]
        if zipfile.is_zipfile(p):
            return _zip_members(p, suffixes)
        if p.suffix.lower() in suffixes:
            return [Member(p.name, str(p), p.read_bytes())]
    except (OSError, zipfile.BadZipFile, RuntimeError) as exc:
        raise InputError([Problem(Severity.ERROR, str(p), None, f"cannot read: {exc}")]) from exc
    raise InputError(
        [Problem(Severity.ERROR, str(p), None, "not a zip archive, a folder or a .txt file")]
    )


def _zip_members(p: Path, suffixes: tuple[str, ...]) -> list[Member]:
    out = []
    with zipfile.ZipFile(p) as zf:
        for info in zf.infolist():
            base = info.filename.replace("\\", "/").rsplit("/", 1)[-1]
            if info.is_dir() or not base or base.startswith("."):
                continue
            if base.lower().endswith(suffixes):
                out.append(Member(base, f"{p.name}:{info.filename}", zf.read(info)))
    return out


def split_lines(member: Member, problems: list[Problem]) -> list[Line]:
    """Decode as UTF-8 (BOM removed), split on LF, drop CRs and empty lines.

    Undecodable bytes are replaced by U+FFFD and reported as a warning with the line number,
    as the official tools replace them silently.
    """
    data = member.data[len(BOM) :] if member.data.startswith(BOM) else member.data
    out = []
    for i, raw in enumerate(data.split(b"\n"), start=1):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            text = raw.decode("utf-8", errors="replace")
            problems.append(
                Problem(
                    Severity.WARNING,
                    member.label,
                    i,
                    f"not valid UTF-8 ({exc.reason} at byte {exc.start}); "
                    "undecodable bytes replaced by U+FFFD",
                )
            )
        text = text.replace("\r", "")
        if text:
            out.append(Line(i, text))
    return out
