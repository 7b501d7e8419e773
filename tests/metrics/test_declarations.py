"""Everything is declared once, where it belongs (issue 27), replacing the old check that a
central catalogue agreed with the families entry by entry:

- every metric's card (its family's ``cards.py``) says what the metric is, where it comes
  from and how an instance's credit comes about, and its spec is its family's;
- every parameter of every metric is declared with its help and, for a number, its range
  (``metrics.declare.params.param``), which ``--set``, ``--describe`` and the viewer read;
- every command's input options are the shared declaration
  (``metrics.cli.format_options``), found by introspecting the parsers.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import math
import subprocess
import sys

import pytest

from metrics.catalogue.catalog import BY_ID, CARDS, card
from metrics.catalogue.registry import METRICS, make_params
from metrics.cli.describe import describe
from metrics.cli.format_options import (
    add_policy_option,
    add_set_option,
    add_side_options,
    add_workers_option,
)
from metrics.cli.main import build_parser, main
from metrics.declare import params

IDS = [c.id for c in CARDS]
TEXTS = ("what", "source", "datasets", "credit", "canvas")


# ----------------------------------------------------------------------------- the cards


@pytest.mark.parametrize("mid", IDS)
def test_every_card_says_what_where_from_and_its_credit_formula(mid: str) -> None:
    c = BY_ID[mid]
    for name in TEXTS:
        assert getattr(c, name).strip(), f"{mid}: no {name}"
    assert c.title and c.inputs()


@pytest.mark.parametrize("mid", IDS)
def test_every_card_is_its_familys_spec(mid: str) -> None:
    c = BY_ID[mid]
    spec = METRICS[mid]
    assert spec.card is c
    assert spec in importlib.import_module(f"{c.family}.specs").SPECS
    assert c.family == c.__class__.__module__ or c.family in {x.family for x in CARDS}
    assert importlib.import_module(f"{c.family}.cards").CARDS.count(c) == 1


def test_every_family_spec_has_a_card_in_the_catalogue() -> None:
    for family in {c.family for c in CARDS}:
        for spec in importlib.import_module(f"{family}.specs").SPECS:
            assert BY_ID[spec.id] is spec.card, spec.id


def test_ids_and_aliases_name_one_metric_each() -> None:
    names = [n for c in CARDS for n in (c.id, *c.aliases)]
    assert len(names) == len(set(names))
    assert all(card(n.upper()).id in BY_ID for n in names)


def test_metrics_iterates_ids_in_catalogue_order() -> None:
    assert list(METRICS) == IDS
    assert len(METRICS) == len(CARDS)
    assert "tiou" in METRICS and "nope" not in METRICS


# ------------------------------------------------------------------------ the parameters

FIELDS = [(c.id, d) for c in CARDS for d in params.docs(c.params_type())]


@pytest.mark.parametrize(("mid", "doc"), FIELDS, ids=[f"{m}.{d.name}" for m, d in FIELDS])
def test_every_parameter_has_help_and_every_number_a_range(mid: str, doc: params.ParamDoc) -> None:
    assert len(doc.help) > 10, f"{mid}.{doc.name} has no help"
    if doc.is_number:
        assert doc.range is not None, f"{mid}.{doc.name} has no range"
        lo, hi = doc.range
        assert lo <= doc.default <= hi  # type: ignore[operator]
    if doc.kind is str:
        assert doc.default in doc.choices, f"{mid}.{doc.name}: choices not declared"


@pytest.mark.parametrize(("mid", "doc"), FIELDS, ids=[f"{m}.{d.name}" for m, d in FIELDS])
def test_set_refuses_what_the_declaration_refuses(mid: str, doc: params.ParamDoc) -> None:
    spec = METRICS[mid]
    if doc.range is not None:
        lo, hi = doc.range
        outside = lo - 1 if math.isfinite(lo) and lo - 1 < lo else hi * 2 + 1
        if math.isfinite(outside) and not lo <= outside <= hi:
            with pytest.raises(ValueError, match=doc.name):
                make_params(spec, {doc.name: str(outside)})
    if doc.choices:
        with pytest.raises(ValueError, match=doc.name):
            make_params(spec, {doc.name: "no_such_choice"})
        assert getattr(make_params(spec, {doc.name: doc.choices[-1]}), doc.name) == doc.choices[-1]


def test_iou_thresholds_say_how_they_compare() -> None:
    """The words follow the code: ``>=`` for Total-Text VOC and HierText, ``>`` elsewhere."""
    for c in CARDS:
        for d in params.docs(c.params_type()):
            if d.name == "iou_threshold":
                ge = c.id == "totaltext_voc" or c.id.startswith("hiertext")
                assert ("at least" in d.help) is ge and ("strictly above" in d.help) is not ge


def test_describe_prints_the_card_and_the_tooltips(capsys: pytest.CaptureFixture[str]) -> None:
    describe("ic13")
    out = " ".join(capsys.readouterr().out.split())
    c = card("deteval")
    assert out.startswith("deteval: ICDAR13 DetEval")
    for text in (c.credit, c.source):
        assert " ".join(text.split()) in out
    for d in params.docs(c.params_type()):
        assert f"{d.name} = {d.default!r}" in out
        assert " ".join(d.tooltip().split()) in out


def test_describe_an_unknown_metric_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "--describe", "nope"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "unknown metric 'nope'" in err[0]


# -------------------------------------------------------------------- the command options


def _reference() -> dict[str, list[argparse.Action]]:
    """The shared declaration: every variant of the input and metric options."""
    out: dict[str, list[argparse.Action]] = {}
    for kwargs in (
        {"lines_and_images": True, "box_type": True},
        {"two_dets": True},
        {"lines_and_images": True, "two_dets": True},
    ):
        for policy in ("strict", "skip_sample"):
            p = argparse.ArgumentParser()
            add_side_options(p, **kwargs)
            add_set_option(p)
            add_policy_option(p, default=policy)
            add_workers_option(p)
            for a in p._actions:
                for s in a.option_strings:
                    out.setdefault(s, []).append(a)
    del out["-h"], out["--help"]
    return out


COMMANDS = ["eval", "compare", "check", "convert", "view", "export", "report", "gallery"]
PLUGINS = {"view", "export", "report", "gallery"}
EVALUATING = {"eval", "compare", "export", "report", "gallery"}
"""The commands that evaluate a metric over a whole set: each takes ``--policy`` (what bad
input does) and ``--workers``, as ``eval`` does."""


def _command(name: str) -> argparse.ArgumentParser:
    if name in PLUGINS and importlib.util.find_spec("PySide6") is None:
        pytest.skip("the viewer's commands need PySide6")
    sub = build_parser([name])._subparsers._group_actions[0]  # type: ignore[union-attr]
    parser: argparse.ArgumentParser = sub.choices[name]  # type: ignore[attr-defined]
    parser.format_help()  # a deferred command adds its arguments now
    return parser


def _same(a: argparse.Action, b: argparse.Action) -> bool:
    keys = ("help", "choices", "type", "metavar", "default", "nargs", "const")
    return type(a) is type(b) and all(getattr(a, k) == getattr(b, k) for k in keys)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_commands_input_options_come_from_the_shared_declaration(command: str) -> None:
    ref = _reference()
    parser = _command(command)
    found = [a for a in parser._actions if set(a.option_strings) & set(ref)]
    assert {"--gt", "--det"} <= {s for a in found for s in a.option_strings}, command
    if command in EVALUATING:
        assert {"--policy", "--workers"} <= {s for a in found for s in a.option_strings}, command
    for a in found:
        (opt,) = set(a.option_strings) & set(ref)
        assert any(_same(a, r) for r in ref[opt]), f"{command} {opt}: declared apart"


def test_the_option_check_sees_an_option_declared_apart() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--gt", help="GT zip or folder")
    (opt,) = (a for a in p._actions if "--gt" in a.option_strings)
    assert not any(_same(opt, r) for r in _reference()["--gt"])


# ------------------------------------------------------------------------- light imports


def _loaded_after(code: str) -> set[str]:
    """Modules loaded by a fresh interpreter after running ``code``."""
    probe = f"import sys\n{code}\nprint('\\n'.join(sys.modules))"
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    ).stdout
    return set(out.split())


def test_a_lookup_imports_only_its_family() -> None:
    loaded = _loaded_after("from metrics.catalogue.registry import resolve; resolve('ic13')")
    assert "metrics.deteval.specs" in loaded
    assert not {"metrics.icdar.specs", "metrics.cleval.specs", "metrics.tedeval.specs"} & loaded


def test_the_catalogue_imports_no_family_code_nor_numpy() -> None:
    loaded = _loaded_after(
        "import metrics.catalogue.catalog, metrics.catalogue.registry; "
        "list(metrics.catalogue.registry.METRICS)"
    )
    assert not {m for m in loaded if m.startswith(("numpy", "shapely"))}
    assert not {
        m for m in loaded if m.endswith((".specs", ".params")) and m != "metrics.declare.params"
    }
