"""Builders shared by the tests: instances, samples, archives, hypothesis strategies, the
helpers and constants of the metric families' tests (PCC evidence, CLEval, TedEval, DetEval),
and the locator of the shared conformance data (``../shared`` or ``$DETLENS_SHARED``).

Fixtures live in ``conftest.py`` files; everything a test module imports lives here.
"""

from __future__ import annotations

import os
import zipfile
from collections.abc import Collection
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import shapely
from hypothesis import strategies as st

from metrics.catalogue.registry import resolve
from metrics.cleval.metric import ClevalLegacyParams, ClevalParams
from metrics.core.model import BoxType, Instance, Sample, ltrb_points
from metrics.core.results import SampleResult
from metrics.deteval import metric as deteval_metric
from metrics.tedeval import metric as tedeval_metric

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


def approx_tuple(*values: float) -> Any:
    """``pytest.approx`` of the tuple of ``values`` within an absolute 1e-12."""
    return pytest.approx(values, abs=1e-12)


# A 100 x 20 GT word "ABCDE" as (coords, text) for ``gts``: its five pseudo-character
# centres (PCC) lie at x = 10, 30, 50, 70, 90 (y = 10).
WORD_G0 = ("0,0,100,0,100,20,0,20", "ABCDE")

# A detection covering the left 60 % of ``WORD_G0`` (its first three PCC).
WORD_D60 = "0,0,60,0,60,20,0,20"


def rect(x0: int, y0: int, x1: int, y1: int) -> str:
    """'x1,y1,...' of an axis-aligned rectangle written as a 4-point polygon."""
    return f"{x0},{y0},{x1},{y0},{x1},{y1},{x0},{y1}"


Rect = tuple[int, int, int, int]


def rect_sample(gt: list[Rect], det: list[Rect], sid: str = "img_1") -> Sample:
    """GT words (text "WORD") and detections as rectangles (Total-Text worked cases)."""
    return sample(gts(*((rect(*g), "WORD") for g in gt)), dets(*(rect(*d) for d in det)), sid=sid)


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


PARTIAL_GT = f"{rect(10, 10, 60, 30)},abc\n{rect(100, 10, 160, 30)},def\n"


def partial_set(
    folder: Path,
    n: int,
    ccw: Collection[int] = (),
    miss: Collection[int] = (),
    name: str = "det",
) -> tuple[Path, Path]:
    """``gt.zip`` and ``NAME.zip`` in ``folder``: ``n`` images (``img_0`` ...) of two words,
    each found exactly, but the second missed in the images of ``miss`` and every box
    written counter-clockwise (which the ICDAR IoU family refuses) in those of ``ccw``."""

    def box(x0: int, y0: int, x1: int, y1: int, k: int) -> str:
        pts = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
        return ",".join(f"{x},{y}" for x, y in (pts[::-1] if k in ccw else pts))

    det = {
        f"res_img_{k}.txt": box(10, 10, 60, 30, k)
        + "\n"
        + ("" if k in miss else box(100, 10, 160, 30, k) + "\n")
        for k in range(n)
    }
    gt = folder / "gt.zip"
    if not gt.exists():
        write_zip(gt, {f"gt_img_{k}.txt": PARTIAL_GT for k in range(n)})
    return gt, write_zip(folder / f"{name}.zip", det)


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


def convex_quad_arrays() -> st.SearchStrategy[np.ndarray]:
    """``convex_quads`` as one-quad float64 arrays of shape (1, 4, 2), as ``metrics.shapes.quads``
    takes them."""
    return convex_quads().map(lambda q: np.array([q], dtype=np.float64))


def geos_overlap_area(a: np.ndarray, b: np.ndarray) -> float:
    """The GEOS (shapely) area of the intersection of the first quads of ``a`` and ``b``."""
    return float(shapely.area(shapely.intersection(shapely.polygons(a[0]), shapely.polygons(b[0]))))


# --------------------------------------------------------------------------- PCC (CLEval, TedEval)


