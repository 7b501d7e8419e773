"""The sample table's order, computed without Qt (``viewer.scene.rows.sorted_rows``)."""

from __future__ import annotations

from viewer.scene.rows import SampleRow, sorted_rows


def _rows() -> list[SampleRow]:
    return [
        SampleRow("a", 1, 1, 1.0, 1.0, 0.5),
        SampleRow("b", 1, 1, None, None, None),
        SampleRow("c", 1, 1, 1.0, 1.0, 0.2),
        SampleRow("d", 1, 1, 1.0, 1.0, 0.5),
    ]


def test_worst_first_with_not_evaluated_last_and_ties_in_file_order() -> None:
    # Total-Text opened on img557, which curved_tiou could not evaluate (a self-intersecting
    # GT), above the worst evaluated images: not evaluated sorted as -1
    assert [r.sample_id for r in sorted_rows(_rows(), "hmean")] == ["c", "a", "d", "b"]


def test_descending_keeps_ties_in_file_order_and_not_evaluated_last() -> None:
    order = sorted_rows(_rows(), "hmean", descending=True)
    assert [r.sample_id for r in order] == ["a", "d", "c", "b"]
    rows = [SampleRow("e", 1, 1, None, None, None), *_rows()]
    assert [r.sample_id for r in sorted_rows(rows, "hmean", descending=True)][-2:] == ["e", "b"]


def test_focus_order_wins_and_others_follow() -> None:
    order = sorted_rows(_rows(), "hmean", focus={"d": 0, "b": 1})
    assert [r.sample_id for r in order] == ["d", "b", "a", "c"]


def test_no_column_keeps_the_order() -> None:
    assert [r.sample_id for r in sorted_rows(_rows(), None)] == ["a", "b", "c", "d"]
