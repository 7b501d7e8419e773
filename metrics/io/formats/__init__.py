"""Readers of the field's GT and detection formats, one module per family, one surface
(``metrics.io.formats.base.Format``): ``sniff(member, role)`` and ``read(member, role,
report)``. ``FORMATS`` lists them in the order ties are broken; ``metrics.io.formats.detect`` picks
one from the content of the files.

The readers of JSON files load on first use of ``FORMATS``, ``BY_NAME`` or ``HIERTEXT``
(this module's ``__getattr__``): a run that reads text files never imports them nor ``json``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from metrics.io.formats.base import Entry, Format, Report, Role
from metrics.io.formats.curved import CTW1500_32, CTW1500_TXT, CTW1500_XML, MSRA, TOTALTEXT
from metrics.io.formats.paddle import LABEL as PADDLE
from metrics.io.formats.textsets import ICDAR, MLT, RCTW

TEXT_FORMATS: tuple[Format, ...] = (
    MLT,
    RCTW,
    TOTALTEXT,
    CTW1500_TXT,
    CTW1500_32,
    CTW1500_XML,
    MSRA,
    PADDLE,
    ICDAR,
)
"""The formats that can take a file that does not start as JSON (``base.looks_json``), in
``FORMATS``'s order: every other format scores 0 on such a file."""

if TYPE_CHECKING:
    FORMATS: tuple[Format, ...]
    BY_NAME: dict[str, Format]
    HIERTEXT: Format


def __getattr__(name: str) -> object:
    """``FORMATS``, ``BY_NAME`` and ``HIERTEXT``: every format, the JSON readers imported now."""
    if name not in ("FORMATS", "BY_NAME", "HIERTEXT"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from metrics.io.formats.canonical import CANONICAL
    from metrics.io.formats.cocotext import ART, COCO, RECTS
    from metrics.io.formats.doctr import DOCTR
    from metrics.io.formats.hiertext_words import HIERTEXT, HIERTEXT_LINE, HIERTEXT_PARAGRAPH
    from metrics.io.formats.mmocr import DATASET as MMOCR
    from metrics.io.formats.mmocr import PREDS as MMOCR_PRED
    from metrics.io.formats.paddle import RES as PADDLE_RES

    *text, icdar = TEXT_FORMATS  # ICDAR's plain lines are tried after the JSON readers
    formats = (
        CANONICAL,
        *text,
        MMOCR,
        MMOCR_PRED,
        PADDLE_RES,
        COCO,
        HIERTEXT,
        RECTS,
        ART,
        DOCTR,
        icdar,
        HIERTEXT_LINE,
        HIERTEXT_PARAGRAPH,
    )
    globals().update(FORMATS=formats, BY_NAME={f.name: f for f in formats}, HIERTEXT=HIERTEXT)
    return globals()[name]


__all__ = [
    "BY_NAME",
    "FORMATS",
    "HIERTEXT",
    "ICDAR",
    "TEXT_FORMATS",
    "Entry",
    "Format",
    "Report",
    "Role",
]