def pcc_points(r: SampleResult, gt: int) -> list[list[float]]:
    """The pseudo-character centres of GT ``gt`` as [[x, y], ...]."""
    pts: list[list[float]] = r.evidence.pcc.points[gt].tolist()
    return pts


def pcc_hits(r: SampleResult, gt: int = 0) -> list[int]:
    """How many detections hold each pseudo-character centre of GT ``gt``."""
    return [int(v) for v in r.evidence.pcc.hits[gt]]


# --------------------------------------------------------------------------- CLEval

# CLEval 0.1.1 (the default parameters).
CLEVAL_V011 = ClevalParams()

# The paper-era CLEval code (default legacy parameters).
CLEVAL_LEGACY = ClevalLegacyParams()


def cleval_counters(r: SampleResult) -> dict[str, int]:
    """The CLEval evidence counters (split, merge, overlap, miss, fp_boxes, fp_chars)."""
    return dict(r.evidence.counters)


def cleval_poly(coords: str, text: str | None, line: int = 1) -> Instance:
    """A CLEval polygon (or quad) from 'x1,y1,...' with its text (``quad`` by another name)."""
    return quad(coords, text, line)


# --------------------------------------------------------------------------- TedEval


def tedeval_run(
    gt: list[Instance], det: list[Instance], params: tedeval_metric.TedEvalParams | None = None
) -> SampleResult:
    """TedEval of one image (default parameters unless ``params``)."""
    return tedeval_metric.evaluate_sample(sample(gt, det), params or tedeval_metric.TedEvalParams())


def tedeval_records(r: SampleResult) -> list[tuple[str, tuple[int, ...], tuple[int, ...]]]:
    """The matches as (label, GT indices, detection indices)."""
    return [(m.label, m.gt, m.det) for m in r.matches]


# --------------------------------------------------------------------------- DetEval

# The legacy DetEval variant (spec 2.7).
DETEVAL_LEGACY = deteval_metric.DetEvalParams(variant="legacy")

# A 100 x 20 = 2000 px (inclusive) LTRB GT "ABCDE", and a second GT "FGH" 10 px to its right.
DETEVAL_G0 = box(0, 0, 99, 19)
DETEVAL_G1 = box(110, 0, 209, 19, "FGH", line=2)


def deteval_run(
    gt: tuple[Instance, ...],
    det: tuple[Instance, ...],
    params: deteval_metric.DetEvalParams | None = None,
    det_file: bool = True,
) -> SampleResult:
    """DetEval of one IC13-style image (RRC variant unless ``params``)."""
    return deteval_metric.evaluate_sample(
        ltrb_sample(gt, det, det_file), params or deteval_metric.DetEvalParams()
    )


def deteval_reasons(r: SampleResult) -> list[str]:
    """The reasons of the discarded DetEval candidates, in order."""
    return [d.reason for d in r.evidence.discarded]


# --------------------------------------------------------------------------- viewer


def demo_dataset_paths(det: str = "a") -> Any:
    """``viewer.app.session.DatasetPaths`` of the demo data with detector A or B.

    Imports the viewer (and so Qt) only when called: the engine tests never do.
    """
    from metrics.io.demo import demo_paths
    from viewer.app.session import DatasetPaths

    d = demo_paths()
    return DatasetPaths(str(d.gt), str(d.det_a if det == "a" else d.det_b), str(d.images))


def wait_evaluated(qtbot: Any, session: Any) -> None:
    """Wait (pytest-qt) until a viewer session has its evaluations and is idle."""
    qtbot.waitUntil(lambda: bool(session.evaluations) and not session.is_busy(), timeout=60000)


# --------------------------------------------------------------------------- HierText JSON


def ht_vertices(box: tuple[int, ...] | list[list[int]]) -> list[list[int]]:
    """Vertices of a box (x0, y0, x1, y1) as the corners, or the given vertices."""
    if isinstance(box, tuple):
        x0, y0, x1, y1 = box
        return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]
    return box


def ht_word(box: Any, *, legible: bool = True, text: str = "w") -> dict[str, Any]:
    return {"vertices": ht_vertices(box), "legible": legible, "text": text}


