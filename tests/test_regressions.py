"""Regressions of the code review (issue 13): each test failed on the code before the fix.

- output files got mode 0600 from ``eval --json/--csv`` but 0644 from ``export``: one
  ``atomic_write`` now gives both the mode of a plain ``open``;
- the CSV wrote ``num_gt_care = 0.0`` on every CLEval row (a string-keyed tally defaulted
  missing keys to 0): tallies are typed and a missing key is an error;
- ``--set tiou.tolerance=0`` worked for ``eval`` and exited 2 for ``export`` (two parsers);
- the wheel carried no demo data and no ``py.typed``;
- a bare ``pytest`` (README's command) failed at collection: ``No module named 'tests'`` and
  ``tests/metrics`` shadowing the real ``metrics`` package.
"""

from __future__ import annotations

import csv
import os
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from metrics.cleval.tally import ClevalTally
from metrics.cli import main
from metrics.core.tally import CreditTally
from metrics.io.atomic import atomic_write
from metrics.io.demo import demo_paths

ROOT = Path(__file__).resolve().parents[1]


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_eval_outputs_get_the_mode_of_a_plain_open(tmp_path: Path) -> None:
    out_json, out_csv = tmp_path / "r.json", tmp_path / "r.csv"
    assert (
        main(["eval", "-q", "--metric", "tiou", "--json", str(out_json), "--csv", str(out_csv)])
        == 0
    )
    expected = 0o666 & ~_umask()
    assert (out_json.stat().st_mode & 0o777) == expected
    assert (out_csv.stat().st_mode & 0o777) == expected


def test_atomic_write_replaces_whole_and_leaves_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "f.txt"
    atomic_write(target, "one\r\n")
    atomic_write(target, b"two")
    assert target.read_bytes() == b"two"
    assert [p.name for p in target.parent.iterdir()] == ["f.txt"]


def test_csv_counts_care_instances_for_cleval(tmp_path: Path) -> None:
    out = tmp_path / "r.csv"
    assert main(["eval", "-q", "--metric", "cleval_det,tiou", "--csv", str(out)]) == 0
    rows = list(csv.DictReader(out.open()))
    by = {(r["metric"], r["sample"]): r for r in rows}
    for (metric, sample), row in by.items():
        if metric != "cleval_det":
            continue
        twin = by[("tiou", sample)]  # same data: same care GT count
        assert row["num_gt_care"] == twin["num_gt_care"]
    assert int(by[("cleval_det", "*")]["num_gt_care"]) > 0


def test_a_tally_has_no_silent_zero_for_a_missing_key() -> None:
    t = ClevalTally(n_gt_care=2, n_det_care=1, chars_gt=10, tp=5)
    assert t["n_gt_care"] == 2 and t["chars_gt"] == 10
    with pytest.raises(KeyError):
        t["recall_credit"]
    with pytest.raises(ValueError):
        t + CreditTally(1, 1, 1, 1)  # type: ignore[operator]


def test_tallies_add_field_by_field() -> None:
    a = CreditTally(2, 3, 1.5, 2.0)
    b = CreditTally(1, 1, 0.5, 1.0)
    assert (a + b) == CreditTally(3, 4, 2.0, 3.0)
    assert (a + b).scores()[0] == pytest.approx(2.0 / 3)


def test_export_accepts_metric_qualified_set(tmp_path: Path) -> None:
    pytest.importorskip("PySide6")
    out = tmp_path / "shots"
    code = main(
        [
            "export",
            "--metric",
            "tiou",
            "--set",
            "tiou.tolerance=0",
            "--worst",
            "1",
            "--out",
            str(out),
        ]
    )
    assert code == 0
    assert len(list(out.glob("*.png"))) == 1
    png = next(out.glob("*.png"))
    assert (png.stat().st_mode & 0o777) == 0o666 & ~_umask()


def test_every_package_folder_is_listed_for_the_build() -> None:
    listed = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    found = {
        ".".join(p.parent.relative_to(ROOT).parts)
        for top in ("metrics", "viewer")
        for p in (ROOT / top).rglob("__init__.py")
    }
    assert found <= listed, f"add to [tool.setuptools] packages: {sorted(found - listed)}"


@pytest.mark.slow
@pytest.mark.skipif(not (ROOT / "pyproject.toml").exists(), reason="not run from a checkout")
def test_the_wheel_carries_the_demo_data_and_py_typed(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("detlens-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"metrics/py.typed", "viewer/py.typed"} <= names
    demo = demo_paths()
    for folder in (demo.gt, demo.det_a, demo.det_b, demo.images):
        for f in folder.iterdir():
            assert f"detlens_resources/demo/{folder.name}/{f.name}" in names


@pytest.mark.slow
def test_bare_pytest_collects_everything_with_the_real_engine() -> None:
    """README's test command is a bare ``pytest``: the console script, not ``python -m``."""
    script = Path(sys.executable).with_name("pytest")
    if not script.exists():
        pytest.skip(f"no pytest console script beside {sys.executable}")
    done = subprocess.run(
        [str(script), "--collect-only", "-q", "-p", "no:cacheprovider", "tests"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "errors" not in done.stdout.splitlines()[-1]
    assert "tests/metrics/test_conformance.py" in done.stdout


def test_the_tests_import_the_real_engine() -> None:
    import metrics

    assert hasattr(metrics, "evaluate") and Path(metrics.__file__).parent == ROOT / "metrics"
