"""Inspector: everything the engine says about the selected instance, under every metric."""

from __future__ import annotations

import html
from collections.abc import Mapping

from PySide6.QtCore import QUrl
from PySide6.QtWidgets import QTextBrowser, QWidget

from metrics.core.numbers import count_text, score_text
from metrics.core.results import InstanceResult, MatchRecord, SampleResult
from metrics.declare.help import discard_line
from viewer.app.session import Session
from viewer.scene.attributes import instance_attributes
from viewer.scene.items import Ref
from viewer.scene.overlay import angle_text
from viewer.scene.rules import refusal

_SHOWN = (
    "iou",
    "intersection",
    "union",
    "ct",
    "ct_ratio",
    "f_ct",
    "tiou_recall",
    "ot",
    "ot_ratio",
    "f_ot",
    "tiou_precision",
    "recall",
    "precision",
    "d",
    "center_distance",
    "sum",
    "text_line",
)


# the evidence's values that count things (characters, words, members; a flag 0 or 1) and
# those that measure the image (areas and distances, in pixels); the others are scores and
# ratios: 4 decimals, as everywhere (``metrics.core.numbers``)
_COUNTS = frozenset(
    [
        "found",
        "length",
        "members",
        "split",
        "merge",
        "lcs",
        "text_length",
        "text_line",
        "pcc",
        "total",
        "contained",
        "credited",
        "fp_chars",
        "outlier_tolerated",
    ]
)
_MEASURES = frozenset(
    ("intersection", "union", "gt_area", "det_area", "ct", "ot", "d", "center_distance")
)


def _fmt(key: str, v: object) -> str:
    if not isinstance(v, int | float) or isinstance(v, bool):
        return html.escape(str(v))
    if key in _COUNTS:
        return count_text(v)
    return f"{v:,.1f}" if key in _MEASURES else score_text(v)


def _values(values: Mapping[str, float], keys: tuple[str, ...] = _SHOWN) -> str:
    parts = [f"{k} {_fmt(k, values[k])}" for k in keys if k in values]
    return ", ".join(parts)


_STATE_TEXT = {
    "skipped": "skipped by the protocol before matching (an invalid polygon): it counts nowhere",
    "below_threshold": "under the shown score threshold: not counted at this threshold",
    "gt_taken": "false positive because its best GT was already taken (the protocol tries no "
    "second GT)",
}


def num(k: int) -> str:
    """A person's number of the instance at 0-based position ``k``: 1-based, like the lines
    of its file (the engine's indices stay 0-based)."""
    return str(k + 1)


def nums(ks: tuple[int, ...] | list[int]) -> str:
    return ", ".join(num(k) for k in ks)


def link(side: str, k: int) -> str:
    """A link that selects instance ``k`` of ``side`` ("gt" or "det"), numbered from 1."""
    return f"<a href='{side}:{k}'>{num(k)}</a>"


def links(side: str, ks: tuple[int, ...] | list[int]) -> str:
    return ", ".join(link(side, k) for k in ks)


def _taken_by(result: SampleResult | None, side: str, k: int, rule: str | None = None) -> str:
    """Why a near-miss partner did not match this instance: the group that took it."""
    if result is None:
        return ""
    for m in result.matches:
        if k in (m.det if side == "det" else m.gt):
            owners = m.gt if side == "det" else m.det
            owner_side = "gt" if side == "det" else "det"
            kind = m.kind.value.replace("_", "-")
            name = "GT" if owner_side == "gt" else "det"
            return f" ({'it' if side == 'det' else 'that GT'} was taken by {name} " + (
                f"{links(owner_side, owners)}'s {kind} match)"
            )
    if rule is not None:
        return f" (not taken by another match: refused, {rule})"
    return " (not taken by another match: it failed this metric's rules for this pair)"


