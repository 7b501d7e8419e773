"""``new_instance`` makes the same ``Instance`` as its constructor, only faster."""

from __future__ import annotations

import dataclasses
import pickle

import numpy as np
import pytest

from metrics.core.model import BoxType, Instance, new_instance


@pytest.mark.parametrize(
    "args",
    [
        (BoxType.QUAD, "word", None, False, 3, True, None),
        (BoxType.POLY, None, 0.25, False, 1, False, {"script": "Latin"}),
        (BoxType.LTRB, "###", None, True, 7, True, None),
    ],
)
def test_the_same_instance(args: tuple) -> None:  # type: ignore[type-arg]
    pts = np.arange(8, dtype=np.float64).reshape(4, 2)
    made, built = new_instance(pts, *args), Instance(pts, *args)
    assert type(made) is Instance
    assert repr(made) == repr(built)
    for f in dataclasses.fields(Instance):
        assert getattr(made, f.name) is getattr(built, f.name)
    again = pickle.loads(pickle.dumps(made))  # as a worker sends it back
    assert repr(again) == repr(built) and np.array_equal(again.points, pts)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.line = 2  # type: ignore[misc]


def test_defaults_as_the_constructor() -> None:
    pts = np.zeros((4, 2))
    assert repr(new_instance(pts, BoxType.QUAD)) == repr(Instance(pts, BoxType.QUAD))
