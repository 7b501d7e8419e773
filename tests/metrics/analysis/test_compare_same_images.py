"""``compare`` compares A and B on the images both evaluated (issue 26, point 2): the images
one side skipped are left out of both and said, and the headline, the per-image table and
the paired bootstrap cover the same images, so they cannot contradict each other (before:
"B − A -0.0084" over 101 images of A and 500 of B, then "ΔH +0.0000 … B ≤ A in 100 %")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.analysis.bootstrap import paired
from metrics.analysis.compare import compare
from metrics.cli.main import main
from metrics.core.model import Problem, Severity
from metrics.core.results import CreditTally, Evaluation, SampleResult, aggregate
from tests.support import partial_set


def _result(sid: str, t: CreditTally) -> SampleResult:
    r, p = t.rates()
    h = 0.0 if r + p == 0 else 2 * r * p / (r + p)
    return SampleResult("tiou", sid, r, p, h, t, (), ())


def _evaluation(tallies: dict[str, CreditTally], skipped: set[str]) -> Evaluation:
    results = {s: _result(s, t) for s, t in tallies.items() if s not in skipped}
    problems = tuple(Problem(Severity.ERROR, f"res_{s}.txt", 1, "bad box", s) for s in skipped)
    summary = aggregate(results.values()) if results else None
    return Evaluation("tiou", None, results, summary, {}, problems, tuple(sorted(skipped)))


@st.composite
def _pair(draw: st.DrawFn) -> tuple[Evaluation, Evaluation]:
    n = draw(st.integers(1, 12))
    ids = [f"img_{k}" for k in range(n)]

    def side() -> dict[str, CreditTally]:
        out = {}
        for s in ids:
            gt, det = draw(st.integers(0, 6)), draw(st.integers(0, 6))
            rc = draw(st.floats(0, 1)) * gt
            pc = draw(st.floats(0, 1)) * det
            out[s] = CreditTally(
                n_gt_care=gt, n_det_care=det, recall_credit=rc, precision_credit=pc
            )
        return out

    skip_a = draw(st.sets(st.sampled_from(ids), max_size=n - 1))
    skip_b = draw(st.sets(st.sampled_from([s for s in ids if s not in skip_a]), max_size=n))
    skip_b -= {draw(st.sampled_from([s for s in ids if s not in skip_a]))}  # one in common
    return _evaluation(side(), skip_a), _evaluation(side(), skip_b)


@settings(max_examples=200, deadline=None)
@given(_pair())
def test_headline_table_and_bootstrap_cover_the_same_images(
    pair: tuple[Evaluation, Evaluation],
) -> None:
    a, b = pair
    c = compare(a, b)
    both = [s for s in a.results if s in b.results]
    assert list(c.ids) == both and sorted(d.sample_id for d in c.samples) == sorted(both)
    assert {x.sample_id for x in c.left_out} == set(a.excluded) | set(b.excluded)
    bs = paired(a, b, resamples=200, seed=1, ids=c.ids)
    assert bs.images == len(c.ids)
    delta = c.global_delta()["hmean"]
    assert bs.delta == delta  # the same sums: to the bit, so the same sign
    assert delta == aggregate(b.results[s] for s in both).hmean - c.side("a").hmean
    if delta > 1e-9:  # "B better by X" never comes with "B ≤ A in 100 % of resamples"
        assert bs.share_not_better < 1.0
    if delta < -1e-9:
        assert bs.share_not_better > 0.0


def test_no_image_in_common_is_refused() -> None:
    t = CreditTally(n_gt_care=1, n_det_care=1, recall_credit=1, precision_credit=1)
    a = _evaluation({"x": t, "y": t}, {"x"})
    b = _evaluation({"x": t, "y": t}, {"y"})
    with pytest.raises(ValueError, match="share no evaluated image"):
        compare(a, b)


def test_cli_compares_on_the_images_both_evaluated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A skips images 2 and 3 (counter-clockwise), where B missed a word: over each side's
    own images B − A would be negative; on the images both evaluated they are equal."""
    gt, det_a = partial_set(tmp_path, 4, ccw={2, 3}, name="a")
    _, det_b = partial_set(tmp_path, 4, miss={2, 3}, name="b")
    out = tmp_path / "c.json"
    args = ["compare", "--gt", str(gt), "--det", str(det_a), "--det", str(det_b)]
    assert main([*args, "--resamples", "300", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "compare tiou: A = a, B = b, on the 2 of 4 images both evaluated" in text
    assert "left out of the comparison: 2 not evaluated by A (a)" in text
    assert "img_2, img_3; first: a.zip:res_img_2.txt:1: error: points are not clockwise" in text
    assert "B - A       +0.0000    +0.0000  +0.0000" in text
    assert "of 2 images" in text and "img_2 " not in text.split("largest first")[1]
    data = json.loads(out.read_text())
    assert data["images"] == 2 and len(data["per_image"]) == 2
    assert [x["sample"] for x in data["left_out"]] == ["img_2", "img_3"]
    assert (
        data["left_out"][0]["not_evaluated_by"] == "A"
        and "res_img_2.txt:1" in (data["left_out"][0]["why"])
    )
    assert data["delta"]["hmean"] == data["bootstrap"]["delta"] == 0.0
    assert data["a"]["hmean"] == data["b"]["hmean"] == 1.0
