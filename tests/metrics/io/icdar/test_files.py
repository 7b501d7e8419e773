"""One pass over a file (``metrics.io.icdar.files``): its bytes decoded once, its lines split
once, each line's fields split at most once (finding the detection schema included), and
the messages of its mistakes those of the line parser, at their lines."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from metrics.core.model import Problem
from metrics.io import archive
from metrics.io.archive import Member
from metrics.io.formats.detect import detect
from metrics.io.icdar import det_schema, filelines, files, grammar, lines
from metrics.io.icdar.plan import LoadOptions, find_schema, plan_icdar, read_pairs
from tests.support import write_dir

# not plain: a polygon, a QUAD whose text starts with numbers, an LTRB box, a bad line
GT = "0,0,10,0,10,5,7,9,0,5,polygon\n0,0,10,0,10,5,0,5,959,words\n\n1,1,4,4,ltrb\n1,2,3\n"
DET = "0,0,10,0,10,5,0,5,0.9,word\n0,0,10,0,10,5,7,9,0,5,0.8,poly\n1,1,4,1,4,4,1,4,0.7,x\n"


def _counted(monkeypatch: pytest.MonkeyPatch, name: str, modules: list[Any]) -> Counter[str]:
    """Calls of the function ``name`` through any of ``modules``, by their first argument."""
    seen: Counter[str] = Counter()
    real: Callable[..., Any] = getattr(modules[0], name)

    def counted(first: Any, *args: Any, **kw: Any) -> Any:
        seen[str(getattr(first, "label", first))] += 1
        return real(first, *args, **kw)

    for module in modules:
        if hasattr(module, name):
            monkeypatch.setattr(module, name, counted)
    return seen


def test_a_gt_file_is_decoded_once_and_each_line_split_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    decoded = _counted(monkeypatch, "decode", [archive, files])
    splits = _counted(monkeypatch, "split_fields", [grammar, filelines, lines])
    problems: list[Problem] = []
    got = files.read_gt(Member("gt_1.txt", "gt:gt_1.txt", GT.encode()), "1", None, problems)
    assert decoded == {"gt:gt_1.txt": 1}
    assert max(splits.values()) == 1  # no line split twice
    assert [g.text for g in got] == ["polygon", "959,words", "ltrb"]
    assert [g.line for g in got] == [1, 2, 4]
    assert [(p.line, p.message) for p in problems] == [
        (
            5,
            "2 coordinate(s): a care GT needs at least two points (only don't-care lines may "
            "be single points, as Total-Text ships them): '1,2,3'",
        ),
    ]


def test_unusual_coordinates_are_worded_without_reading_the_lines_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A huge coordinate sends the file to the line parser's ``coords``: each line's fields
    are still found once, and the message is the line parser's."""
    fields = _counted(monkeypatch, "gt_fields", [lines, filelines])
    data = b"0,0,10,0,10,5,0,5,a\n0,0,1e12,0,10,5,0,5,b\n"
    problems: list[Problem] = []
    got = files.read_gt(Member("gt_1.txt", "gt_1.txt", data), "1", None, problems)
    assert sum(fields.values()) == 2
    assert [g.text for g in got] == ["a"]
    assert [(p.line, p.message) for p in problems] == [
        (2, "a coordinate beyond ±1e+09 is no image coordinate: '0,0,1e12,0,10,5,0,5,b'"),
    ]


def test_the_schema_and_the_reading_of_a_detection_file_share_one_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Finding the schema decodes the file and splits its lines and their fields; reading it
    goes on from there."""
    g = write_dir(tmp_path / "gt", {"gt_img_1.txt": "0,0,10,0,10,5,0,5,word\n"})
    d = write_dir(tmp_path / "det", {"res_img_1.txt": DET})
    opts = LoadOptions()
    plan = plan_icdar(g, d, detect(g, "gt"), detect(d, "det"), None, None, opts)
    decoded = _counted(monkeypatch, "decode", [archive, files])
    splits = _counted(monkeypatch, "split_fields", [grammar, det_schema, filelines, lines])
    found = find_schema(plan.det_members, opts)
    assert found.schema == grammar.DetSchema(confidence=True, transcription=True)
    samples, problems = read_pairs(plan, plan.pairs, found)
    assert sum(decoded.values()) == 2  # the GT file and the detection file, once each
    assert max(splits.values()) == 1
    assert [(d.confidence, d.text) for d in samples[0].det] == [
        (0.9, "word"),
        (0.8, "poly"),
        (0.7, "x"),
    ]
    assert problems == []
