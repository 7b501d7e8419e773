"""The view state (Qt-free): JSON written beside exports and read back by ``--state``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from metrics.core.model import InputError
from tests.support import bounded_on_fifo
from viewer.scene.view_state import ViewState, read_state, state_json, state_params


def test_state_round_trips_through_its_file(tmp_path: Path) -> None:
    state = ViewState(
        gt="/d/gt.zip",
        det=("/d/a.zip", "/d/b.zip"),
        metric="tiou",
        names=("a", "b"),
        params={"tolerance": 0.1},
        sample="img_4",
        layers=("gt", "det", "image"),
        zoom=2.5,
        select="det:2",
    )
    path = tmp_path / "s.json"
    path.write_bytes(state_json(state))
    data = json.loads(path.read_text())
    assert data["layers"] == ["det", "gt", "image"] and data["det"] == ["/d/a.zip", "/d/b.zip"]
    back = read_state(path)
    assert back.det == state.det and back.names == state.names and back.zoom == 2.5
    assert set(back.layers) == set(state.layers) and back.params == {"tolerance": 0.1}
    assert back.select == "det:2"  # the selection, as --select writes it (from 1)


def test_fit_zoom_and_missing_keys() -> None:
    assert ViewState().to_json()["zoom"] == "fit"
    assert ViewState.from_json({"zoom": "fit"}).zoom is None
    assert ViewState.from_json({}).det == ()


def test_unreadable_state_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError):
        read_state(tmp_path / "missing.json")
    (tmp_path / "bad.json").write_text("[1, 2]")
    with pytest.raises(InputError):
        read_state(tmp_path / "bad.json")


def test_the_scene_loads_no_qt() -> None:
    code = (
        "import sys; import viewer.scene.overlay, viewer.scene.palette, viewer.scene.rows, "
        "viewer.scene.picking, viewer.scene.view_state, viewer.scene.layers; "
        "sys.exit('PySide6' in sys.modules)"
    )
    root = Path(__file__).resolve().parents[2]
    assert subprocess.run([sys.executable, "-c", code], cwd=root).returncode == 0


def test_unknown_keys_and_wrong_types_are_named(tmp_path: Path) -> None:
    """Issue 30: a state file is checked as ``--set`` items are (unknown keys were ignored
    silently, a list where a number belongs was taken)."""
    cases = {
        '{"metric": "tiou", "zoom_level": 2, "bogus": 1}': "unknown key(s) 'bogus', 'zoom_level'",
        '{"det": ["a", "b", "c"]}': "det: expected at most 2 names",
        '{"gt": 5}': "gt: expected text or null",
        '{"score_threshold": "0.5"}': "score_threshold: expected a finite number",
        '{"zoom": 1e999}': "zoom: expected a finite number",
        '{"zoom": ' + "9" * 400 + "}": "zoom: expected a finite number",
        '{"layers": [["gt"]]}': "layers: expected at most",
        '{"params": [1]}': "params: expected an object",
    }
    for text, message in cases.items():
        path = tmp_path / "s.json"
        path.write_text(text)
        with pytest.raises(InputError) as err:
            read_state(path)
        assert message in str(err.value) and str(path) in str(err.value), text


def test_deep_nesting_and_huge_numbers_are_input_errors(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    for text in ("[" * 100_000 + "]" * 100_000, '{"zoom": 1' + "0" * 5000 + "}"):
        path.write_text(text)
        with pytest.raises(InputError, match=r"s\.json"):
            read_state(path)


def test_a_fifo_is_not_read_as_a_state(tmp_path: Path) -> None:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this platform")
    os.mkfifo(tmp_path / "s.json")
    with pytest.raises(InputError, match="not a regular file"):
        bounded_on_fifo(tmp_path / "s.json", lambda: read_state(tmp_path / "s.json"))


def test_state_params_are_checked_and_typed_as_set_values() -> None:
    assert state_params("tiou", {"tolerance": 0, "dc_as_outlier": False}) == {
        "tolerance": 0.0,
        "dc_as_outlier": False,
    }
    assert state_params("tiou", {}) == {} and state_params(None, {}) == {}
    for metric, params, message in [
        ("tiou", {"tolerance": 2}, "tolerance must be from 0 to 1"),
        ("tiou", {"tolerance": float("nan")}, "finite"),
        ("tiou", {"tolerance": {"a": 1}}, "got a dict"),
        ("tiou", {"nope": 1}, "tiou has no parameter 'nope'"),
        ("nosuch", {"k": 1}, "unknown metric"),
        (None, {"tolerance": 0.1}, "without a metric"),
    ]:
        with pytest.raises(ValueError, match=message):
            state_params(metric, params)


def test_the_gallery_filters_round_trip_and_wrong_values_are_named(tmp_path: Path) -> None:
    from viewer.scene.gallery_state import GalleryView

    view = GalleryView(True, ("false_positive", "a_only"), "img_1", True, "b", "size")
    path = tmp_path / "s.json"
    path.write_bytes(state_json(ViewState(metric="tiou", gallery=view)))
    assert json.loads(path.read_text())["gallery"]["classes"] == ["false_positive", "a_only"]
    assert read_state(path).gallery == view
    assert ViewState.from_json({}).gallery is None  # an older state: the gallery's defaults
    cases = {
        '{"gallery": {"classes": ["missed", "nope"]}}': "gallery: classes: unknown class 'nope'",
        '{"gallery": {"sort": "height"}}': "gallery: sort: expected one of credit, size",
        '{"gallery": {"owners": "c"}}': "gallery: owners: expected one of both, a, b",
        '{"gallery": {"shown": 1}}': "gallery: shown: expected true or false",
        '{"gallery": {"text": 5}}': "gallery: text: expected text",
        '{"gallery": {"colour": "red"}}': "gallery: unknown key(s) 'colour'",
        '{"gallery": [1]}': "gallery: expected an object",
    }
    for text, message in cases.items():
        path.write_text(text)
        with pytest.raises(InputError) as err:
            read_state(path)
        assert message in str(err.value) and str(path) in str(err.value), text
        assert "\n" not in str(err.value)
