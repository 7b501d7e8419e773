"""Annotated images of samples, rendered headless through the same painter as the window.

``render_sample`` paints one sample whatever the zoom of any window, on a page whose long
side is at most ``MAX_SIDE_PX`` (or at full image resolution, the page scaled up), with a
header (sample id, detector, metric, R/P/H) and the legend of the visible layers burned in;
two results side by side when comparing detectors. ``export_samples`` writes PNGs
atomically, a view-state JSON beside each, and an index (CSV and HTML).
"""

from __future__ import annotations

import csv
import html
import io
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QImage, QPainter

from metrics.core.jsonvalue import JSONObject
from metrics.core.model import Sample
from metrics.core.results import SampleResult
from metrics.io.atomic import atomic_write
from metrics.io.outnames import check_not_inputs, sample_files
from viewer.paint.images import read_image
from viewer.paint.painter import RenderContext, paint_overlay
from viewer.paint.style import SWATCH_H, SWATCH_W, draw_swatch
from viewer.scene.items import bounds, drawn_segments
from viewer.scene.layers import LAYERS
from viewer.scene.overlay import build_overlay
from viewer.scene.palette import LAYER_LEGEND, PALETTE, StyleKey

HEADER_PX = 34
LEGEND_ROW_PX = 20


@dataclass(frozen=True)
class Panel:
    """One side of an exported image: a detector's result on the sample."""

    name: str
    metric: str
    result: SampleResult | None
    sample: Sample | None  # this panel's detections (None: those of the rendered sample)
    params: object  # the metric's parameters: the limits its labels name (None: unknown)


MIN_PANEL_PX = 480  # width of each panel at least: the header's sample, metric and scores


CROP_SHARE = 0.5  # an image whose boxes cover less of it than this is cropped to them
MARGIN_SHARE, MARGIN_MIN = 0.15, 40.0  # the frame's margin around the boxes
SMALL_PX = 480.0  # a frame smaller than this is drawn larger (up to UPSCALE_MAX times)
UPSCALE_MAX = 3.0
# The long side of an exported PNG at most (about a screen): its header, labels and legend
# keep their size in pixels, so a 6,000-pixel image had them tiny (and took seconds);
# ``full_size`` keeps every image pixel and draws the same page at that resolution instead
MAX_SIDE_PX = 1600


def frame_rect(sample: Sample, panels: Sequence[Panel], base: QImage | None) -> QRectF:
    """What an exported panel shows, in image coordinates: the boxes of every panel with a
    margin, within the image; the whole image unless its boxes fill much less than half of
    it (then the words would fill a small corner of a mostly empty picture)."""
    boxes = [bounds(sample), *(bounds(pn.sample) for pn in panels if pn.sample is not None)]
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    pad = max(MARGIN_MIN, MARGIN_SHARE * max(x1 - x0, y1 - y0))
    framed = QRectF(x0 - pad, y0 - pad, x1 - x0 + 2 * pad, y1 - y0 + 2 * pad)
    if base is None or base.isNull():
        return framed
    whole = QRectF(0, 0, base.width(), base.height())
    crop = framed.intersected(whole)
    if (
        crop.isEmpty()
        or crop.width() * crop.height() >= CROP_SHARE * whole.width() * whole.height()
    ):
        return whole
    return crop


def _upscale(frame: QRectF) -> float:
    """Pixels per image pixel: 1, or more for a small frame (a few words cropped)."""
    side = max(frame.width(), frame.height(), 1.0)
    return 1.0 if side >= SMALL_PX else min(UPSCALE_MAX, SMALL_PX / side)


@dataclass(frozen=True)
class PageLayout:
    """An exported page in its own pixels: the image's ``scale`` in it (after ``shrink``,
    what fitting ``MAX_SIDE_PX`` took), the frame's size, each panel's width, the legend's
    height; the page is ``panel_w * panels`` by ``h + HEADER_PX + legend_h``."""

    scale: float
    shrink: float
    w: int
    h: int
    panel_w: int
    legend_h: int

    def full_ratio(self, frame: QRectF) -> float:
        """Output pixels per page pixel that give the frame its own resolution (its width
        in whole pixels, as an unshrunk page has it)."""
        if self.shrink >= 1.0 or self.w <= 0:
            return 1.0
        return int(frame.width() * _upscale(frame)) / self.w


