"""The CLEval family's cards: what each metric is, before any of its code is imported."""

from __future__ import annotations

from metrics.declare.card import Card
from metrics.declare.offers import always, transcribed

_F = "metrics.cleval"
_NEW, _OLD = "pip cleval 0.1.1", "clovaai/CLEval @769dde2"
_PAPER = "the CLEval paper's tables"
PCC_CANVAS = (
    "Dots are pseudo character centres (PCC) of each GT: red missed, green counted once, "
    "orange counted by several detections. Links show one-to-one, split and merge groups."
)
_DET_CREDIT = (
    "(characters found − granularity penalty) / characters; the penalty counts splits "
    "(recall) and merges (precision)"
)
_E2E_CREDIT = "as CLEval detection, counting only characters whose text agrees (LCS)"

CARDS: tuple[Card, ...] = (
    Card(
        id="cleval_det",
        title="CLEval",
        family=_F,
        params="ClevalParams",
        aliases=("cleval", "cleval_det_polyfix"),
        applies=always,
        what="CLEval detection: character-level scores with split, merge and overlap penalties",
        source=_NEW,
        datasets="ICDAR 2013, 2015, Total-Text (CLEval paper)",
        credit=_DET_CREDIT,
        canvas=PCC_CANVAS,
    ),
    Card(
        id="cleval_e2e",
        title="CLEval end-to-end",
        family=_F,
        params="ClevalParams",
        aliases=("cleval_e2e_polyfix",),
        applies=transcribed,
        what="CLEval end-to-end: characters counted only where the transcription matches (LCS)",
        source=_NEW,
        datasets="ICDAR 2013, 2015 end-to-end",
        credit=_E2E_CREDIT,
        canvas=PCC_CANVAS,
    ),
    Card(
        id="cleval_legacy_det",
        title="CLEval (paper-era code)",
        family=_F,
        params="ClevalLegacyParams",
        aliases=("cleval_legacy", "cleval_legacy_det_polyfix"),
        applies=always,
        what="CLEval detection as the paper-era code computed it",
        source=_OLD,
        datasets=_PAPER,
        credit=_DET_CREDIT + "; one granularity weight for both, clamped at 0 per image",
        canvas=PCC_CANVAS,
    ),
    Card(
        id="cleval_legacy_e2e",
        title="CLEval end-to-end (paper-era code)",
        family=_F,
        params="ClevalLegacyParams",
        applies=transcribed,
        what="CLEval end-to-end as the paper-era code computed it (with its recognition score)",
        source=_OLD,
        datasets=_PAPER,
        credit=_E2E_CREDIT + "; recognition score = characters consumed / detection characters",
        canvas=PCC_CANVAS,
    ),
)
