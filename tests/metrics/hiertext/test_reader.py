"""HierText JSON reading (HIERTEXT.md section 1): words as instances, the hierarchy, and
every official loader rule as a problem located by file and JSON path, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from metrics.catalogue.registry import resolve
from metrics.cli.main import main
from metrics.core.model import InputError, Severity
from metrics.hiertext.params import HierTextParams
from metrics.io.reader import load_dataset
from tests.support import ht_files, ht_image, ht_line, ht_paragraph, ht_word, ht_words_image


def messages(problems: object) -> list[str]:
    return [str(p) for p in problems]  # type: ignore[attr-defined]


def test_words_lines_and_paragraphs_in_document_order(tmp_path: Path) -> None:
    gt = ht_image(
        [
            ht_paragraph(
                [
                    ht_line([ht_word((0, 0, 5, 5)), ht_word((6, 0, 9, 5), legible=False)]),
                    ht_line([ht_word((0, 6, 5, 9))], legible=False),
                ],
                box=(0, 0, 9, 9),
            ),
            ht_paragraph(
                [ht_line([ht_word((20, 20, 30, 30))])], legible=False, box=(20, 20, 30, 30)
            ),
        ],
        size=(64, 48),
    )
    ds = load_dataset(*ht_files(tmp_path, [gt], [gt]))
    s = ds["img_1"]
    assert not ds.problems and s.hierarchy is not None
    assert [g.dont_care for g in s.gt] == [False, True, False, False]
    lines, pars = s.hierarchy.levels["line"], s.hierarchy.levels["paragraph"]
    assert [g.words for g in lines.gt] == [(0, 1), (2,), (3,)]
    assert [g.words for g in pars.det] == [(0, 1, 2), (3,)]
    assert [g.dont_care for g in pars.gt] == [False, True]
    assert (s.hierarchy.width, s.hierarchy.height) == (64, 48)
    assert s.hierarchy.gt_paths[2] == "annotations[0].paragraphs[0].lines[1].words[0]"


def test_two_vertex_word_is_an_error_at_its_json_path(tmp_path: Path) -> None:
    bad = ht_words_image([(0, 0, 5, 5), (1, 1, 3, 3)])
    bad["paragraphs"][1]["lines"][0]["words"][0]["vertices"] = [[1, 1], [3, 3]]
    gt, det = ht_files(tmp_path, [bad], [ht_words_image([(0, 0, 5, 5)])])
    ds = load_dataset(gt, det)
    assert messages(ds.errors) == [
        f"{gt} (image img_1): error: annotations[0].paragraphs[1].lines[0].words[0]: "
        "word polygon has "
        "2 vertices (at least 3 needed)"
    ]
    assert ds.errors[0].sample_id == "img_1"


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (lambda w: w.pop("text"), "word has no 'text'"),
        (lambda w: w.pop("legible"), "GT word has no 'legible' flag"),
        (lambda w: w.update(vertices="x"), "'vertices' is not a list"),
        (lambda w: w.update(vertices=[[1, 2], [3]]), "[x, y] number pairs"),
    ],
)
def test_bad_gt_words(tmp_path: Path, edit: object, expected: str) -> None:
    img = ht_words_image([(0, 0, 5, 5)])
    edit(img["paragraphs"][0]["lines"][0]["words"][0])  # type: ignore[operator]
    ds = load_dataset(*ht_files(tmp_path, [img], [ht_words_image([(0, 0, 5, 5)])]))
    assert len(ds.errors) == 1
    assert "annotations[0].paragraphs[0].lines[0].words[0]: " in ds.errors[0].message
    assert expected in ds.errors[0].message


def test_pairing_rules(tmp_path: Path) -> None:
    gt = [ht_words_image([(0, 0, 5, 5)], "a"), ht_words_image([(0, 0, 5, 5)], "b")]
    det = [ht_words_image([(0, 0, 5, 5)], "a"), ht_words_image([], "a"), ht_words_image([], "z")]
    g, d = ht_files(tmp_path, gt, det)
    ds = load_dataset(g, d)
    found = messages(ds.problems)
    assert (
        f"{d} (image a): warning: annotations[1]: image_id 'a' repeated (also annotations[0]); "
        "the last one is used, as the official loader does" in found
    )
    assert (
        f"{d}: error: annotations[2]: image_id 'z' is not in the GT (the official loader fails)"
        in found
    )
    assert (
        f"{g} (image b): error: annotations[1]: image_id 'b' has no prediction entry "
        "(the official loader fails)" in found
    )
    assert ds["a"].det == ()  # the last entry of 'a' wins


def test_level_rules_are_problems_of_their_level_only(tmp_path: Path) -> None:
    det = ht_image([ht_paragraph([ht_line([ht_word((0, 0, 5, 5))]), ht_line([])])])
    ds = load_dataset(*ht_files(tmp_path, [ht_words_image([(0, 0, 5, 5)])], [det]))
    assert not ds.errors
    line = resolve("hiertext_line").validate(ds.samples, HierTextParams(allow_float=False))
    assert [p.message for p in line] == [
        "annotations[0].paragraphs[0].lines[1]: predicted line has no words"
    ]
    assert (
        resolve("hiertext_paragraph").validate(ds.samples, HierTextParams(allow_float=False)) == []
    )
    assert resolve("hiertext_word").validate(ds.samples, HierTextParams(allow_float=False)) == []


def test_masks_need_integer_vertices_naming_the_word(tmp_path: Path) -> None:
    det = ht_words_image([[[0, 0], [5.5, 0], [5, 5], [0, 5]]])
    g, d = ht_files(tmp_path, [ht_words_image([(0, 0, 5, 5)])], [det])
    ds = load_dataset(g, d)
    found = resolve("hiertext_paragraph").validate(ds.samples, HierTextParams(allow_float=False))
    assert messages(found) == [
        f"{d} (image img_1): error: annotations[0].paragraphs[0].lines[0].words[0]: "
        "word vertices must be "
        "integers for hiertext_paragraph (the masks are drawn with OpenCV fillPoly, which "
        "rejects floats)"
    ]
    assert resolve("hiertext_word").validate(ds.samples, HierTextParams(allow_float=False)) == []


def test_illegible_paragraph_needs_its_vertices(tmp_path: Path) -> None:
    img = ht_image([ht_paragraph([ht_line([ht_word((0, 0, 5, 5))])], legible=False)])
    ds = load_dataset(*ht_files(tmp_path, [img], [img]))
    found = resolve("hiertext_paragraph").validate(ds.samples, HierTextParams(allow_float=False))
    assert [p.message for p in found] == [
        "annotations[0].paragraphs[0]: paragraph has no 'vertices' list (needed: it is "
        "illegible or has no words)"
    ]


def test_word_only_formats_get_one_problem(tmp_path: Path) -> None:
    (tmp_path / "gt").mkdir()
    (tmp_path / "gt" / "gt_img_1.txt").write_text("0,0,5,0,5,5,0,5,abc\n")
    ds = load_dataset(tmp_path / "gt", tmp_path / "gt")
    assert not resolve("hiertext_line").applies(ds)
    found = resolve("hiertext_line").validate(ds.samples, HierTextParams(allow_float=False))
    assert [p.message for p in found] == [
        "hiertext_line needs HierText JSON with lines (GT and detections)"
    ]


def test_cli_exits_2_with_one_line_on_word_only_data(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "gt").mkdir()
    (tmp_path / "gt" / "gt_img_1.txt").write_text("0,0,5,0,5,5,0,5,abc\n")
    argv = ["eval", "--gt", str(tmp_path / "gt"), "--det", str(tmp_path / "gt")]
    assert main([*argv, "--metric", "hiertext_line", "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "hiertext_line needs HierText JSON with lines" in err[0]


def test_cli_evaluates_hiertext_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    img = ht_words_image([(0, 0, 10, 10)])
    g, d = ht_files(tmp_path, [img], [img])
    out = tmp_path / "out.json"
    assert main(["eval", "--gt", str(g), "--det", str(d), "--json", str(out), "--quiet"]) == 0
    written = json.loads(out.read_text())
    by_metric = {e["metric"]: e for e in written}  # other polygon metrics see the words
    assert {"hiertext_word", "hiertext_line", "hiertext_paragraph", "ic15_iou"} <= set(by_metric)
    assert by_metric["hiertext_line"]["per_image"]["img_1"]["pq"] == 1.0


def test_broken_json_is_an_input_error_with_its_line(tmp_path: Path) -> None:
    (tmp_path / "gt.json").write_text('{"annotations": [\n  {"image_id": }]}')
    with pytest.raises(InputError) as info:
        load_dataset(tmp_path / "gt.json")
    assert info.value.problems[0].line == 2
    assert info.value.problems[0].severity is Severity.ERROR


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.recursive(
        st.none()
        | st.booleans()
        | st.integers(-5, 5)
        | st.floats(allow_nan=False)
        | st.text(max_size=3),
        lambda inner: (
            st.lists(inner, max_size=3)
            | st.dictionaries(
                st.sampled_from(
                    [
                        "annotations",
                        "image_id",
                        "paragraphs",
                        "lines",
                        "words",
                        "vertices",
                        "text",
                        "legible",
                        "image_width",
                        "image_height",
                    ]
                ),
                inner,
                max_size=4,
            )
        ),
        max_leaves=12,
    )
)
def test_reader_never_crashes_on_garbage(tmp_path: Path, data: object) -> None:
    (tmp_path / "g.json").write_text(json.dumps({"annotations": [data]}))
    (tmp_path / "d.json").write_text(json.dumps({"annotations": [data]}))
    try:
        ds = load_dataset(tmp_path / "g.json", tmp_path / "d.json")
    except InputError:
        return
    for level in ("word", "line", "paragraph"):
        resolve(f"hiertext_{level}").validate(ds.samples, HierTextParams(allow_float=False))