def page_layout(
    frame: QRectF, panels: int, legend: int, *, max_side: int = MAX_SIDE_PX
) -> PageLayout:
    """The layout of a page of ``panels`` panels of ``frame`` and ``legend`` legend entries
    whose long side (header and legend included) is at most ``max_side``."""
    upscale, shrink = _upscale(frame), 1.0
    for _ in range(3):  # the legend's rows depend on the width: settle in a few steps
        scale = upscale * shrink
        w, h = int(frame.width() * scale), int(frame.height() * scale)
        pw = max(w, MIN_PANEL_PX)  # a narrow image is centred: header and legend stay readable
        cols = _legend_columns(pw * panels)
        legend_h = LEGEND_ROW_PX * (-(-legend // cols)) + 8 if legend else 0
        chrome = HEADER_PX + legend_h
        if pw * panels <= max_side and h + chrome <= max_side:
            break
        room_w = max_side / max(frame.width() * upscale * panels, 1.0)
        room_h = (max_side - chrome) / max(frame.height() * upscale, 1.0)
        shrink = min(shrink, room_w, room_h) * 0.999  # int() rounding stays inside
    return PageLayout(scale, shrink, w, h, pw, legend_h)


def _legend_keys(layers: frozenset[str]) -> list[StyleKey]:
    keys = [
        key for layer in LAYERS if layer.key in layers for key in LAYER_LEGEND.get(layer.key, ())
    ]
    return [*keys, StyleKey.GT_NONE, StyleKey.DET_NONE]  # a skipped image's dotted outlines


def render_sample(
    sample: Sample,
    panels: Sequence[Panel],
    layers: frozenset[str],
    problems: Sequence[object] = (),
    *,
    whole: bool = False,
    full_size: bool = False,
) -> QImage:
    """The sample's image with each panel's evidence, side by side, header and legend;
    framed on its boxes (``frame_rect``), or the whole image with ``whole``. The page's
    long side is at most ``MAX_SIDE_PX``, so the header and labels read at its size; with
    ``full_size`` the same page is drawn at the image's own resolution (a device pixel
    ratio: the text, labels and markers grow with it; cosmetic outlines keep their width
    in pixels)."""
    base = read_image(sample.image) if sample.image else None  # a pipe is never opened
    rect = frame_rect(sample, panels, base)
    if whole and base is not None and not base.isNull():
        rect = QRectF(0, 0, base.width(), base.height())
    mine = [pr for pr in problems if getattr(pr, "sample_id", None) == sample.id]
    drawn = [
        build_overlay(pn.sample or sample, pn.result, mine, params=pn.params)  # type: ignore[arg-type]
        for pn in panels
    ]
    used = {
        it.style
        for items in drawn
        for it in items
        if it.layer in layers and (it.shape != "lines" or len(drawn_segments(it.coords)))
    }
    legend = [k for k in _legend_keys(layers) if k in used]
    lay = page_layout(rect, len(panels), len(legend))
    scale, w, h, pw = lay.scale, lay.w, lay.h, lay.panel_w
    ratio = lay.full_ratio(rect) if full_size else 1.0  # output pixels per page pixel
    page_w, page_h = pw * len(panels), h + HEADER_PX + lay.legend_h
    out = QImage(round(page_w * ratio), round(page_h * ratio), QImage.Format.Format_ARGB32)
    out.setDevicePixelRatio(ratio)
    out.fill(QColor("#ffffff"))
    p = QPainter(out)
    p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    font = QFont("DejaVu Sans")
    font.setPixelSize(14)
    visible = (rect.left(), rect.top(), rect.right(), rect.bottom())
    for k, (panel, items) in enumerate(zip(panels, drawn, strict=True)):
        p.save()
        p.translate(k * pw, 0)
        _header(p, sample, panel, pw, font, _skip_reason(mine, panel))
        if pw > w:
            p.fillRect(QRectF(0, HEADER_PX, pw, h), QColor("#2a2a2a"))
        p.translate((pw - w) // 2, HEADER_PX)
        p.setClipRect(QRectF(0, 0, w, h))  # nothing beyond the frame: no label cut mid-word
        p.scale(scale, scale)
        p.translate(-rect.left(), -rect.top())
        p.fillRect(rect, QColor("#3a3a3a"))
        if base is not None and not base.isNull() and "image" in layers:
            p.drawImage(0, 0, base)
        ctx = RenderContext(layers=layers, scale=scale, visible=visible)
        paint_overlay(p, items, ctx)  # labels placed inside ``visible``
        p.restore()
    _legend(p, legend, h + HEADER_PX, page_w, font)
    p.end()
    return out


def _skip_reason(mine: Sequence[object], panel: Panel) -> str:
    """Why a panel's sample was not evaluated: the first error met on it (reading, or the
    metric's own input rules), with its line."""
    if panel.result is not None:
        return ""
    for pr in mine:
        if getattr(getattr(pr, "severity", None), "value", "") == "error":
            line, source = getattr(pr, "line", None), getattr(pr, "source", None)
            name = Path(str(source)).name if source else ""
            where = f"{name}:{line}: " if name and line is not None else f"{name}: " if name else ""
            return f"{where}{getattr(pr, 'message', pr)}"
    return ""


def _header(
    p: QPainter, sample: Sample, panel: Panel, width: int, font: QFont, why: str = ""
) -> None:
    p.fillRect(QRectF(0, 0, width, HEADER_PX), QColor("#1f2937"))
    p.setPen(QColor("#ffffff"))
    p.setFont(font)
    r = panel.result
    if r is None:
        scores = f"not evaluated: {why}" if why else "not evaluated"
    else:
        scores = f"R {r.recall:.3f}  P {r.precision:.3f}  H {r.hmean:.3f}"
    text = f"{sample.id} · {panel.name} · {panel.metric} · {scores}"
    text = QFontMetrics(font).elidedText(text, Qt.TextElideMode.ElideRight, width - 16)
    p.drawText(QRectF(8, 0, width - 16, HEADER_PX), int(Qt.AlignmentFlag.AlignVCenter), text)


LEGEND_COLUMN_PX = 260  # room for most legend labels; a longer one is elided, never cut


def _legend_columns(width: int) -> int:
    return max(1, min(4, width // LEGEND_COLUMN_PX))


def _legend(p: QPainter, keys: list[StyleKey], top: int, width: int, font: QFont) -> None:
    p.setFont(font)
    cols = _legend_columns(width)
    col_w = max(width // cols, 1)
    metrics = QFontMetrics(font)
    for n, key in enumerate(keys):
        st = PALETTE[key]
        x, y = (n % cols) * col_w + 8, top + 4 + (n // cols) * LEGEND_ROW_PX
        tile = QRectF(x - 1, y + 1, SWATCH_W, SWATCH_H)  # as the Layers panel draws it
        p.fillRect(tile, QColor("#6b6b6b"))
        draw_swatch(p, key, tile)
        p.setPen(QColor("#111111"))
        text_x = SWATCH_W + 4
        label = metrics.elidedText(st.label or key, Qt.TextElideMode.ElideRight, col_w - text_x - 8)
        p.drawText(
            QRectF(x + text_x, y, col_w - text_x - 8, LEGEND_ROW_PX),
            int(Qt.AlignmentFlag.AlignVCenter),
            label,
        )


def png_bytes(image: QImage) -> bytes:
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice

    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buf, "PNG"):  # type: ignore[call-overload]  # the stub wants bytes, Qt a str
        raise OSError("cannot encode PNG")
    buf.close()
    return bytes(data.data())


@dataclass(frozen=True)
class ExportHead:
    """What the index pages name: the dataset, the detections, the metric and parameters,
    and each detector's global scores (None where nothing was evaluated)."""

    dataset: str
    metric: str
    detectors: tuple[tuple[str, str, float | None, float | None, float | None], ...] = ()
    params: str = ""  # "name=value, ..." of the parameters that differ from the defaults


@dataclass(frozen=True)
class ExportedSample:
    sample_id: str
    png: Path
    scores: tuple[tuple[str, float | None, float | None, float | None], ...]


def export_samples(
    samples: Sequence[Sample],
    panels_of: Callable[[Sample], list[Panel]],
    layers: frozenset[str],
    out_dir: Path,
    state_of: Callable[[Sample], JSONObject],
    progress: Callable[[int, int], None] | None = None,
    problems: Sequence[object] = (),
    inputs: Sequence[str] = (),
    head: ExportHead | None = None,
    *,
    full_size: bool = False,
) -> list[ExportedSample]:
    """Render and write each sample (PNG + state JSON), then the CSV and HTML index.

    File names come from the sample ids through ``safe_name`` (never outside ``out_dir``),
    and are refused, before anything is written, when one would be an input: ``inputs``,
    the samples' own files and images. Each page's long side is at most ``MAX_SIDE_PX``
    unless ``full_size`` (``render_sample``)."""
    sources = [src for s in samples for src in (s.image, s.gt_source, s.det_source)]
    protected = [*inputs, *sources]
    pngs = sample_files(out_dir, [s.id for s in samples], (".png", ".json"), protected)
    check_not_inputs([out_dir / "index.csv", out_dir / "index.html"], protected)
    done: list[ExportedSample] = []
    for n, sample in enumerate(samples, start=1):
        panels = panels_of(sample)
        png = pngs[sample.id]
        image = render_sample(sample, panels, layers, problems, full_size=full_size)
        atomic_write(png, png_bytes(image))
        state = json.dumps(state_of(sample), indent=1) + "\n"
        atomic_write(png.with_suffix(".json"), state.encode("utf-8"))
        done.append(
            ExportedSample(sample.id, png, tuple((pn.name, *_scores(pn.result)) for pn in panels))
        )
        if progress is not None:
            progress(n, len(samples))
    write_index(out_dir, done, head)
    return done


def _scores(r: SampleResult | None) -> tuple[float | None, float | None, float | None]:
    return (None, None, None) if r is None else (r.recall, r.precision, r.hmean)


def write_index(
    out_dir: Path, items: Sequence[ExportedSample], head: ExportHead | None = None
) -> None:
    buf = io.StringIO()
    w = csv.writer(buf)
    about = [head.metric, head.dataset] if head else []  # every row says what it is of
    w.writerow(
        ["sample", "image", "detector", "recall", "precision", "hmean", "metric", "dataset"][
            : 6 + len(about)
        ]
    )
    rows = []
    for it in items:
        for name, r, p, h in it.scores:
            w.writerow([it.sample_id, it.png.name, name, r, p, h, *about])
        cells = "".join(
            f"<td>{html.escape(name)}</td><td>{_f(r)}</td><td>{_f(p)}</td><td>{_f(h)}</td>"
            for name, r, p, h in it.scores
        )
        rows.append(
            f"<tr><td>{html.escape(it.sample_id)}</td>{cells}<td><a href="
            f"'{html.escape(it.png.name)}'><img src='{html.escape(it.png.name)}' "
            "width=320></a></td></tr>"
        )
    atomic_write(out_dir / "index.csv", buf.getvalue().encode("utf-8"))
    panels = max((len(it.scores) for it in items), default=1)
    title = f"detlens export: {head.metric} on {head.dataset}" if head else "detlens export"
    page = (
        f"<!doctype html><meta charset=utf-8><title>{html.escape(title)}</title>"
        "<style>body{font-family:sans-serif}td{padding:4px;vertical-align:top}</style>"
        + _head_html(head)
        + "<table><tr><th>sample</th>"
        + "<th>detector</th><th>recall</th><th>precision</th><th>H-mean</th>" * panels
        + "<th>image</th></tr>"
        + "".join(rows)
        + "</table>\n"
    )
    atomic_write(out_dir / "index.html", page.encode("utf-8"))


def _head_html(head: ExportHead | None) -> str:
    if head is None:
        return ""
    rows = "".join(
        f"<tr><td>{html.escape(name)}</td><td>{html.escape(path)}</td>"
        f"<td>{_f(r)}</td><td>{_f(p)}</td><td>{_f(h)}</td></tr>"
        for name, path, r, p, h in head.detectors
    )
    params = f"<p>parameters: {html.escape(head.params)}</p>" if head.params else ""
    return (
        f"<h1>{html.escape(head.metric)} on {html.escape(head.dataset)}</h1>{params}"
        "<table><tr><th>detections</th><th>file</th><th>global recall</th>"
        f"<th>global precision</th><th>global H-mean</th></tr>{rows}</table><h2>images</h2>"
    )


def _f(x: float | None) -> str:
    return "–" if x is None else f"{x:.3f}"
