"""``metrics.io.icdar.det_schema``: the set-level decision (do detection lines end in a
confidence, a transcription) is made by the lines that are boxes. A line that is no box
under any schema (fewer than 4 numbers first, a NUL byte) is an error in any set and must
not decide how the other files are read (new-user trial: ``200,10,300,abc,...`` in one file
turned ``...,1.5`` in another into a transcription, scored)."""

from __future__ import annotations

from pathlib import Path

import pytest

from metrics.catalogue.registry import resolve
from metrics.core.model import Dataset, InputError, Sample
from metrics.io.archive import Line, Member, decode
from metrics.io.icdar.det_schema import NO_BOX, det_evidence, shape_of
from metrics.io.icdar.filelines import gt_file, parse_det_file, plain_det_shape, scan_plain
from metrics.io.icdar.grammar import DetSchema
from metrics.io.icdar.plan import LoadOptions
from metrics.io.reader import load_dataset
from metrics.run import sharded
from tests.support import write_dir

BOX = "10,10,110,10,110,40,10,40"
GT = "10,10,110,10,110,40,10,40,hello\n50,50,150,50,150,90,50,90,2024\n"
NO_BOXES = ["200,10,300,abc,300,40,200,40", "abc", "10,20,0.5", "10,20,300", "10,20", BOX + "\x00"]


@pytest.mark.parametrize("line", NO_BOXES)
def test_a_line_that_is_no_box_says_nothing_of_the_schema(line: str) -> None:
    assert shape_of(line) == NO_BOX
    for other in (f"{BOX},0.5", f"{BOX},1", f"{BOX},1.5", BOX):
        alone = det_evidence([shape_of(other)])
        assert det_evidence([shape_of(other), shape_of(line)]) == alone


def test_boxes_still_decide() -> None:
    assert det_evidence([shape_of(f"{BOX},0.5")]).schema() == DetSchema(confidence=True)
    assert det_evidence([shape_of(f"{BOX},word")]).schema() == DetSchema(transcription=True)
    assert det_evidence([shape_of("10,10,110,40,word")]).schema().transcription


def _set(tmp_path: Path, first: str, second: str) -> tuple[Path, Path]:
    gt = {"gt_img_1.txt": GT, "gt_img_2.txt": GT}
    det = {"res_img_1.txt": f"{BOX}\n{first}\n", "res_img_2.txt": f"{second}\n"}
    return write_dir(tmp_path / "gt", gt), write_dir(tmp_path / "det", det)


# (the broken line, the line of another file, what that line's error says)
CASES = [
    ("200,10,300,abc,300,40,200,40", f"{BOX},1.5", "is above 1"),  # the trial's set
    ("abc", f"{BOX},1", "9 numbers: coordinates come in x,y pairs"),  # was text "1"
    ("10,20,0.5", f"{BOX},1", "9 numbers: coordinates come in x,y pairs"),  # was conf 1 (plain)
    (BOX + "\x00", f"{BOX},1", "9 numbers: coordinates come in x,y pairs"),  # was text
]


@pytest.mark.parametrize(("broken", "other", "says"), CASES)
def test_a_broken_line_leaves_another_files_error_an_error(
    tmp_path: Path, broken: str, other: str, says: str
) -> None:
    ds = load_dataset(*_set(tmp_path, broken, other))
    errors = [(Path(p.source).name, p.line, p.message) for p in ds.errors]
    assert [e[:2] for e in errors] == [("res_img_1.txt", 2), ("res_img_2.txt", 1)], errors
    assert ("NUL byte" if "\x00" in broken else "at least 4 numbers") in errors[0][2]
    assert says in errors[1][2]


def test_a_broken_line_does_not_refuse_another_files_confidence(tmp_path: Path) -> None:
    """``10,20,300`` (an odd count ending in no confidence) used to make the set's
    detections carry none: with transcriptions forced off, ``...,0.5`` was refused."""
    g, d = _set(tmp_path, "10,20,300", f"{BOX},0.5")
    for opts in (LoadOptions(), LoadOptions(det_transcription=False)):
        ds = load_dataset(g, d, options=opts)
        assert [(Path(p.source).name, p.line) for p in ds.errors] == [("res_img_1.txt", 2)]
        assert [i.confidence for i in _sample(ds, "img_2").det] == [0.5]


@pytest.mark.parametrize("workers", [1, 2, 0])
@pytest.mark.parametrize(("broken", "other", "says"), CASES[:2])
def test_every_path_reports_both_and_skips_both(
    tmp_path: Path,
    workers: int,
    broken: str,
    other: str,
    says: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if workers == 0:  # one process, the scans not kept
        monkeypatch.setattr(sharded, "KEEP_SCANS", 0)
        monkeypatch.setattr("metrics.io.icdar.plan.KEEP_SCANS", 0)
        workers = 1
    g, d = _set(tmp_path, broken, other)
    spec = [resolve("tiou")]
    strict = sharded.evaluate(g, d, spec, {}, policy="strict", workers=workers)
    assert strict is not None and isinstance(strict.refused, InputError)
    assert [Path(p.source).name for p in strict.refused.problems] == [
        "res_img_1.txt",
        "res_img_2.txt",
    ]
    assert says in strict.refused.problems[1].message
    skip = sharded.evaluate(g, d, spec, {}, policy="skip_sample", workers=workers)
    assert skip is not None and skip.refused is None
    (ev,) = skip.evaluations
    assert sorted(ev.excluded) == ["img_1", "img_2"] and not ev.results


def test_a_plain_polygon_file_with_a_short_line_is_left_to_the_lines() -> None:
    scan = scan_plain(decode(_member(f"{BOX}\n10,20,0.5\n")))
    assert scan is not None
    assert plain_det_shape(scan) is None  # the line path says NO_BOX for the short one
    whole = scan_plain(decode(_member(f"{BOX},0.5\n")))
    assert whole is not None
    shape = plain_det_shape(whole)
    assert shape is not None and shape.conf_like


def test_a_broken_line_does_not_change_the_files_box_hint() -> None:
    """An LTRB file with text: ``x1,y1,x2,y2,1,959,3`` is the box and the text ``1,959,3``;
    a line ``1,2,abc`` (no box) used to make it a 3-point polygon with the text ``3``."""
    lines = [Line(1, "10,10,50,30,word"), Line(2, "60,10,90,30,1,959,3"), Line(3, "1,2,abc")]
    parsed, hint = gt_file(lines)
    assert hint == 4
    assert [getattr(p, "text", None) for p in parsed[:2]] == ["word", "1,959,3"]
    det = parse_det_file(lines, DetSchema(transcription=True))
    assert [getattr(p, "text", None) for p in det[:2]] == ["word", "1,959,3"]


def _sample(ds: Dataset, sid: str) -> Sample:
    return next(s for s in ds.samples if s.id == sid)


def _member(text: str) -> Member:
    return Member("res_img_1.txt", "res_img_1.txt", text.encode())
