"""Start-up: ``detlens --help``, ``eval --help``, ``--list-metrics`` and ``--describe``
import no metric family's code (only the families' cards and params), numpy, shapely or Qt;
engine commands never import the viewer; subcommands added with ``add_command`` are imported
only when they run."""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import subprocess
import sys
from pathlib import Path

import pytest

from metrics.analysis.threshold import KEY, split_sets
from metrics.catalogue.catalog import CARDS
from metrics.cli.analysis_args import SCORE_KEY, names_score_threshold
from metrics.cli.commands import CommandParser, add_command, entry_points
from metrics.cli.main import BOX_TYPES, build_parser
from metrics.core.model import BoxType

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("numpy", "shapely", "PySide6", "viewer.")
PLUGIN = {"viewer.app", "viewer.app.cli"}  # the entry point that registers `view`
FAMILIES = {c.family for c in CARDS}
LIGHT = ("cards", "params")  # what a family declares without its metric code


def family_code(loaded: set[str]) -> set[str]:
    """The metric families' modules among ``loaded`` other than their cards and params."""
    return {
        m
        for m in loaded
        if any(m.startswith(f + ".") for f in FAMILIES) and m.rpartition(".")[2] not in LIGHT
    }


def _loaded_by(argv: list[str], cwd: Path | None = None) -> set[str]:
    """Modules a fresh ``detlens ARGV`` process has loaded when it exits."""
    probe = (
        "import sys, atexit\n"
        "atexit.register(lambda: print('\\n'.join(sys.modules), file=sys.stderr))\n"
        "from metrics.cli.main import main\n"
        f"sys.exit(main({argv!r}))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return set(proc.stderr.split())


@pytest.mark.parametrize(
    "argv",
    [["--help"], ["eval", "--help"], ["eval", "--list-metrics"], ["eval", "--describe", "tiou"]],
)
def test_help_and_the_metric_list_load_nothing_heavy(argv: list[str]) -> None:
    loaded = _loaded_by(argv)
    assert not {m for m in loaded if m.startswith(HEAVY)} - PLUGIN, sorted(loaded)
    assert not family_code(loaded), sorted(family_code(loaded))
    assert "importlib.metadata" not in loaded


def test_the_metric_list_creates_no_params_class() -> None:
    loaded = _loaded_by(["eval", "--list-metrics"])
    assert not {m for m in loaded if m.endswith(".params") and m != "metrics.declare.params"}


def test_an_evaluation_loads_its_family_only_and_no_viewer() -> None:
    loaded = _loaded_by(["eval", "--metric", "tiou", "-q"])
    assert "metrics.icdar.specs" in loaded and "numpy" in loaded
    assert not {m for m in loaded if m.startswith(("PySide6", "viewer"))}
    assert {m.split(".")[1] for m in family_code(loaded)} == {"icdar"}


def _icdar_pair(root: Path) -> tuple[str, str]:
    """A one-image ICDAR GT / detection pair of folders (the sharded path reads them)."""
    gt, det = root / "gt", root / "det"
    gt.mkdir()
    det.mkdir()
    (gt / "gt_img_1.txt").write_text("0,0,10,0,10,10,0,10,word\n20,0,30,0,30,10,20,10,###\n")
    (det / "res_img_1.txt").write_text("1,0,10,0,10,10,1,10\n")
    return str(gt), str(det)


@pytest.mark.parametrize("extra", [[], ["--json", "out.json"]])
def test_a_plain_evaluation_imports_no_analysis(tmp_path: Path, extra: list[str]) -> None:
    gt, det = _icdar_pair(tmp_path)
    loaded = _loaded_by(
        ["eval", "--gt", gt, "--det", det, "--metric", "tiou", "-q", *extra], tmp_path
    )
    assert "metrics.run.sharded" in loaded  # the plain path: read and evaluated slice by slice
    assert not {m for m in loaded if m.startswith("metrics.analysis")}, sorted(loaded)
    assert "metrics.cli.analysis" not in loaded
    assert ("metrics.io.writers" in loaded) == bool(extra)  # written only when asked


def test_a_score_threshold_leaves_the_plain_path(tmp_path: Path) -> None:
    gt, det = _icdar_pair(tmp_path)
    argv = ["eval", "--gt", gt, "--det", det, "--metric", "tiou", "-q"]
    loaded = _loaded_by([*argv, "--set", "tiou.score_threshold=0.5"], tmp_path)
    assert "metrics.analysis.threshold" in loaded and "metrics.run.sharded" not in loaded


@pytest.mark.parametrize(
    "items",
    [
        [],
        ["tolerance=0"],
        ["score_threshold=0.6"],
        ["tiou.score_threshold=.3"],
        ["score_threshold"],
    ],
)
def test_the_light_score_threshold_check_agrees_with_split_sets(items: list[str]) -> None:
    assert SCORE_KEY == KEY
    assert names_score_threshold(items) == bool(split_sets(items)[1])


def test_view_is_listed_but_not_imported() -> None:
    loaded = _loaded_by(["--help"])
    assert "viewer.app.cli" in loaded  # the plugin registered its names ...
    assert "viewer.app.view" not in loaded  # ... and nothing else


def test_a_deferred_command_is_imported_when_it_runs() -> None:
    parser = CommandParser(prog="t")
    sub = parser.add_subparsers(dest="command", required=True)
    add_command(sub, "compare", "metrics.cli.compare:add_compare_command", help="short")
    deferred = sub.choices["compare"]
    assert not any(a.dest == "top" for a in deferred._actions)  # nothing added yet
    args = parser.parse_args(["compare", "--top", "3"])
    assert args.top == 3 and args.func.__name__ == "cmd_compare"
    assert "Compare two detection sets" in (deferred.description or "")
    assert "short" in parser.format_help()


def test_help_of_a_deferred_command_shows_its_arguments(capsys) -> None:
    with pytest.raises(SystemExit):
        build_parser(["compare"]).parse_args(["compare", "--help"])
    assert "--top" in capsys.readouterr().out


def test_plugins_are_looked_up_only_for_other_commands() -> None:
    assert "view" not in build_parser(["eval"])._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert "view" in build_parser(["view"])._subparsers._group_actions[0].choices  # type: ignore[union-attr]


@pytest.mark.parametrize("group", ["detlens.commands", "console_scripts", "pytest11"])
def test_entry_points_agree_with_importlib_metadata(group: str) -> None:
    ours = sorted(name for name, _ in entry_points(group))
    theirs = sorted({e.name for e in importlib.metadata.entry_points(group=group)})
    assert ours == theirs


def test_the_view_entry_point_loads_the_register_function() -> None:
    loads = dict(entry_points("detlens.commands"))
    register = loads["view"]()
    sub = argparse.ArgumentParser().add_subparsers()
    assert callable(register) and sub is not None


def test_box_type_choices_are_the_models() -> None:
    assert tuple(b.value for b in BoxType) == BOX_TYPES