def ht_line(
    words: list[dict[str, Any]], *, legible: bool = True, box: Any = None
) -> dict[str, Any]:
    out: dict[str, Any] = {"words": words, "legible": legible, "text": "l"}
    if box is not None:
        out["vertices"] = ht_vertices(box)
    return out


def ht_paragraph(
    lines: list[dict[str, Any]], *, legible: bool = True, box: Any = None
) -> dict[str, Any]:
    out: dict[str, Any] = {"lines": lines, "legible": legible}
    if box is not None:
        out["vertices"] = ht_vertices(box)
    return out


def ht_image(
    paragraphs: list[dict[str, Any]], image_id: str = "img_1", size: tuple[int, int] = (100, 100)
) -> dict[str, Any]:
    """A GT (with ``size``) or prediction (``size=None`` is not used: keys are ignored) entry."""
    return {
        "image_id": image_id,
        "image_width": size[0],
        "image_height": size[1],
        "paragraphs": paragraphs,
    }


def ht_words_image(
    boxes: list[Any], image_id: str = "img_1", *, legible: list[bool] | None = None
) -> dict[str, Any]:
    """An image whose every word is its own line and paragraph."""
    flags = legible or [True] * len(boxes)
    return ht_image(
        [
            ht_paragraph([ht_line([ht_word(b, legible=f)], legible=f)], legible=f, box=b)
            for b, f in zip(boxes, flags, strict=True)
        ],
        image_id,
    )


def ht_files(tmp: Path, gt: list[dict[str, Any]], det: list[dict[str, Any]]) -> tuple[Path, Path]:
    """gt.json and det.json in ``tmp`` holding these annotations."""
    import json

    paths = (tmp / "gt.json", tmp / "det.json")
    for path, entries in zip(paths, (gt, det), strict=True):
        path.write_text(json.dumps({"annotations": entries}))
    return paths


def run_one(metric: str, s: Sample, params: object = None) -> SampleResult:
    """One sample through a metric's public path (its spec's batch ``evaluate``)."""
    spec = resolve(metric)
    (result,) = spec.evaluate([s], spec.params_type() if params is None else params)
    assert result is not None
    return result


# --------------------------------------------------------------------------- FIFOs


def bounded_on_fifo(fifo: Path, call: Any, timeout: float = 20.0) -> Any:
    """``call()`` on a daemon thread; if it has not returned after ``timeout`` seconds it is
    blocked on ``fifo``: the FIFO is then opened for writing and closed (the reader gets an
    end of file and the thread ends) and the test fails. A regression is a failure, never
    a test run that hangs."""
    import threading

    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = call()
        except BaseException as exc:  # re-raised in the test's thread
            box["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        fd = os.open(fifo, os.O_WRONLY)  # there is a reader: it is blocked in open()
        os.close(fd)
        thread.join(timeout)
        pytest.fail(f"blocked on the FIFO {fifo} (opened it as a file)")
    if "error" in box:
        raise box["error"]
    return box.get("value")


def icdar_grid_set(root: Path, images: int, boxes: int) -> tuple[Path, Path]:
    """An ICDAR txt set in ``root/gt`` and ``root/det``: ``images`` images of ``boxes`` words on
    a grid, each detection shifted by (2, 1): big enough to take seconds with every metric
    (the interrupt and signal tests stop a run in the middle)."""
    gt, det = root / "gt", root / "det"
    gt.mkdir()
    det.mkdir()
    for k in range(images):
        g, d = [], []
        for b in range(boxes):
            x, y = 30 * (b % 20), 40 * (b // 20) + k % 7
            g.append(f"{x},{y},{x + 25},{y},{x + 25},{y + 20},{x},{y + 20},W{b}")
            d.append(f"{x + 2},{y + 1},{x + 27},{y + 1},{x + 27},{y + 21},{x + 2},{y + 21}")
        (gt / f"gt_img_{k}.txt").write_text("\n".join(g) + "\n")
        (det / f"res_img_{k}.txt").write_text("\n".join(d) + "\n")
    return gt, det
