"""Where the shared conformance data is: ``$DETLENS_SHARED``, else ``../shared`` beside the
repo, through the one locator in ``tests/support.py``. Every conformance-type test uses it
(no test module computes its own path to shared), so setting the variable moves them all."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from tests import support
from tests.support import shared_input, shared_or_skip, shared_path, shared_root

TESTS = Path(__file__).resolve().parents[1]


def test_default_is_shared_beside_the_repo(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DETLENS_SHARED", raising=False)
    assert shared_root() == support.ROOT.parent / "shared"
    assert (support.ROOT / "metrics" / "__init__.py").is_file()


def test_environment_variable_moves_every_path(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("DETLENS_SHARED", str(tmp_path / "elsewhere"))
    assert shared_root() == tmp_path / "elsewhere"
    assert shared_path("reference", "x.json") == tmp_path / "elsewhere" / "reference" / "x.json"
    assert shared_input("shared/data/ic13/gt.zip") == tmp_path / "elsewhere" / "data/ic13/gt.zip"


def test_missing_data_skips_with_the_reason(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("DETLENS_SHARED", str(tmp_path / "nowhere"))
    with pytest.raises(pytest.skip.Exception, match="DETLENS_SHARED") as info:
        shared_or_skip("reference")
    assert str(tmp_path / "nowhere" / "reference") in str(info.value)


def test_conformance_tests_follow_the_variable(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A copy of one reference (and its inputs) under another name is found and reproduced."""
    ref_file = shared_or_skip("reference", "ic13__original__deteval.json")
    ref = json.loads(ref_file.read_text())
    copy = tmp_path / "copied-shared"
    (copy / "reference").mkdir(parents=True)
    (copy / "reference" / ref_file.name).write_bytes(ref_file.read_bytes())
    for key in ("gt", "det"):
        target = copy / Path(ref["inputs"][key]).relative_to("shared")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(shared_input(ref["inputs"][key]).read_bytes())
    monkeypatch.setenv("DETLENS_SHARED", str(copy))
    from tests.metrics import conformance as conf

    assert conf._discover() == [(ref_file.name, "deteval")]
    ref2, ds, ev = conf.evaluated(ref_file.name)
    assert ds.gt_path is not None and Path(ds.gt_path).is_relative_to(copy)
    assert ev.hmean == pytest.approx(ref2["global"]["hmean"], abs=1e-6)


def _modules() -> list[Path]:
    return sorted(p for p in TESTS.rglob("*.py") if p.name != "support.py")


def test_no_test_module_computes_its_own_path_to_shared() -> None:
    """Only tests/support.py spells the location: no ``"shared"`` path literal, no
    ``parents[...]`` of ``__file__`` joined with it, no own ``DETLENS_SHARED`` lookup."""
    offenders = []
    for path in _modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value
                if path.name != Path(__file__).name and (
                    text == "DETLENS_SHARED" or text in ("shared", "../shared")
                ):
                    offenders.append(f"{path.relative_to(TESTS)}:{node.lineno}: {text!r}")
            if isinstance(node, ast.Attribute) and node.attr == "SHARED":
                offenders.append(f"{path.relative_to(TESTS)}:{node.lineno}: .SHARED")
    assert not offenders, offenders


def test_conformance_type_tests_use_the_locator() -> None:
    """Every module with a ``conformance`` test imports the locator from tests.support, or the
    conformance machinery (``tests.metrics.conformance``), which does."""
    users = []
    for path in _modules():
        text = path.read_text(encoding="utf-8")
        if "mark.conformance" in text:
            users.append(path.name)
            direct = "from tests.support import" in text and "shared_" in text
            assert direct or "from tests.metrics.conformance import" in text, path
    assert {"test_conformance.py", "test_runner.py"} <= set(users)
