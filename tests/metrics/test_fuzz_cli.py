"""Differential CLI fuzz (issue 30, point 9): ``detlens eval`` on ICDAR sets generated valid
by construction, or made invalid by one known mistake in one file. The oracle knows which:

- valid (odd but legal: BOM, CRLF, blank lines, empty files, non-UTF-8 bytes in a
  transcription, don't-care, confidences): exit 0 (1 only when the JSON says a metric could
  score no image, e.g. PaddleOCR's when no image has a GT line), and in the JSON every image
  of every metric is evaluated, or excluded, or named by a problem: none silently dropped;
- invalid (letters or ``nan`` among coordinates, too few numbers, ``inf``, ``1e400``, a
  coordinate beyond ±1e9, 400 digits, a NUL byte, a detection file without GT): exit 2, and
  the message names the file that holds the mistake; half of the spoiled sets also hold a
  confidence above 1 in another detection file (``...,1.5``, always an error), which must
  be named too: the broken line must not change how the set's other lines are read.

The old fuzz test accepted exit 2 for any input, so an ``eval`` that always exits 2 passed
it; this one fails on that, on a metric that raises and on a guard that drops the images a
metric fails on (``tests/metrics/test_fuzz_mutants.py`` shows each caught).
``DETLENS_FUZZ_EXAMPLES`` raises the number of examples (default 400 // 20 = 20).
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from metrics.cli.main import main

EXAMPLES = max(10, int(os.environ.get("DETLENS_FUZZ_EXAMPLES", "400")) // 20)

BOM = b"\xef\xbb\xbf"
TEXTS = ["AB", "word", "###", "a,b", "Ünï", ""]

# Each mistake: how it is written into a line (or a file), known to be an input error.
MISTAKES = {
    "letters": lambda line: line.replace(",", ",x", 1),
    "nan": lambda line: "nan" + line[line.index(",") :],
    "inf": lambda line: line.replace(",", ",inf,", 1),
    "e400": lambda line: "1e400" + line[line.index(",") :],
    "beyond_1e9": lambda line: "1000000000000" + line[line.index(",") :],
    "digits_400": lambda line: "1" + "0" * 400 + line[line.index(",") :],
    "nul": lambda line: line[:3] + "\x00" + line[3:],
    "too_few": lambda line: ",".join(line.split(",")[:3]),
}


@dataclass
class Case:
    """A generated set: files by relative path (bytes), and where a mistake was put."""

    files: dict[str, bytes] = field(default_factory=dict)
    images: list[str] = field(default_factory=list)
    mistake: str | None = None
    bad_file: str | None = None
    also_bad: str | None = None  # a second file spoiled by a confidence above 1


def _rect(x: int, y: int, w: int, h: int) -> str:
    """Clockwise as drawn (image y down), as the ICDAR scripts want a QUAD."""
    return f"{x},{y},{x + w},{y},{x + w},{y + h},{x},{y + h}"


@st.composite
def cases(draw: st.DrawFn) -> Case:
    n = draw(st.integers(1, 4))
    conf = draw(st.booleans())
    box = st.tuples(
        st.integers(0, 300), st.integers(0, 300), st.integers(1, 80), st.integers(1, 40)
    )
    case = Case(images=[f"img_{k}" for k in range(1, n + 1)])
    for sid in case.images:
        gt = [
            f"{_rect(*draw(box))},{draw(st.sampled_from(TEXTS))}"
            for _ in range(draw(st.integers(0, 4)))
        ]
        det = []
        for _ in range(draw(st.integers(0, 4))):
            line = _rect(*draw(box))
            det.append(f"{line},{draw(st.integers(0, 100)) / 100:.2f}" if conf else line)
        case.files[f"gt/gt_{sid}.txt"] = _encode(draw, gt, gt=True)
        case.files[f"det/res_{sid}.txt"] = _encode(draw, det, gt=False)
    if draw(st.integers(0, 2)):  # two of three sets hold a mistake
        _spoil(draw, case)
    return case


def _encode(draw: st.DrawFn, lines: list[str], gt: bool) -> bytes:
    """Legal oddities: CRLF, blank lines at the end, a BOM, a non-UTF-8 transcription byte."""
    end = draw(st.sampled_from(["\n", "\r\n"]))
    data = (
        end.join(lines) + (end if lines else "") + draw(st.sampled_from(["", end * 2]))
    ).encode()
    if gt and lines and draw(st.booleans()) and not lines[-1].endswith(","):
        data = data.rstrip(b"\r\n") + b"\xff" + end.encode()  # read with a warning
    return (BOM if draw(st.booleans()) else b"") + data


def _spoil(draw: st.DrawFn, case: Case) -> None:
    kind = draw(st.sampled_from([*MISTAKES, "orphan_det"]))
    if kind == "orphan_det":
        case.bad_file = "det/res_img_99.txt"
        case.files[case.bad_file] = (_rect(1, 1, 9, 9) + "\n").encode()
    else:
        case.bad_file = draw(st.sampled_from(sorted(case.files)))
        good = _rect(*draw(st.tuples(*[st.integers(1, 60)] * 4)))
        line = MISTAKES[kind](good + (",word" if case.bad_file.startswith("gt/") else ""))
        case.files[case.bad_file] = line.encode() + b"\n" + case.files[case.bad_file]
    case.mistake = kind
    others = sorted(f for f in case.files if f.startswith("det/") and f != case.bad_file)
    if others and draw(st.booleans()):
        case.also_bad = draw(st.sampled_from(others))
        conf = (_rect(*draw(st.tuples(*[st.integers(1, 60)] * 4))) + ",1.5\n").encode()
        data = case.files[case.also_bad]
        bom = BOM if data.startswith(BOM) else b""
        case.files[case.also_bad] = bom + conf + data[len(bom) :]


def write(case: Case, root: Path) -> None:
    for name, data in case.files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def eval_cli(root: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, Any]:
    """``detlens eval --metric all`` on ``root``: (exit code, stderr, the JSON or None)."""
    capsys.readouterr()
    out = root / "out.json"
    argv = ["eval", "--gt", str(root / "gt"), "--det", str(root / "det"), "--quiet"]
    code = main([*argv, "--json", str(out)])
    err = capsys.readouterr().err
    data = json.loads(out.read_text()) if code in (0, 1) and out.exists() else None
    return code, err, data


def check_case(case: Case, root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The differential property on one case (AssertionError when it does not hold)."""
    write(case, root)
    code, err, data = eval_cli(root, capsys)
    assert "Traceback" not in err, err
    if case.mistake is not None:
        assert code == 2, f"{case.mistake} in {case.bad_file} not refused (exit {code})"
        for bad in filter(None, (case.bad_file, case.also_bad)):
            assert Path(bad).name in err, f"{bad} not named ({case.mistake}): {err}"
        assert err.startswith("detlens: error: "), err
        return
    assert code in (0, 1), f"a valid set gave exit {code}: {err.strip()[:500]}"
    assert data is not None
    text = json.dumps(data)
    assert "NaN" not in text and "Infinity" not in text
    runs = data if isinstance(data, list) else [data]
    for run in runs:
        accounted(run, case.images)
    unscored = [r["metric"] for r in runs if not r.get("coverage", {}).get("score", True)]
    assert bool(unscored) == (code == 1), (code, unscored)  # 1: a metric has no score


