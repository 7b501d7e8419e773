"""Issue 30, points 4 and 5: every reader refuses the same numbers the same way, located.

Non-finite values, values beyond ±1e9, integers above 1e308 or of 5,000 digits, JSON nested
100,000 deep, a detlens-JSON ``box_type`` that does not fit its points, a confidence outside
[0, 1] or ``nan`` where a set's confidence goes: each is an error naming the file (and line
or JSON path), never a traceback, never silently a text.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from metrics.cli.main import main
from metrics.io.jsonload import MAX_DEPTH, JsonError, depth, loads
from metrics.io.numbers import coordinate, text_number
from tests.metrics.io.formats_support import errors, load, write

QUAD = [[10, 10], [50, 10], [50, 30], [10, 30]]
HUGE_INT = int("1" + "0" * 400)


def _detlens(samples: list[dict[str, Any]]) -> dict[str, Any]:
    return {"format": "detlens", "version": 1, "samples": samples}


def _box(**fields: Any) -> dict[str, Any]:
    return {"points": QUAD, "box_type": "QUAD", "text": "ab", **fields}


def _json_text(value: Any) -> str:
    return json.dumps(value).replace('"HUGE"', str(HUGE_INT))


def _run(tmp_path: Path, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().err


@pytest.mark.parametrize(
    ("box", "expect"),
    [
        (_box(points=[[10, 10], [50, 10], [50, 30], ["HUGE", 30]]), "beyond"),
        (_box(points=[[10, 10], [50, 10], [50, 30], [1e300, 30]]), "beyond"),
        (_box(points=[[10, 10], [50, 10], [50, 30], [2e9, 30]]), "beyond"),
        (_box(confidence="HUGE"), "not in [0, 1]"),
        (_box(confidence=5), "not in [0, 1]"),
        (_box(confidence=-0.5), "not in [0, 1]"),
        (_box(box_type="LTRB", points=[*QUAD, [1, 2]]), "needs 4 points"),
        (_box(box_type="QUAD", points=[*QUAD, [1, 2]]), "needs 4 points"),
        (_box(line="x"), "line"),
        (_box(line="HUGE"), "line"),
    ],
)
def test_detlens_json_numbers_are_located_errors(
    tmp_path: Path, box: dict[str, Any], expect: str
) -> None:
    gt = write(tmp_path, "gt.json", _detlens([{"id": "img_1", "gt": [_box()]}]))
    det = tmp_path / "det.json"
    det.write_text(_json_text(_detlens([{"id": "img_1", "det": [box]}])), encoding="utf-8")
    ds = load(gt, det)
    found = [str(p) for p in errors(ds)]
    assert len(found) == 1 and expect in found[0] and "det.json" in found[0], found


@pytest.mark.parametrize(
    "text",
    [
        '{"format": "detlens", "samples": ' + "[" * 100_000 + "]" * 100_000 + "}",
        '{"format": "detlens", "samples": [{"id": "a", "det": [{"points": ['
        + "1" * 5000
        + "]}]}]}",
        '{"annotations": [' + "{" * 5000,
    ],
    ids=["deep", "5000-digits", "deep-unclosed"],
)
@pytest.mark.parametrize("command", ["eval", "check", "convert"])
def test_json_depth_and_digits_exit_2_naming_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, command: str
) -> None:
    gt = write(tmp_path, "gt.json", _detlens([{"id": "a", "gt": [_box()]}]))
    bad = write(tmp_path, "bad.json", text)
    argv = {
        "eval": ["eval", "--gt", str(gt), "--det", str(bad), "--metric", "iou"],
        "check": ["check", "--gt", str(bad)],
        "convert": ["convert", "--gt", str(bad), "--to", "json", str(tmp_path / "o.json")],
    }[command]
    code, err = _run(tmp_path, capsys, *argv)
    assert code in (1, 2), err
    assert "bad.json" in err and "Traceback" not in err, err
    assert not (tmp_path / "o.json").exists()


@pytest.mark.parametrize(
    "fmt",
    ["mmocr_pred", "paddle_res", "art", "doctr_dims", "hiertext", "cocotext"],
)
@pytest.mark.parametrize("bad", ["HUGE", 1e300, 2e9])
def test_every_json_format_refuses_huge_coordinates(tmp_path: Path, fmt: str, bad: Any) -> None:
    poly = [10, 10, 50, 10, 50, 30, bad, 30]
    pairs = [[10, 10], [50, 10], [50, 30], [bad, 30]]
    doc: Any = {
        "mmocr_pred": {"predictions": [{"det_polygons": [poly], "det_scores": [0.9]}]},
        "paddle_res": {"input_path": "img_1.jpg", "dt_polys": [pairs], "dt_scores": [0.9]},
        "art": {"res_1": [{"points": pairs, "confidence": 0.9}]},
        "doctr_dims": {
            "pages": [
                {
                    "page_idx": 0,
                    "dimensions": [bad, 100],
                    "blocks": [
                        {
                            "lines": [
                                {
                                    "words": [
                                        {
                                            "value": "a",
                                            "confidence": 0.9,
                                            "geometry": [[0.1, 0.1], [0.5, 0.3]],
                                        }
                                    ]
                                }
                            ]
                        }
                    ],
                }
            ]
        },
        "hiertext": {
            "annotations": [
                {
                    "image_id": "img_1",
                    "paragraphs": [{"lines": [{"words": [{"vertices": pairs, "text": "a"}]}]}],
                }
            ]
        },
        "cocotext": {
            "imgs": {"1": {"id": 1, "file_name": "img_1.jpg", "width": 100, "height": 100}},
            "anns": {"1": {"id": 1, "image_id": 1, "bbox": [10, 10, bad, 20], "utf8_string": "a"}},
            "imgToAnns": {"1": [1]},
        },
    }[fmt]
    path = tmp_path / f"{fmt}.json"
    path.write_text(_json_text(doc), encoding="utf-8")
    gt = write(tmp_path, "gt.json", _detlens([{"id": "img_1", "gt": [_box()]}]))
    try:
        ds = load(path, None) if fmt == "cocotext" else load(gt, path)
    except Exception as exc:  # an InputError naming the file is fine too
        assert path.name in str(exc), exc
        assert type(exc).__name__ == "InputError", repr(exc)
        return
    found = [str(p) for p in errors(ds)]
    assert found and all(path.name in p for p in found), found


CURVED = {
    "totaltext": (
        "poly_gt_img1.txt",
        "x: [[10 50 50 10]], y: [[10 10 {v} 30]], ornt: [u'h'], transcriptions: [u'ab']\n",
    ),
    "ctw1500_txt": ("1001.txt", "10,10,50,10,50,30,{v},30,####ab\n"),
    "ctw1500_32": ("1001.txt", "10,10,50,40," + ",".join(["1"] * 27) + ",{v}\n"),
    "ctw1500_xml": (
        "1001.xml",
        '<Annotations><image file="1001.jpg"><box><label>ab</label>'
        "<segs>10,10,50,10,50,{v},10,30</segs></box></image></Annotations>",
    ),
    "msra_td500": ("IMG_1.gt", "0 0 10 10 {v} 20 0\n"),
}


@pytest.mark.parametrize("fmt", sorted(CURVED))
@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e400", "2e9", "1" * 5000])
def test_curved_readers_refuse_non_finite_and_huge_numbers(
    tmp_path: Path, fmt: str, value: str
) -> None:
    name, template = CURVED[fmt]
    path = write(tmp_path / "gt", name, template.replace("{v}", value))
    ds = load(path.parent, gt_format=fmt)
    found = [str(p) for p in errors(ds)]
    assert len(found) == 1 and name in found[0], found
    assert not any(s.gt for s in ds), "the bad box is left out"


@pytest.mark.parametrize(
    "body",
    [
        "10,10,50,10,50,30,10,30,0.9\n60,10,90,10,90,30,60,30,nan\n",
        "10,10,50,10,50,30,10,30,0.9,hello\n60,10,90,10,90,30,60,30,inf,world\n",
        "10,10,50,10,50,30,10,30,0.9\n60,10,90,10,90,30,60,30,-Infinity\n",
    ],
)
def test_icdar_nan_where_a_set_has_confidences_is_an_error_not_text(
    tmp_path: Path, body: str
) -> None:
    gt = write(tmp_path / "gt", "gt_img_1.txt", "10,10,50,10,50,30,10,30,a\n")
    write(tmp_path / "det", "res_img_1.txt", body)
    ds = load(gt.parent, tmp_path / "det")
    found = [str(p) for p in errors(ds)]
    assert len(found) == 1 and "res_img_1.txt:2" in found[0] and "confidence" in found[0], found


@pytest.mark.parametrize("value", ["nan", "inf", "-Infinity", "1.5", "-0.2", "1e400", "2.0"])
def test_icdar_a_lone_field_shaped_as_a_confidence_is_one(tmp_path: Path, value: str) -> None:
    """Issue 30: a confidence is a number in [0, 1] or the line is an error, never silently
    the transcription "nan" (or "-0.2"); 1.5, which the official pattern lets through, too."""
    gt = write(tmp_path / "gt", "gt_img_1.txt", "10,10,50,10,50,30,10,30,a\n")
    write(tmp_path / "det", "res_img_1.txt", f"10,10,50,10,50,30,10,30,{value}\n")
    ds = load(gt.parent, tmp_path / "det")
    found = [str(p) for p in errors(ds)]
    assert len(found) == 1 and "res_img_1.txt:1" in found[0] and "confidence" in found[0], found


@pytest.mark.parametrize("body", ["0.5\n", "1\n", "1.0,word\n", "0.25\n"])
def test_icdar_confidences_from_0_to_1_are_read(tmp_path: Path, body: str) -> None:
    gt = write(tmp_path / "gt", "gt_img_1.txt", "10,10,50,10,50,30,10,30,a\n")
    lines = f"10,10,50,10,50,30,10,30,0.9\n60,10,90,10,90,30,60,30,{body}"
    write(tmp_path / "det", "res_img_1.txt", lines)
    ds = load(gt.parent, tmp_path / "det")
    assert not errors(ds) and ds["img_1"].det[1].confidence == float(body.split(",")[0])


def test_icdar_nan_is_still_a_word_among_words(tmp_path: Path) -> None:
    gt = write(tmp_path / "gt", "gt_img_1.txt", "10,10,50,10,50,30,10,30,a\n")
    body = "10,10,50,10,50,30,10,30,nan\n60,10,90,10,90,30,60,30,hello\n"
    write(tmp_path / "det", "res_img_1.txt", body)
    ds = load(gt.parent, tmp_path / "det")
    assert not errors(ds) and [d.text for d in ds["img_1"].det] == ["nan", "hello"]


def test_icdar_nan_is_a_word_when_confidences_are_forced_off(tmp_path: Path) -> None:
    gt = write(tmp_path / "gt", "gt_img_1.txt", "10,10,50,10,50,30,10,30,a\n")
    write(tmp_path / "det", "res_img_1.txt", "10,10,50,10,50,30,10,30,nan\n")
    ds = load(gt.parent, tmp_path / "det", det_confidence=False)
    assert not errors(ds) and ds["img_1"].det[0].text == "nan"


def test_the_shared_validators() -> None:
    assert coordinate(3) == 3.0 and coordinate(-1e9) == -1e9
    assert isinstance(coordinate(HUGE_INT), str) and isinstance(coordinate(True), str)
    assert isinstance(coordinate(float("nan")), str)
    assert text_number(" 12 ") == 12.0
    assert all(isinstance(text_number(t), str) for t in ("nan", "inf", "1e400", "1" * 80, "x"))
    assert depth(b'{"a": "[[[[", "b": [[1]]}') <= MAX_DEPTH
    assert depth(b"[" * 100 + b"]" * 100) == 100
    assert depth(b'["\\"[[[[[["' + b"," + b"[" * 70 + b"]" * 70 + b"]") == 71
    with pytest.raises(JsonError, match="nested"):
        loads("[" * 100_000 + "]" * 100_000)
    with pytest.raises(JsonError) as exc:
        loads('{\n"a": ' + "1" * 5000 + "}")
    assert exc.value.line == 2
