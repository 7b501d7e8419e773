"""Builders shared by the tests: instances, samples, archives, hypothesis strategies, and
the locator of the shared conformance data (``../shared`` or ``$DETLENS_SHARED``).

Fixtures live in ``conftest.py`` files; everything a test module imports lives here.
"""

from __future__ import annotations

import os
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import strategies as st

from metrics.model import BoxType, Instance, Sample, ltrb_points
from metrics.results import SampleResult

ROOT = Path(__file__).resolve().parents[1]
SHARED_ENV = "DETLENS_SHARED"

# --------------------------------------------------------------------------- shared data


def shared_root() -> Path:
    """The shared data folder: ``$DETLENS_SHARED`` if set, else ``../shared`` beside the repo.

    Read at every call, so a test (or a monkeypatched environment) sees the current value.
    """
    env = os.environ.get(SHARED_ENV)
    return Path(env) if env else ROOT.parent / "shared"


def shared_path(*parts: str) -> Path:
    """A path inside the shared folder (which may not exist)."""
    return shared_root().joinpath(*parts)


def shared_input(relative: str) -> Path:
    """An input path of a reference file (``shared/data/...``, relative to the folder that
    holds ``shared/``) resolved against the shared folder actually in use."""
    parts = Path(relative).parts
    if parts and parts[0] == "shared":
        parts = parts[1:]
    return shared_path(*parts)


def skip_reason(path: Path) -> str:
    return (
        f"{path} not found: conformance data lives in ../shared beside the repo "
        f"(set {SHARED_ENV} to point elsewhere)"
    )


def shared_or_skip(*parts: str) -> Path:
    """A path inside the shared folder, or skip the test saying where it was looked for."""
    path = shared_path(*parts)
    if not path.exists():
        pytest.skip(skip_reason(path))
    return path


# --------------------------------------------------------------------------- instances, samples


def quad(
    coords: str, text: str | None = None, line: int = 1, conf: float | None = None
) -> Instance:
    """Instance from 'x1,y1,...' (4 points = QUAD, more = POLY)."""
    v = np.array([float(c) for c in coords.split(",")], dtype=np.float64).reshape(-1, 2)
    kind = BoxType.QUAD if len(v) == 4 else BoxType.POLY
    return Instance(
        points=v,
        box_type=kind,
        text=text,
        confidence=conf,
        dont_care=text == "###",
        line=line,
        integer=all(float(c).is_integer() for c in coords.split(",")),
    )


def sample(
    gt: list[Instance],
    det: list[Instance],
    lines: list[Instance] | None = None,
    sid: str = "img_1",
) -> Sample:
    """One image with the given GT and detections (sources ``gt:`` / ``det:``)."""
    return Sample(
        id=sid,
        gt=tuple(gt),
        det=tuple(det),
        gt_source=f"gt:gt_{sid}.txt",
        det_source=f"det:res_{sid}.txt",
        gt_lines=None if lines is None else tuple(lines),
    )


def gts(*items: tuple[str, str]) -> list[Instance]:
    """GT quads/polygons from (coords, text) pairs, lines numbered from 1."""
    return [quad(c, t, n) for n, (c, t) in enumerate(items, start=1)]


def dets(*coords: str) -> list[Instance]:
    """Detections without text from coordinate strings, lines numbered from 1."""
    return [quad(c, None, n) for n, c in enumerate(coords, start=1)]


def box(
    xmin: int, ymin: int, xmax: int, ymax: int, text: str | None = "ABCDE", line: int = 1
) -> Instance:
    """An LTRB instance (IC13 style)."""
    return Instance(
        points=ltrb_points(xmin, ymin, xmax, ymax),
        box_type=BoxType.LTRB,
        text=text,
        dont_care=text == "###",
        line=line,
    )


def boxes(*coords: tuple[int, int, int, int]) -> tuple[Instance, ...]:
    """LTRB detections without text, lines numbered from 1."""
    return tuple(box(*c, text=None, line=n) for n, c in enumerate(coords, start=1))


def ltrb_sample(
    gt: tuple[Instance, ...], det: tuple[Instance, ...], det_file: bool = True
) -> Sample:
    """An IC13-style sample read from zips (no detection file when ``det_file`` is False)."""
    return Sample(
        id="img_1",
        gt=gt,
        det=det,
        gt_source="gt.zip:gt_img_1.txt",
        det_source="res.zip:res_img_1.txt" if det_file else None,
    )


def scores(r: SampleResult) -> tuple[float, float, float]:
    """(recall, precision, hmean) of a sample result."""
    return r.recall, r.precision, r.hmean


# --------------------------------------------------------------------------- files


def write_zip(path: Path, files: dict[str, str | bytes]) -> Path:
    """A zip with the given members."""
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    return path


def write_dir(path: Path, files: dict[str, str | bytes]) -> Path:
    """A folder with the given files."""
    path.mkdir()
    for name, data in files.items():
        (path / name).write_bytes(data if isinstance(data, bytes) else data.encode())
    return path


# --------------------------------------------------------------------------- strategies


@st.composite
def convex_quads(draw: st.DrawFn) -> list[tuple[int, int]]:
    """A strictly convex int quad: a box, or one vertex strictly inside each side of a box."""
    x0, y0 = draw(st.integers(-6, 4)), draw(st.integers(-6, 4))
    x1, y1 = x0 + draw(st.integers(2, 6)), y0 + draw(st.integers(2, 6))
    if draw(st.booleans()):
        q = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    else:
        a, c = draw(st.integers(x0 + 1, x1 - 1)), draw(st.integers(x0 + 1, x1 - 1))
        b, d = draw(st.integers(y0 + 1, y1 - 1)), draw(st.integers(y0 + 1, y1 - 1))
        q = [(a, y0), (x1, b), (c, y1), (x0, d)]
    return q[::-1] if draw(st.booleans()) else q


# --------------------------------------------------------------------------- viewer


def demo_dataset_paths(det: str = "a") -> Any:
    """``viewer.session.DatasetPaths`` of the demo data with detector A or B.

    Imports the viewer (and so Qt) only when called: the engine tests never do.
    """
    from metrics.demo import demo_paths
    from viewer.session import DatasetPaths

    d = demo_paths()
    return DatasetPaths(str(d.gt), str(d.det_a if det == "a" else d.det_b), str(d.images))


def wait_evaluated(qtbot: Any, session: Any) -> None:
    """Wait (pytest-qt) until a viewer session has its evaluations and is idle."""
    qtbot.waitUntil(lambda: bool(session.evaluations) and not session.is_busy(), timeout=60000)
