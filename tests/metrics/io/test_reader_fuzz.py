"""Reader fuzz (issue 30, point 9): every format, the curved ones included, with a number
replaced by a non-finite, huge, many-digit or ill-typed value, or (JSON) by a deeply nested
one. The property: no traceback. Reading gives a dataset or an ``InputError`` whose every
problem names its file; evaluating what was read (every metric that applies, policy
skip_sample) gives results or located problems, never another exception; every score of a
result is finite.

Each case starts from a valid file of the format (checked first: it reads without error), so
a reader that refused everything would fail too. ``DETLENS_FUZZ_EXAMPLES`` raises the
number of examples (default: a few per format).
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from metrics.catalogue.registry import applicable
from metrics.core.model import InputError, Problem, Severity
from metrics.io.reader import load_dataset
from metrics.run.runner import run

EXAMPLES = max(8, int(os.environ.get("DETLENS_FUZZ_EXAMPLES", "400")) // 25)

BASE = ["10", "12", "60", "40", "0.9"]  # x0, y0, x1, y1, a detection's confidence

TEXT_BAD = [
    "nan",
    "NaN",
    "inf",
    "-inf",
    "Infinity",
    "1e400",
    "-1e400",
    "1" + "0" * 400,
    "9" * 5000,
    "1e12",
    "-1e12",
    "1e-400",
    "0x10",
    "",
    "1.5",
    "-0",
]
JSON_BAD = [
    "NaN",
    "Infinity",
    "-Infinity",
    "1e400",
    "-1e400",
    "1" + "0" * 400,
    "9" * 5000,
    "1e12",
    "true",
    "null",
    '"12"',
    "[]",
    "{}",
    "[" * 100_000 + "]" * 100_000,
    "{" * 20_000 + "}" * 20_000,
    "[" * 999 + "1" + "]" * 999,
]


@dataclass(frozen=True)
class Template:
    """A valid GT (and detection) file of a format; ``{0}``..``{4}`` are the numbers."""

    name: str
    gt: tuple[str, str]  # (path under the case folder, content)
    det: tuple[str, str] | None = None
    json: bool = False

    def files(self, values: list[str]) -> list[tuple[str, str]]:
        out = [(self.gt[0], self.gt[1].format(*values))]
        if self.det is not None:
            out.append((self.det[0], self.det[1].format(*values)))
        return out


_BOX = "[[{0},{1}],[{2},{1}],[{2},{3}],[{0},{3}]]"
TEMPLATES = [
    Template(
        "icdar",
        ("gt/gt_img_1.txt", "{0},{1},{2},{1},{2},{3},{0},{3},word\n5,5,9,5,9,9,5,9,###\n"),
        ("det/res_img_1.txt", "{0},{1},{2},{1},{2},{3},{0},{3},{4}\n"),
    ),
    Template(
        "icdar_ltrb",
        ("gt/gt_img_1.txt", "{0},{1},{2},{3},word\n"),
        ("det/res_img_1.txt", "{0},{1},{2},{3}\n"),
    ),
    Template(
        "totaltext",
        (
            "gt/poly_gt_img11.txt",
            "x: [[{0} {2} {2} {0} {0}]], y: [[{1} {1} {3} {3} 20]], ornt: [u'm'], "
            "transcriptions: [u'word']\n",
        ),
        ("det/img11.txt", "{0},{1},{2},{1},{2},{3},{0},20,{0},{3}\n"),
    ),
    Template(
        "ctw1500_txt",
        ("gt/1001.txt", "{0},{1},{2},{1},{2},{3},{0},{3},####HELLO\n"),
        ("det/1001.txt", "{0},{1},{2},{1},{2},{3},{0},{3}\n"),
    ),
    Template(
        "ctw1500_xml",
        (
            "gt/0200.xml",
            '<Annotations><image file="0200.jpg"><box height="20" left="{0}" top="{1}" '
            'width="30"><label>OLATHE</label><segs>{0},{1},{2},{1},{2},{3},{0},{3}</segs>'
            "</box></image></Annotations>",
        ),
    ),
    Template("msra", ("gt/IMG_0059.gt", "0 0 {0} {1} {2} {3} 0\n1 1 {0} {1} 20 10 {4}\n")),
    Template(
        "detlens_json",
        (
            "all.json",
            '{{"format": "detlens", "version": 1, "samples": [{{"id": "a", "gt": '
            '[{{"points": ' + _BOX + ', "text": "w"}}], "det": [{{"points": ' + _BOX + ", "
            '"confidence": {4}}}]}}]}}',
        ),
        json=True,
    ),
    Template(
        "hiertext",
        (
            "gt.json",
            '{{"annotations": [{{"image_id": "img_1", "image_width": 100, "image_height": 100, '
            '"paragraphs": [{{"legible": true, "vertices": ' + _BOX + ', "lines": [{{"text": '
            '"l", "legible": true, "vertices": ' + _BOX + ', "words": [{{"text": "w", '
            '"legible": true, "vertices": ' + _BOX + "}}]}}]}}]}}]}}",
        ),
        json=True,
    ),
    Template(
        "paddle_label",
        (
            "test_label.txt",
            'img_1.jpg\t[{{"transcription": "w", "points": ' + _BOX + "}}]\n",
        ),
        json=True,
    ),
]
BY_NAME = {t.name: t for t in TEMPLATES}


def _write(root: Path, files: list[tuple[str, str]]) -> None:
    for name, text in files:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _sides(root: Path, t: Template) -> tuple[Path, Path | None]:
    gt = root / t.gt[0]
    det = None if t.det is None else root / t.det[0]
    if t.name == "detlens_json":
        return gt, gt  # one file holds both
    if gt.parent != root:
        gt = gt.parent
    if det is not None and det.parent != root:
        det = det.parent
    return gt, det


def _located(problems: tuple[Problem, ...] | list[Problem], root: Path, ids: set[str]) -> None:
    """Each error names an input (a file, its folder) or an image of it."""
    for p in problems:
        if p.severity is Severity.ERROR:
            where = f"{p.source} {p.sample_id or ''}"
            assert str(root) in where or any(i in where for i in ids), f"not located: {p}"


def read_and_evaluate(root: Path, t: Template, values: list[str]) -> str:
    """The property on one case: "refused" (located), "read" (and evaluated) or raises."""
    _write(root, t.files(values))
    gt, det = _sides(root, t)
    try:
        ds = load_dataset(gt, det)
    except InputError as exc:
        assert exc.problems, f"an InputError naming no file: {exc}"
        _located(exc.problems, root, set())
        return "refused"
    _located(ds.problems, root, {s.id for s in ds})
    try:
        evals = run(ds, applicable(ds), policy="skip_sample")
    except InputError as exc:
        _located(exc.problems, root, {s.id for s in ds})
        return "refused"
    for ev in evals:
        for r in ev.results.values():
            assert all(math.isfinite(v) for v in (r.recall, r.precision, r.hmean)), (ev.metric, r)
    return "read"


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_each_template_reads_as_it_is(tmp_path: Path, name: str) -> None:
    """The starting point is valid: the fuzz below changes one number of a good file."""
    t = BY_NAME[name]
    assert read_and_evaluate(tmp_path, t, list(BASE)) == "read"
    ds = load_dataset(*_sides(tmp_path, t))
    assert not [p for p in ds.problems if p.severity is Severity.ERROR], ds.problems
    assert sum(len(s.gt) for s in ds) >= 1


# Readers that still take a bad number without a located error (issue 30 points 4 and 5,
# fixed on another branch): marked, not strict, so the fixed readers turn them green.


def _case(name: str) -> st.SearchStrategy[list[str]]:
    t = BY_NAME[name]
    bad = JSON_BAD if t.json else TEXT_BAD
    slots = 5 if (t.det is not None or name in ("msra", "detlens_json")) else 4
    return st.tuples(st.integers(0, slots - 1), st.sampled_from(bad)).map(
        lambda kv: [kv[1] if k == kv[0] else v for k, v in enumerate(BASE)]
    )


def _fuzz(name: str) -> None:
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=True,
    )
    @given(values=_case(name))
    def check(values: list[str]) -> None:
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            try:
                read_and_evaluate(Path(tmp), BY_NAME[name], values)
            except AssertionError:
                raise
            except Exception as exc:  # the traceback this suite looks for, said briefly
                shown = [v if len(v) < 24 else f"{v[:10]}...({len(v)} chars)" for v in values]
                msg = f"{name} {shown}: {type(exc).__name__}: {str(exc)[:200]}"
                raise AssertionError(msg) from None

    check()


# What this found before the readers' number rule (2026-11-27), each an exception escaping
# the reader or the metrics: GEOS on nan/inf/1e400 (totaltext, ctw1500_txt, ctw1500_xml,
# msra), OverflowError on an integer above 1e308 and a raw ValueError on 5,000 digits (the
# JSON formats), "math domain error" on an infinite MSRA angle. All fixed: no xfail left.
@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_bad_numbers_give_a_located_error_or_a_result(name: str) -> None:
    _fuzz(name)
