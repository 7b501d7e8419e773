"""The failure gallery's classes and sort keys, and its filters and sort as a view state
keeps them (``"gallery"`` in a state file): plain data, no Qt, no numpy, checked before a
window exists like the rest of the state."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import cast

from metrics.core.jsonvalue import JSONObject, JSONValue

CLASSES: dict[str, str] = {
    "missed": "missed GT",
    "false_positive": "false positive",
    "partial": "partly credited",
    "split": "split",
    "merge": "merge",
    "multiline": "multiline rejected",
    "dont_care": "don't care absorbed",
    "a_only": "GT found by A, missed by B",
    "b_only": "GT found by B, missed by A",
    "fp_b_only": "false positive of B that A did not make",
    "fp_a_only": "false positive of A that B did not make",
}
COMPARE_CLASSES = ("a_only", "b_only", "fp_b_only", "fp_a_only")
VERDICT_CLASSES = tuple(c for c in CLASSES if c not in COMPARE_CLASSES)
SORTS = {
    "credit": "credit (lowest first)",
    "size": "size (smallest first)",
    "iou": "IoU (lowest first)",
    "delta": "ΔH of the image (B's losses first)",
}
OWNERS = ("both", "a", "b")  # whose crops when comparing: A's and B's, A's, B's
MAX_TEXT = 1000  # characters of the text filter


@dataclass(frozen=True)
class GalleryView:
    """What the gallery shows: ``shown`` (its panel open), the ticked ``classes``, the text
    filter, ``table_only`` (the table's images only), ``owners`` and the ``sort`` key."""

    shown: bool = False
    classes: tuple[str, ...] = ("missed",)
    text: str = ""
    table_only: bool = False
    owners: str = "both"
    sort: str = "credit"

    def to_json(self) -> JSONObject:
        return {
            "shown": self.shown,
            "classes": [c for c in CLASSES if c in self.classes],
            "text": self.text,
            "table_only": self.table_only,
            "owners": self.owners,
            "sort": self.sort,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, JSONValue]) -> GalleryView:
        """From a checked object (``check_gallery``): missing keys take the defaults."""
        d = cls()
        return cls(
            shown=bool(data.get("shown", d.shown)),
            classes=tuple(cast("Sequence[str]", data.get("classes", d.classes))),
            text=str(data.get("text", d.text)),
            table_only=bool(data.get("table_only", d.table_only)),
            owners=str(data.get("owners", d.owners)),
            sort=str(data.get("sort", d.sort)),
        )


_CHOICES: dict[str, tuple[str, ...]] = {"owners": OWNERS, "sort": tuple(SORTS)}


def check_gallery(value: object) -> str | None:
    """What is wrong with a state's ``"gallery"`` object (None: nothing), in one line."""
    if not isinstance(value, dict):
        return "expected an object (shown, classes, text, table_only, owners, sort)"
    keys = tuple(GalleryView().to_json())
    unknown = sorted(set(value) - set(keys))
    if unknown:
        return f"unknown key(s) {', '.join(map(repr, unknown))}; known: {', '.join(keys)}"
    for key in ("shown", "table_only"):
        if key in value and not isinstance(value[key], bool):
            return f"{key}: expected true or false"
    text = value.get("text", "")
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        return f"text: expected text of at most {MAX_TEXT} characters"
    classes = value.get("classes", [])
    if not isinstance(classes, list) or not all(isinstance(c, str) for c in classes):
        return "classes: expected a list of class names"
    wrong = [c for c in classes if c not in CLASSES]
    if wrong:
        return f"classes: unknown class {wrong[0]!r}; known: {', '.join(CLASSES)}"
    for key, known in _CHOICES.items():
        if key in value and value[key] not in known:
            return f"{key}: expected one of {', '.join(known)}"
    return None
