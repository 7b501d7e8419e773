"""The view state (Qt-free): JSON written beside exports and read back by ``--state``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from metrics.core.model import InputError
from viewer.scene.view_state import ViewState, read_state, state_json


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
