"""One rule for the numbers printed side by side (``metrics.core.numbers``): scores and
ratios with 4 decimals, counts as integers. ``eval``'s notes read ``tightness 1, pq 1`` on
one row and ``tightness 1.0000, pq 1.0000`` on the next (a value a hair under 1), and
``recognition_score 1`` next to ``det_recall 0.9984``."""

from __future__ import annotations

import re

import pytest

from metrics.catalogue.registry import METRICS
from metrics.cli.eval_table import _note
from metrics.cli.main import main
from metrics.core.numbers import count_text, score_text


def test_a_score_has_four_decimals_whatever_its_value() -> None:
    assert [score_text(v) for v in (1.0, 0.0, 1 - 1e-12, 0.42517)] == [
        "1.0000",
        "0.0000",
        "1.0000",
        "0.4252",
    ]


def test_a_count_is_an_integer() -> None:
    assert [count_text(v) for v in (0.0, 3.0, 1273.0)] == ["0", "3", "1273"]
    assert count_text(2.5) == "2.5000"  # not a count after all: it shows


@pytest.mark.parametrize(
    ("metric", "key", "value", "text"),
    [
        ("hiertext_line", "tightness", 1.0, "tightness 1.0000"),
        ("hiertext_word", "tightness", 1 - 1e-15, "tightness 1.0000"),
        ("hiertext_paragraph", "pq", 1.0, "pq 1.0000"),
        ("cleval_e2e", "recognition_score", 1.0, "recognition_score 1.0000"),
        ("cleval_e2e", "miss", 18.0, "miss 18"),
        ("ic15_iou", "ap", 1.0, "ap 1.0000"),
        ("ctw1500_eval", "tp", 3.0, "tp 3"),
        ("totaltext_voc", "fp", 0.0, "fp 0"),
        ("paddleocr_det_iou", "images", 500.0, "images 500"),
        ("mmocr_hmean_iou", "gt_removed_lt3pts", 0.0, "gt_removed_lt3pts 0"),
    ],
)
def test_each_note_follows_the_rule(metric: str, key: str, value: float, text: str) -> None:
    assert _note(METRICS[metric], key, value) == text


def test_the_demo_table_notes_follow_the_rule(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "--metric", "all"]) == 0
    out = capsys.readouterr().out
    seen = 0
    for line in out.splitlines():
        mid = line.split(" ", 1)[0]
        if mid not in METRICS or "  " not in line:
            continue
        for key, value in re.findall(r"([a-z_0-9]+) (\d[\d.]*)(?=[ ,]|$)", line.split("  ")[-1]):
            if key in ("on", "of"):  # "on 11 of 12 images"
                continue
            seen += 1
            want = r"\d+" if METRICS[mid].extra_is_count(key) else r"\d\.\d{4}"
            assert re.fullmatch(want, value), (mid, key, value)
    assert seen >= 20  # the notes of CLEval, MMOCR and ic15_iou's AP were read
