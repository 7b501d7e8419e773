"""``--json`` written entry by entry (``metrics.io.json_stream``): the same bytes as the
whole document encoded at once, for one metric and for several, with and without evidence."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.catalogue.registry import applicable
from metrics.io.demo import demo_paths
from metrics.io.json_stream import Entries, write_document
from metrics.io.reader import load_dataset
from metrics.io.writers import evaluation_dict, write_json
from metrics.run.runner import plan_all, run


def _whole(data: Any) -> bytes:
    return (json.dumps(data, indent=1, ensure_ascii=False, allow_nan=False) + "\n").encode()


@pytest.mark.parametrize("evidence", [False, True])
def test_streamed_json_is_the_whole_document(evidence: bool, tmp_path: Path) -> None:
    ds = load_dataset(demo_paths().gt, demo_paths().det_b)
    plan = plan_all(ds, applicable(ds))
    evals = run(ds, plan.specs, lenient=plan.lenient, validated=plan.validated)
    assert len(evals) >= 8
    for chosen in (evals, evals[:1]):
        whole = [evaluation_dict(e, evidence) for e in chosen]
        write_json(tmp_path / "out.json", chosen, evidence=evidence)
        expected = _whole(whole[0] if len(whole) == 1 else whole)
        assert (tmp_path / "out.json").read_bytes() == expected


leaf = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()
)
values = st.recursive(
    leaf,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=12,
)


@settings(max_examples=60, deadline=None)
@given(
    entries=st.dictionaries(st.text(), values, max_size=4),
    head=st.dictionaries(st.text(), values, max_size=3),
    many=st.booleans(),
)
def test_entries_at_any_depth_give_the_same_bytes(
    entries: dict[str, Any], head: dict[str, Any], many: bool, tmp_path_factory: Any
) -> None:
    path = tmp_path_factory.mktemp("j") / "x.json"
    plain = {**head, "per_image": entries}

    def lazy() -> dict[str, Any]:  # a fresh one each time: its entries are used up once written
        items = ((k, lambda v=v: v) for k, v in entries.items())
        return {**head, "per_image": Entries(items, not entries)}

    write_document(path, [lazy(), lazy()] if many else lazy())
    assert path.read_bytes() == _whole([plain, plain] if many else plain)


def test_nan_is_refused_and_no_file_is_left(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    with pytest.raises(ValueError):
        write_document(path, {"a": Entries(iter([("k", lambda: float("nan"))]), False)})
    assert list(tmp_path.iterdir()) == []