def _instance(
    res: InstanceResult, other: str, result: SampleResult | None = None, params: object = None
) -> str:
    oside = "det" if other == "det" else "gt"
    out = [f"<b>{res.verdict.value.replace('_', ' ')}</b>, credit {score_text(res.credit)}"]
    if res.partners:
        out.append(f"with {other} {links(oside, res.partners)}")
    if res.absorbed_by is not None:
        out.append(f"absorbed by don't-care GT {link('gt', res.absorbed_by)}")
    if res.near_miss is not None:
        nm = res.near_miss
        side = "det" if oside == "gt" else "gt"
        rule = None
        if result is not None and params:
            rule = refusal(result, side, res, params, digits=4)
        why = _taken_by(result, oside, nm.partner, rule) if not res.partners else ""
        out.append(
            f"near miss: best {nm.measure.replace('_', ' ')} {score_text(nm.value)} "
            f"with {other} {link(oside, nm.partner)}{why}"
        )
    if res.values:
        out.append(_values(res.values, tuple(res.values)))
    return "; ".join(out)


def _records(result: SampleResult, ref: Ref) -> list[MatchRecord]:
    side, k = ref
    return [m for m in result.matches if k in (m.gt if side == "gt" else m.det)]


def _pcc(result: SampleResult, ref: Ref) -> str:
    ev = result.evidence.pcc_evidence() if result.evidence is not None else None
    if ref[0] != "gt" or ev is None or ref[1] >= len(ev.hits):
        return ""
    hits = ev.hits
    h = list(map(int, hits[ref[1]]))
    if not h:
        return ""
    states = ["missed" if x == 0 else "ok" if x == 1 else f"×{x}" for x in h]
    return f"<p>PCC hits: {' '.join(states)} ({sum(x == 1 for x in h)}/{len(h)} counted)</p>"


def _recognition(session: Session, result: SampleResult, ref: Ref) -> str:
    """End-to-end metrics: the GT text, what its detections read and the characters that
    agree (the LCS)."""
    ev, sample = result.evidence, session.sample()
    steps = ev.recognition_steps() if ev is not None else ()
    if not steps or ref[0] != "gt" or sample is None:
        return ""
    for st in steps:
        if st.gt == ref[1]:
            truth = sample.gt[st.gt].text or ""
            dets = links("det", list(st.dets)) or "none"
            return (
                f"<p>recognition: GT “{html.escape(truth)}”, read “{html.escape(st.text)}” "
                f"by det {dets}; LCS “{html.escape(st.lcs)}” ({st.lcs_len} of {len(truth)} "
                "characters)</p>"
            )
    return ""


def _multiline(result: SampleResult, ref: Ref, limit: object = None) -> str:
    rows = []
    for g in result.evidence.multiline_tests() if result.evidence is not None else ():
        side = "gt" if g.kind == "MO" else "det"
        if side != ref[0] or ref[1] not in (g.gt if side == "gt" else g.det):
            continue
        verdict = "rejected" if g.rejected else "accepted"
        lim = float(limit) if isinstance(limit, int | float) else None
        pairs = ", ".join(
            f"({num(p.a)},{num(p.b)}) {angle_text(g.kind, p.angle, p.passed, lim)}" for p in g.pairs
        )
        rows.append(f"<p>multiline {g.kind} {verdict}: {pairs}</p>")
    return "".join(rows)


def _discarded(result: SampleResult, ref: Ref) -> str:
    """DetEval: the candidates involving this instance that were discarded, and why."""
    if result.evidence is None:
        return ""
    rows = [
        f"<p>{discard_line(c.stage, c.reason)}: GT {links('gt', c.gt)} ↔ det "
        f"{links('det', c.det)}<br>{_values(c.values, tuple(c.values))}</p>"
        for c in result.evidence.discarded_candidates()
        if ref[1] in (c.gt if ref[0] == "gt" else c.det)
    ]
    return "".join(rows)


