"""Readers of the field's GT and detection formats, one module per family, one surface
(``metrics.io.formats.base.Format``): ``sniff(member, role)`` and ``read(member, role,
report)``. ``FORMATS`` lists them in the order ties are broken; ``metrics.io.formats.detect`` picks
one from the content of the files."""

from __future__ import annotations

from metrics.io.formats.base import Entry, Format, Report, Role
from metrics.io.formats.canonical import CANONICAL
from metrics.io.formats.cocotext import ART, COCO, RECTS
from metrics.io.formats.curved import CTW1500_32, CTW1500_TXT, CTW1500_XML, MSRA, TOTALTEXT
from metrics.io.formats.doctr import DOCTR
from metrics.io.formats.hiertext_words import HIERTEXT, HIERTEXT_LINE, HIERTEXT_PARAGRAPH
from metrics.io.formats.mmocr import DATASET as MMOCR
from metrics.io.formats.mmocr import PREDS as MMOCR_PRED
from metrics.io.formats.paddle import LABEL as PADDLE
from metrics.io.formats.paddle import RES as PADDLE_RES
from metrics.io.formats.textsets import ICDAR, MLT, RCTW

FORMATS: tuple[Format, ...] = (
    CANONICAL,
    MLT,
    RCTW,
    TOTALTEXT,
    CTW1500_TXT,
    CTW1500_32,
    CTW1500_XML,
    MSRA,
    PADDLE,
    MMOCR,
    MMOCR_PRED,
    PADDLE_RES,
    COCO,
    HIERTEXT,
    RECTS,
    ART,
    DOCTR,
    ICDAR,
    HIERTEXT_LINE,
    HIERTEXT_PARAGRAPH,
)
BY_NAME = {f.name: f for f in FORMATS}

__all__ = ["BY_NAME", "FORMATS", "HIERTEXT", "ICDAR", "Entry", "Format", "Report", "Role"]
