"""FittingView: a graphics view that fits a part of its scene, zooms, and mirrors another.

The canvas (``viewer.widgets.canvas``) says what to fit (``fit_target``); this class shows it
whole, below the notes over the view's top, without scrollbars while fitted (the geometry is
``viewer.scene.framing``), keeps it fitted through resizes until the user zooms, and tells a
mirrored view each zoom and pan (``view_changed``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtCore import QRectF, Qt, Signal
from PySide6.QtGui import QResizeEvent, QTransform, QWheelEvent
from PySide6.QtWidgets import QGraphicsView, QStyle, QWidget

from viewer.scene.framing import Fit, Rect, fit_view, union, zoom_view

View = tuple[float, float, float, bool]  # scale, centre x, centre y, fitted


class FittingView(QGraphicsView):
    """A view with a fit that survives resizes, a clamped zoom and a mirror of its view."""

    zoom_changed = Signal(float)
    view_changed = Signal(object)  # a ``View`` after a fit, zoom or pan

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._syncing = False
        self._fitted = False  # the last zoom was a fit (kept on resize)
        self._shown: Rect | None = None  # the scene area the last fit showed
        self.horizontalScrollBar().valueChanged.connect(lambda _: self._emit_view())
        self.verticalScrollBar().valueChanged.connect(lambda _: self._emit_view())

    # ------------------------------------------------------------------ what to fit
    def fit_target(self) -> tuple[Rect, Rect, int]:
        """(the scene's content, the part a fit shows, the pixels the notes cover at the
        top); the canvas says."""
        raise NotImplementedError

    def forget_fit(self) -> None:
        """A new dataset: the last fit's area no longer widens the scene."""
        self._shown = None

    def update_scene_rect(self) -> None:
        """The content, and all that the last fit showed (so the view can centre on the
        fitted part wherever it lies in the content)."""
        x0, y0, x1, y1 = self._scene_area(self.fit_target()[0])
        self.scene().setSceneRect(QRectF(x0, y0, x1 - x0, y1 - y0))

    def _scene_area(self, content: Rect) -> Rect:
        return content if self._shown is None else union(content, self._shown)

    # ------------------------------------------------------------------ fitting
    def fit(self) -> None:
        """Show the target part whole, centred below the notes; stays so on resize."""
        with self._quiet():  # one view_changed at the end, saying it is a fit
            self._set_fitted(True)
            content, part, top = self.fit_target()
            vp = self.viewport().rect()
            self._show(fit_view(part, vp.width(), vp.height(), top=top), content)
        self.zoom_changed.emit(self.transform().m11())
        self._emit_view(fitted=True)

    def _show(self, view: Fit, content: Rect) -> None:
        """Apply a computed view: the scene widened to what it shows, its scale, its centre."""
        self._shown = view.shown
        x0, y0, x1, y1 = self._scene_area(content)
        self.scene().setSceneRect(QRectF(x0, y0, x1 - x0, y1 - y0))
        self.setTransform(QTransform.fromScale(view.scale, view.scale))
        self.centerOn(*view.centre)

    def is_fitted(self) -> bool:
        return self._fitted

    def _set_fitted(self, fitted: bool) -> None:
        """Fitted, the view shows all there is to see: no scrollbars (they took room from
        the fit and scrolled nowhere useful); zoomed, they say where the view is."""
        self._fitted = fitted
        off, needed = Qt.ScrollBarPolicy.ScrollBarAlwaysOff, Qt.ScrollBarPolicy.ScrollBarAsNeeded
        self.setHorizontalScrollBarPolicy(off if fitted else needed)
        self.setVerticalScrollBarPolicy(off if fitted else needed)

    def resizeEvent(self, event: QResizeEvent) -> None:
        if not self._fitted:
            super().resizeEvent(event)
            return
        with self._quiet():  # the scrollbars Qt moves on the way are no pan
            super().resizeEvent(event)
        self.fit()

    @contextmanager
    def _quiet(self) -> Iterator[None]:
        """No view_changed while the view is being set (a fit, a mirror, a resize)."""
        was, self._syncing = self._syncing, True
        try:
            yield
        finally:
            self._syncing = was

    # ------------------------------------------------------------------ zooming
    def actual_size(self) -> None:
        self._set_fitted(False)
        self.resetTransform()
        self.zoom_changed.emit(1.0)
        self._emit_view()

    def zoom(self, factor: float) -> None:
        self._set_fitted(False)
        current = self.transform().m11()
        factor = min(max(factor, 0.02 / current), 64.0 / current)
        self.scale(factor, factor)
        self.zoom_changed.emit(self.transform().m11())
        self._emit_view()

    def zoom_to(self, box: Rect) -> None:
        """``box`` in view below the notes, with its neighbours around it (a margin of half
        its size); never zooms out further than it takes to show ``box`` whole
        (``viewer.scene.framing.zoom_view``). The scene widens to what the view shows, so a
        box at the content's edge is centred rather than pushed back into the content."""
        bars_hidden = self._fitted  # zoomed, the scrollbars appear and take their room
        self._set_fitted(False)
        content, _, top = self.fit_target()
        vp = self.viewport().rect()
        bar = self.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent) if bars_hidden else 0
        width, height = vp.width() - bar, vp.height() - bar
        view = zoom_view(box, width, height, top=top, current=self.transform().m11())
        with self._quiet():
            self._show(view, content)
        self.zoom_changed.emit(self.transform().m11())
        self._emit_view()

    def wheelEvent(self, event: QWheelEvent) -> None:
        steps = event.angleDelta().y() / 120.0
        if steps:
            self.zoom(1.2**steps)
        event.accept()

    # ------------------------------------------------------------------ mirroring
    def _emit_view(self, *, fitted: bool = False) -> None:
        """Tell the mirror: a fit as a fit (it fits its own size), a pan or zoom as it is."""
        if not self._syncing:
            c = self.mapToScene(self.viewport().rect().center())
            self.view_changed.emit((self.transform().m11(), c.x(), c.y(), fitted))

    def set_view(self, view: View) -> None:
        """Mirror another view (no echo): a fit is a fit here too (for this view's size, so
        both stay fitted through a resize); a zoom or pan is taken as it is."""
        scale, x, y, fitted = view
        with self._quiet():
            if fitted:
                self.fit()
                return
            self._set_fitted(False)
            current = self.transform().m11()
            if abs(current - scale) > 1e-9:
                self.scale(scale / current, scale / current)
            self.centerOn(x, y)