def accounted(run: dict[str, Any], images: list[str]) -> None:
    """Every image of a metric's run is evaluated, excluded, or named by a problem."""
    named = {sid for sid in images for p in run["problems"] if f"_{sid}." in p or f"{sid}:" in p}
    seen = set(run["per_image"]) | set(run["excluded"]) | named
    missing = sorted(set(images) - seen)
    assert not missing, f"{run['metric']}: images dropped silently: {missing}"
    cov = run.get("coverage", {})
    assert cov.get("of", len(images)) == len(images), cov


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(case=cases())
def test_eval_exits_2_exactly_on_invalid_input_and_names_the_file(
    case: Case, capsys: pytest.CaptureFixture[str]
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        check_case(case, Path(tmp), capsys)


def test_each_mistake_is_an_input_error_naming_its_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The oracle's mistakes are errors of the current grammar (README "Bad input")."""
    for k, kind in enumerate(MISTAKES):
        for side in ("gt", "det"):
            case = Case(images=["img_1"])
            case.files["gt/gt_img_1.txt"] = f"{_rect(10, 10, 40, 20)},AB\n".encode()
            case.files["det/res_img_1.txt"] = f"{_rect(12, 10, 40, 20)}\n".encode()
            case.bad_file = f"{side}/{'gt' if side == 'gt' else 'res'}_img_1.txt"
            good = _rect(5, 5, 9, 9) + (",w" if side == "gt" else "")
            case.files[case.bad_file] += MISTAKES[kind](good).encode() + b"\n"
            case.mistake = kind
            check_case(case, tmp_path / f"{k}{side}", capsys)


def test_a_broken_line_leaves_a_confidence_above_1_in_another_file_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A line that is no box (letters, too few numbers, a NUL byte...) must not decide how
    the set's other detection lines are read: ``1.5`` after a box stays a confidence above
    1, refused, never a transcription (both files named)."""
    for k, kind in enumerate(MISTAKES):
        for side in ("gt", "det"):
            case = Case(images=["img_1", "img_2"], mistake=kind, also_bad="det/res_img_2.txt")
            for sid in case.images:
                case.files[f"gt/gt_{sid}.txt"] = f"{_rect(10, 10, 40, 20)},AB\n".encode()
            case.files["det/res_img_1.txt"] = f"{_rect(12, 10, 40, 20)}\n".encode()
            case.files["det/res_img_2.txt"] = f"{_rect(12, 10, 40, 20)},1.5\n".encode()
            case.bad_file = f"{side}/{'gt' if side == 'gt' else 'res'}_img_1.txt"
            good = _rect(5, 5, 9, 9) + (",w" if side == "gt" else "")
            case.files[case.bad_file] += MISTAKES[kind](good).encode() + b"\n"
            check_case(case, tmp_path / f"{k}{side}", capsys)
