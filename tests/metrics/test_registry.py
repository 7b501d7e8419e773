"""The metric catalogue (``metrics.catalogue.registry``): lookup by id, alias and case, the one
``--set`` parser (``parse_sets``) and parameters from strings (``make_params``)."""

from __future__ import annotations

import pytest

from metrics.catalogue.registry import METRICS, make_params, parse_sets, resolve


@pytest.mark.parametrize(
    ("name", "metric"),
    [
        ("tiou", "tiou"),
        ("iou", "ic15_iou"),
        ("IC15", "ic15_iou"),
        ("TIoU", "tiou"),
        ("  Ted ", "tedeval"),
        ("wordline-tiou", "wordline_tiou"),
        ("cleval_det_polyfix", "cleval_det"),
        ("CLEVAL_LEGACY_DET_POLYFIX", "cleval_legacy_det"),
    ],
)
def test_resolve_by_id_alias_and_case(name: str, metric: str) -> None:
    assert resolve(name).id == metric
    assert resolve(name) is METRICS[metric]


def test_every_id_and_alias_resolves_to_its_metric() -> None:
    for mid, spec in METRICS.items():
        assert resolve(mid) is spec
        for alias in spec.aliases:
            assert resolve(alias) is spec, alias


def test_unknown_metric_names_the_known_ones() -> None:
    with pytest.raises(KeyError, match="unknown metric 'nope'") as info:
        resolve("nope")
    assert "tiou" in info.value.args[0] and "cleval_det" in info.value.args[0]


def test_bare_key_goes_to_every_selected_metric_that_has_it() -> None:
    specs = [METRICS["tiou"], METRICS["siou"], METRICS["ic15_iou"]]
    assert parse_sets(["tolerance=0"], specs) == {
        "tiou": {"tolerance": "0"},
        "siou": {"tolerance": "0"},
        "ic15_iou": {},
    }
    both = parse_sets(["iou_threshold=0.7"], specs)
    assert all(v == {"iou_threshold": "0.7"} for v in both.values())


def test_dotted_key_goes_to_that_metric_only() -> None:
    specs = [METRICS["tiou"], METRICS["siou"]]
    out = parse_sets(["tiou.dc_as_outlier=false", "TIoU.tolerance = 0.02"], specs)
    assert out == {"tiou": {"dc_as_outlier": "false", "tolerance": " 0.02"}, "siou": {}}
    with pytest.raises(
        ValueError,
        match=r"^--set deteval.variant: deteval is not among the "
        r"metrics run \(tiou, siou\)$",
    ):
        parse_sets(["deteval.variant=legacy"], specs)  # else silently ignored


def test_value_keeps_later_equal_signs() -> None:
    out = parse_sets(["wordline_tiou.membership_op=>="], [METRICS["wordline_tiou"]])
    assert out["wordline_tiou"] == {"membership_op": ">="}


@pytest.mark.parametrize(
    ("item", "message"),
    [
        ("tolerance", "KEY=VALUE"),
        ("nope=1", "no selected metric has a parameter 'nope'"),
        ("tiou.nope=1", "tiou has no parameter 'nope'"),
        ("bogus.tolerance=1", "unknown metric 'bogus'"),
    ],
)
def test_bad_set_items_raise_value_error(item: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_sets([item], [METRICS["tiou"], METRICS["ic15_iou"]])


def test_make_params_converts_strings_to_field_types() -> None:
    p = make_params(
        METRICS["tiou"],
        {"tolerance": "0", "dc_as_outlier": "no", "confidences": "none", "allow_float": "TRUE"},
    )
    assert p.tolerance == 0.0 and isinstance(p.tolerance, float)
    assert p.dc_as_outlier is False and p.allow_float is True
    assert p.confidences is None
    assert make_params(METRICS["tiou"], {"confidences": "yes"}).confidences is True
    assert make_params(METRICS["tiou"]) == METRICS["tiou"].params_type()


def test_make_params_passes_non_strings_through() -> None:
    p = make_params(METRICS["deteval"], {"variant": "legacy", "area_recall": 0.7})
    assert (p.variant, p.area_recall) == ("legacy", 0.7)


@pytest.mark.parametrize(
    ("metric", "overrides", "error"),
    [
        ("tiou", {"dc_as_outlier": "maybe"}, ValueError),
        ("tiou", {"tolerance": "abc"}, ValueError),
        ("tiou", {"iou_threshold": "none"}, ValueError),  # not optional
        ("deteval", {"variant": "paper"}, ValueError),  # refused by the params class
        ("tiou", {"nope": "1"}, KeyError),
    ],
)
def test_make_params_rejects_bad_values(
    metric: str, overrides: dict[str, str], error: type[Exception]
) -> None:
    with pytest.raises(error):
        make_params(METRICS[metric], overrides)


def test_every_metric_can_be_asked_for_by_name(tmp_path) -> None:
    """Each id on the command line (a spec with a mapping field once made this a
    TypeError traceback: specs are de-duplicated in a dict)."""
    from metrics.cli.main import main

    assert len({spec: None for spec in METRICS.values()}) == len(METRICS)
    for mid in ("curved_iou", "curved_tiou", "tiou"):
        # curved_* read under half of the demo's quads (their orientation rule): exit 1, no
        # traceback; tiou reads them all
        want = 0 if mid == "tiou" else 1
        assert (
            main(["eval", "--metric", f"{mid},{mid}", "--quiet", "--policy", "skip_sample"]) == want
        )
