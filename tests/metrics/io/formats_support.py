"""Small helpers of the format tests: write a file, load a dataset, find a problem."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

from metrics.core.model import Dataset, Problem, Severity
from metrics.io.reader import LoadOptions, load_dataset


def write(folder: Path, name: str, content: str | bytes | Any) -> Path:
    """A file under ``folder``: text, bytes, or any other value dumped as JSON."""
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        path.write_text(json.dumps(content, ensure_ascii=False), encoding="utf-8")
    return path


def zipped(path: Path, files: dict[str, str]) -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        for name, text in files.items():
            zf.writestr(name, text)
    return path


def load(gt: Path, det: Path | None = None, **options: Any) -> Dataset:
    return load_dataset(gt, det, options=LoadOptions(**options))


def errors(ds: Dataset) -> list[Problem]:
    return [p for p in ds.problems if p.severity is Severity.ERROR]


def only_error(ds: Dataset) -> str:
    """The one error of a dataset, as printed (file, line or JSON path, message)."""
    found = errors(ds)
    assert len(found) == 1, [str(p) for p in found]
    return str(found[0])
