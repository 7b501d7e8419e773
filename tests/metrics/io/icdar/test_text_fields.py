"""Transcriptions that start with numbers, detection sets whose trailing field is text, and
empty transcriptions, read as the official QUAD / LTRB grammars (and CLEval) read them.

CLEval's own test data (Korean receipts, QUAD, ``--E2E``) has GT lines such as
``1847,1878,2031,1878,2031,1934,1847,1934,1,959점`` (text ``1,959점``) and detections whose
transcription is a number (``...,154``, ``...,9,080``) or empty (``...,``). The files here
are written in that style.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from metrics.catalogue.registry import resolve
from metrics.core.model import BoxType, Dataset, Severity
from metrics.io.icdar.det_schema import SchemaEvidence
from metrics.io.icdar.lines import DetSchema, LineError, det_fields, gt_fields, parse_gt_line
from metrics.io.icdar.plan import LoadOptions
from metrics.io.reader import load_dataset
from metrics.run import sharded
from metrics.run.runner import run
from tests.support import write_dir

Q = "0,0,100,0,100,20,0,20"  # a clockwise QUAD
GT = "\n".join(
    [
        f"{Q},1,959점",
        "0,30,100,30,100,50,0,50,상품",
        "0,60,100,60,100,80,0,80,12,000",
        "0,90,40,90,40,110,0,110,154",
        "0,120,40,120,40,140,0,140,1,234,567",
    ]
)
DET = "\n".join(
    [
        f"{Q},1,959점",
        "0,30,100,30,100,50,0,50,상품",
        "0,60,100,60,100,80,0,80,12,000",
        "0,90,40,90,40,110,0,110,154",
        "0,120,40,120,40,140,0,140,1,234,567",
        "200,0,240,0,240,20,200,20,",
    ]
)
TEXTS = ["1,959점", "상품", "12,000", "154", "1,234,567"]


def _load(tmp_path: Path, gt: str, det: str, **opts: bool | None) -> Dataset:
    tmp_path.mkdir(exist_ok=True)
    g = write_dir(tmp_path / "gt", {"gt_img_1.txt": gt, "gt_img_2.txt": gt})
    d = write_dir(tmp_path / "det", {"res_img_1.txt": det, "res_img_2.txt": det})
    return load_dataset(g, d, options=LoadOptions(**opts))  # type: ignore[arg-type]


def _errors(ds: Dataset) -> list[str]:
    return [p.message for p in ds.problems if p.severity is Severity.ERROR]


# ------------------------------------------------------------------ one line


def test_an_odd_count_of_numbers_then_text_is_a_quad_and_its_text() -> None:
    nums, text, _ = gt_fields("1847,1878,2031,1878,2031,1934,1847,1934,1,959점")
    assert (len(nums), text) == (8, "1,959점")
    inst = parse_gt_line("1847,1878,2031,1878,2031,1934,1847,1934,1,959점", 1)
    assert inst.box_type is BoxType.QUAD and inst.text == "1,959점"


def test_an_odd_count_of_numbers_then_text_is_an_ltrb_box_and_its_text() -> None:
    inst = parse_gt_line("10,10,20,20,5,abc", 1)
    assert inst.box_type is BoxType.LTRB and inst.text == "5,abc"
    assert inst.points.tolist() == [[10, 10], [20, 10], [20, 20], [10, 20]]


def test_polygons_and_lines_of_numbers_are_read_as_before() -> None:
    poly = parse_gt_line("0,0,10,0,20,0,20,10,10,10,0,10,word", 1)
    assert poly.box_type is BoxType.POLY and poly.text == "word"
    numeric = parse_gt_line("0,0,10,0,20,0,20,10,10,10,154", 1)  # 5 points and a number
    assert numeric.box_type is BoxType.POLY and numeric.text == "154"
    run_of_numbers = parse_gt_line(f"{Q},12,34", 1)
    assert run_of_numbers.box_type is BoxType.QUAD and run_of_numbers.text == "12,34"
    with pytest.raises(LineError):
        parse_gt_line("1,2,3", 1)


def test_a_file_of_quads_reads_the_numbers_after_the_box_as_text() -> None:
    """With the other lines of its file QUADs with text, ``...,1,234,567`` is a QUAD whose
    text is ``1,234,567`` (CLEval's QUAD grammar), not 5 points and ``567``."""
    line = "0,120,40,120,40,140,0,140,1,234,567"
    assert gt_fields(line, hint=8)[:2] == (line.split(",")[:8], "1,234,567")
    assert len(gt_fields(line)[0]) == 10  # alone: the polygon reading, as before


@pytest.mark.parametrize(
    ("line", "text"),
    [(f"{Q},154", "154"), (f"{Q},9,080", "9,080"), (f"{Q},", ""), (Q, None), (f"{Q},1,x", "1,x")],
)
def test_detection_text_fields(line: str, text: str | None) -> None:
    nums, conf, got, _ = det_fields(line, DetSchema(transcription=True), hint=8)
    assert (len(nums), conf, got) == (8, None, text)


def test_a_trailing_comma_without_transcriptions_is_tolerated() -> None:
    assert det_fields(f"{Q},", DetSchema())[1:3] == (None, None)
    assert det_fields(f"{Q},", DetSchema(confidence=True))[1:3] == (None, None)


def test_confidence_and_a_numeric_transcription() -> None:
    both = DetSchema(confidence=True, transcription=True)
    assert det_fields(f"{Q},0.9,9,080", both)[1:3] == (0.9, "9,080")
    assert det_fields(f"{Q},0.9,9,080", both, hint=8)[1:3] == (0.9, "9,080")
    assert det_fields(f"{Q},0.9,", both)[1:3] == (0.9, "")


# ------------------------------------------------------------------ the schema of a set


def test_schema_evidence() -> None:
    conf = SchemaEvidence(conf_like=True, odd=True)
    assert conf.schema() == DetSchema(confidence=True)
    # one line whose trailing field is no confidence makes that field text everywhere
    assert (conf | SchemaEvidence(not_conf=True, odd=True)).schema() == DetSchema(
        transcription=True
    )
    assert conf.schema((False, None)) == DetSchema(transcription=True)
    assert conf.schema((None, False)) == DetSchema(confidence=True)
    assert SchemaEvidence(text=True).schema((True, None)) == DetSchema(True, True)


def test_a_cleval_style_set_reads_as_cleval_reads_it(tmp_path: Path) -> None:
    ds = _load(tmp_path, GT, DET + "\n300,0,340,0,340,20,300,20,0.5")
    assert not _errors(ds)
    s = ds.samples[0]
    assert [g.text for g in s.gt] == TEXTS
    assert all(g.box_type is BoxType.QUAD for g in s.gt)
    # "0.5" alone would look like a confidence; "154" is none, so the field is text
    assert [d.text for d in s.det] == [*TEXTS, "", "0.5"]
    assert [d.confidence for d in s.det] == [None] * 7
    assert all(d.box_type is BoxType.QUAD for d in s.det)


def test_the_reference_style_confidences_stay_confidences(tmp_path: Path) -> None:
    det = f"{Q},0.95\n0,30,100,30,100,50,0,50,1\n0,60,100,60,100,80,0,80,0.3"
    ds = _load(tmp_path, GT, det)
    assert not _errors(ds)
    assert [d.confidence for d in ds.samples[0].det] == [0.95, 1.0, 0.3]
    assert {d.text for d in ds.samples[0].det} == {None}


def test_the_options_override_the_inference(tmp_path: Path) -> None:
    det = f"{Q},0.95\n0,30,100,30,100,50,0,50,0.5"
    as_text = _load(tmp_path / "a", GT, det, det_confidence=False)
    assert not _errors(as_text)
    assert [(d.confidence, d.text) for d in as_text.samples[0].det] == [
        (None, "0.95"),
        (None, "0.5"),
    ]
    numbers = f"{Q},154\n0,30,100,30,100,50,0,50,9,080"
    as_conf = _load(tmp_path / "b", GT, numbers, det_confidence=True)
    assert any("confidence '154'" in m for m in _errors(as_conf))
    no_text = _load(tmp_path / "c", GT, f"{Q},", det_transcription=False)
    assert [d.text for d in no_text.samples[0].det] == [None]


def test_an_empty_transcription_is_evaluated_by_cleval_e2e(tmp_path: Path) -> None:
    ds = _load(tmp_path, GT, DET)
    assert ds.samples[0].det[-1].text == ""
    (ev,) = run(ds, [resolve("cleval_e2e")])  # "" has no character to miss (as in CLEval)
    assert (ev.recall, ev.precision) == (pytest.approx(1.0), pytest.approx(1.0))
    (det,) = run(ds, [resolve("cleval_det")])
    assert det.recall == pytest.approx(1.0)


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize(
    "opts", [{}, {"det_confidence": False}, {"det_transcription": False}, {"det_confidence": True}]
)
def test_sharded_reading_gives_the_same(
    tmp_path: Path, workers: int, opts: dict[str, bool]
) -> None:
    gt = {f"gt_img_{k}.txt": GT for k in range(1, 6)}
    det: dict[str, str | bytes] = {f"res_img_{k}.txt": f"{Q},0.95\n" for k in range(1, 5)}
    det["res_img_5.txt"] = DET  # the one file that says the trailing field is text
    g, d = write_dir(tmp_path / "gt", dict(gt)), write_dir(tmp_path / "det", det)
    options = LoadOptions(**opts)  # type: ignore[arg-type]
    ds = load_dataset(g, d, options=options)
    specs = [resolve("cleval_det")]
    got = sharded.evaluate(g, d, specs, {}, options=options, workers=workers)
    assert got is not None and got.problems == ds.problems
    if got.refused is None:
        (want,) = run(ds, specs, {})
        assert got.evaluations[0].summary == want.summary


def test_json_detections_follow_the_options(tmp_path: Path) -> None:
    preds = tmp_path / "preds.json"
    preds.write_text(
        '{"img_1.jpg": {"det_polygons": [[0,0,100,0,100,20,0,20]], "det_scores": [0.8]}}'
    )
    g = write_dir(tmp_path / "gt", {"gt_img_1.txt": GT})
    assert load_dataset(g, preds).samples[0].det[0].confidence == 0.8
    off = load_dataset(g, preds, options=LoadOptions(det_confidence=False))
    assert off.samples[0].det[0].confidence is None
