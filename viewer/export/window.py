"""File › Export view / Export image for the main window, and the view-state file beside each.

Export view: what the canvases show (PNG at 1x or 2x, or SVG). Export image: the whole image
at full resolution whatever the zoom, with header and legend (``viewer.export.render``); both
detectors side by side when comparing. A JSON with the view state is written beside every
exported file; ``detlens view --state FILE`` restores it.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from PySide6.QtCore import QPoint, QRect, QSize
from PySide6.QtGui import QImage, QPainter
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QWidget

from metrics.core.jsonvalue import JSONObject
from metrics.io.atomic import atomic_write
from viewer.app.session import Session
from viewer.export.render import Panel, png_bytes, render_sample
from viewer.scene.view_state import ViewState, absolute, state_json


def session_state(session: Session, zoom: float | None = None) -> ViewState:
    """Dataset paths, sample, metric and parameters, layers, comparison, zoom and the
    gallery's filters."""
    p = session.paths
    b = session.b
    mode = session.compare_mode()
    dets = [d for d in (p.det if p else None, b.det if b and mode == "detectors" else None) if d]
    params = session.params()
    return ViewState(
        gt=absolute(p.gt) if p else None,
        det=tuple(absolute(d) for d in dets),
        images=absolute(p.images) if p and p.images else None,
        gt_lines=p.gt_lines if p else None,
        metric=session.metric,
        compare_metric=b.metric if b and mode == "metrics" else None,
        names=tuple(session.names()) if session.comparing() else None,
        params=dataclasses.asdict(params) if params is not None else {},
        sample=session.sample_id,
        layers=tuple(session.layers),
        zoom=zoom,
        select=(
            f"{session.selection[0]}:{session.selection[1] + 1}" if session.selection else None
        ),
        score_threshold=session.score_threshold,
        gallery=session.gallery_view,
    )


def view_state(session: Session, zoom: float | None = None) -> JSONObject:
    """The state as written to the JSON file."""
    return session_state(session, zoom).to_json()


def write_state(path: Path, session: Session, zoom: float | None = None) -> Path:
    target = path.with_suffix(".json")
    atomic_write(target, state_json(session_state(session, zoom)))
    return target


def export_view(
    widget: QWidget, path: Path, session: Session, scale: float = 1.0, zoom: float | None = None
) -> Path:
    """What ``widget`` shows: PNG at ``scale`` (1 or 2) or SVG (by the file suffix)."""
    size = widget.size()
    if path.suffix.lower() == ".svg":
        gen = QSvgGenerator()
        gen.setFileName(str(path))
        gen.setSize(size)
        gen.setViewBox(QRect(0, 0, size.width(), size.height()))
        gen.setTitle(f"detlens {session.sample_id} {session.metric}")
        painter = QPainter(gen)
        widget.render(painter, QPoint())
        painter.end()
    else:
        image = QImage(
            QSize(int(size.width() * scale), int(size.height() * scale)),
            QImage.Format.Format_ARGB32,
        )
        image.fill(0)
        painter = QPainter(image)
        painter.scale(scale, scale)
        widget.render(painter, QPoint())
        painter.end()
        atomic_write(path, png_bytes(image))
    write_state(path, session, zoom)
    return path


def export_image(path: Path, session: Session) -> Path:
    """The current sample at full resolution with header and legend (A and B side by side)."""
    sample = session.sample()
    if sample is None:
        raise ValueError("no sample to export")
    names = session.names()
    panels = [
        Panel(
            names[0]
            if session.comparing()
            else (Path(session.paths.det).name if session.paths and session.paths.det else "GT"),
            session.metric or "",
            session.result(),
            sample,
            session.params(),
        )
    ]
    b, sid = session.b, session.sample_id
    if b is not None:
        params = b.params(b.metric) if b.metric else None
        panels.append(Panel(names[1], b.metric or "", b.result(sid), b.sample(sid), params))
    image = render_sample(
        sample, panels, session.layers, session.problems(), whole=True, full_size=True
    )
    atomic_write(path, png_bytes(image))
    write_state(path, session)
    return path