def describe(session: Session, ref: Ref) -> str:
    """HTML of the selected instance."""
    sample = session.sample()
    if sample is None:
        return ""
    side, k = ref
    insts = sample.gt if side == "gt" else sample.det
    if k >= len(insts):
        return ""
    inst = insts[k]
    other = "det" if side == "gt" else "GT"
    head = f"<h3>{'GT' if side == 'gt' else 'detection'} {num(k)}</h3>"
    facts = [f"line {inst.line}", inst.box_type.value]
    if inst.text is not None:
        facts.append(f"text “{html.escape(inst.text)}”")
    if inst.confidence is not None:
        facts.append(f"confidence {score_text(inst.confidence)}")
    body = [head, f"<p>{', '.join(facts)}</p>"]
    attrs = instance_attributes(inst)
    if attrs:
        shown = ", ".join(f"{html.escape(k)} <b>{html.escape(v)}</b>" for k, v in attrs)
        body.append(f"<p>attributes: {shown}</p>")
    result = session.result()
    if result is not None:
        items = result.gt if side == "gt" else result.det
        if k < len(items):
            text = _instance(items[k], other, result, session.params())
            body.append(f"<p><b>{session.metric}</b>: {text}</p>")
        states = result.evidence.instance_states() if result.evidence else ({}, {})
        state = states[0 if side == "gt" else 1].get(k)
        if state:
            body.append(f"<p><i>{_STATE_TEXT[state]}</i></p>")
        for m in _records(result, ref):
            body.append(
                f"<p>{m.kind.value.replace('_', '-')} {m.label}: GT {links('gt', m.gt)} ↔ "
                f"det {links('det', m.det)}<br>{_values(m.values)}</p>"
            )
        body.append(
            _pcc(result, ref)
            + _multiline(result, ref, getattr(session.params(), "multiline_angle", None))
            + _recognition(session, result, ref)
        )
        body.append(_discarded(result, ref))
    body.append(_compared(session, ref, other))
    body.append(_other_metrics(session, ref, other))
    return "".join(body)


def _compared(session: Session, ref: Ref, other: str) -> str:
    """Both sides of a comparison: the verdict of A and of B for this instance."""
    if session.b is None:
        return ""
    rows = []
    for name, r in (
        (session.names()[0], session.result()),
        (session.names()[1], session.b.result(session.sample_id)),
    ):
        items = () if r is None else (r.gt if ref[0] == "gt" else r.det)
        text = "not evaluated" if ref[1] >= len(items) else _instance(items[ref[1]], other)
        rows.append(f"<p><b>{html.escape(name)}</b>: {text}</p>")
    note = (
        ""
        if ref[0] == "gt"
        else "<p style='color:#777'>(detection indices are each side's own)</p>"
    )
    return "<p><b>A and B</b></p>" + "".join(rows) + note


def _other_metrics(session: Session, ref: Ref, other: str) -> str:
    rows = []
    for mid in session.metric_ids():
        r = session.result(metric=mid)
        if r is None or session.a is None or not session.a.same_view(mid):
            continue  # other instances (e.g. the lines of a line-level metric)
        items = r.gt if ref[0] == "gt" else r.det
        if ref[1] >= len(items):
            continue
        it = items[ref[1]]
        partners = links("det" if other == "det" else "gt", it.partners) or "–"
        mark = " style='background:#fff3c4'" if mid == session.metric else ""
        rows.append(
            f"<tr{mark}><td>{mid}</td><td>{it.verdict.value.replace('_', ' ')}</td>"
            f"<td align=right>{score_text(it.credit)}</td><td>{partners}</td></tr>"
        )
    if not rows:
        return ""
    return (
        f"<p><b>Every metric</b></p><table cellspacing=4><tr><th>metric</th><th>verdict"
        f"</th><th>credit</th><th>{other}</th></tr>{''.join(rows)}</table>"
    )


class InspectorPanel(QTextBrowser):
    """Shows ``describe`` of the session's selection."""

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.setOpenLinks(False)
        self.anchorClicked.connect(self._on_anchor_clicked)
        for signal in (
            session.selection_changed,
            session.results_changed,
            session.metric_changed,
            session.sample_changed,
            session.comparison_changed,
        ):
            signal.connect(lambda *_: self.refresh())
        self.refresh()

    def _on_anchor_clicked(self, url: QUrl) -> None:
        """A partner link: select that instance (the canvas shows it)."""
        side, _, k = url.toString().partition(":")
        if side in ("gt", "det") and k.isdigit():
            self.session.select((side, int(k)))

    def refresh(self) -> None:
        ref = self.session.selection
        if ref is None:
            self.setHtml(
                "<p style='color:#777'>Click a box on the image to see why it scored "
                "what it scored.</p>"
            )
        else:
            self.setHtml(describe(self.session, ref))
