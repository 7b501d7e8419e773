"""The failure gallery: a grid of crops of instances across the whole dataset, each with its
box and partners in the canvas's styles and its one-line verdict, filtered by verdict class,
by what differs between A and B, by text or attribute and by the table's images, sorted by
credit, size, IoU or ΔH. A click opens the image with the instance selected and zoomed.

Made for 50,000 crops: the list is made, filtered and sorted off the UI thread
(``viewer.gallery.jobs.CropLister``); the view is a ``QListView`` in icon mode with uniform
item sizes, so only the visible cells are asked for; a cell's crop is drawn on a thread
(``CropRenderer``) the first time it is shown, a placeholder until then, and kept in a
bounded cache.
"""

from __future__ import annotations

import re
import time

from PySide6.QtCore import (
    QModelIndex,
    QSize,
    QTimer,
    Signal,
)
from PySide6.QtGui import QHideEvent, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from metrics.analysis.classes import impossible
from metrics.catalogue.registry import METRICS
from viewer.app.session import Session
from viewer.gallery.jobs import CropLister, CropRenderer, Query
from viewer.gallery.model import CELL, CropDelegate, GalleryModel
from viewer.scene.attributes import summary
from viewer.scene.gallery import Crop, SideInput
from viewer.scene.gallery_state import (
    CLASSES,
    COMPARE_CLASSES,
    OWNERS,
    SORTS,
    VERDICT_CLASSES,
    GalleryView,
)
from viewer.scene.row_lists import attributes
from viewer.widgets.flow_layout import FlowLayout

SHOW_DELAY_MS = 120
LAYOUT_BATCH = 2000  # cells laid out per turn of the event loop (about 35 ms)
_ASKS = {"partial": "tightness"}  # the attribution class a verdict class is lost to
SHORT = {
    "a_only": "GT found by A only",
    "b_only": "GT found by B only",
    "fp_b_only": "false positive of B only",
    "fp_a_only": "false positive of A only",
}


def _named(text: str, names: list[str]) -> str:
    """A class title with the sides' names for A and B."""
    return re.sub(r"\b[AB]\b", lambda m: names[m.group() == "B"], text)


class GalleryPanel(QWidget):
    """Filters, sort and the grid; ``opened((ref, owner))`` after a click opened an
    instance (``owner``: 0 for A's crop, 1 for B's)."""

    opened = Signal(object)

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.lister = CropLister()
        self.lister.listed.connect(self._on_listed)
        self.renderer = CropRenderer()
        self.model = GalleryModel(self.renderer, self)
        self.view = QListView()
        self.view.setViewMode(QListView.ViewMode.IconMode)
        self.view.setMovement(QListView.Movement.Static)
        self.view.setResizeMode(QListView.ResizeMode.Adjust)
        self.view.setUniformItemSizes(True)
        self.view.setLayoutMode(QListView.LayoutMode.Batched)  # 50,000 cells: 250 ms at once
        self.view.setBatchSize(LAYOUT_BATCH)
        self.view.setGridSize(CELL)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.view.verticalScrollBar().setSingleStep(CELL.height() // 3)
        self.view.setModel(self.model)
        self.view.setItemDelegate(CropDelegate(self.model, self.view))
        self.view.clicked.connect(self._on_view_clicked)
        self.view.activated.connect(self._on_view_clicked)
        self._repaint = QTimer(self, singleShot=True, interval=30)  # drawn crops, together
        self._repaint.timeout.connect(self.view.viewport().update)
        self.model.image_ready.connect(lambda: self._repaint.isActive() or self._repaint.start())
        self.boxes: dict[str, QCheckBox] = {}
        self.status = QLabel("Gallery: open a dataset")
        self.lister.failed.connect(self.status.setText)
        self.text = QLineEdit(placeholderText="sample id, text or attribute=value")
        self.table_only = QCheckBox("images in the table only")
        self.table_only.setToolTip("only the images the sample table shows (its filters)")
        self.sort = QComboBox()
        for key, title in SORTS.items():
            self.sort.addItem(title, key)
        self.owners = QComboBox()
        self.owners.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.owners.setToolTip("whose crops: both sides', A's or B's")
        self._layout()
        self._filter_timer = QTimer(self, singleShot=True, interval=150)  # while typing
        self._filter_timer.timeout.connect(self.refresh)
        self.text.textChanged.connect(lambda _: self._filter_timer.start())
        self.table_only.toggled.connect(lambda _: self.refresh())
        self.sort.currentIndexChanged.connect(lambda _: self.refresh())
        self.owners.currentIndexChanged.connect(lambda _: self.refresh())
        for signal in (session.results_changed, session.comparison_changed):
            signal.connect(self.refresh)
        session.metric_changed.connect(lambda _: self.refresh())
        session.dataset_changed.connect(self._on_session_dataset_changed)
        session.visible_changed.connect(self._on_session_visible_changed)
        self._asked: tuple[tuple[object, ...], Query] | None = None
        self._delayed = QTimer(self, singleShot=True, interval=SHOW_DELAY_MS)
        self._delayed.timeout.connect(self.refresh)
        self._gen = self._shown = 0  # the list asked for last, and the one shown
        self._inputs: list[SideInput] = []
        self.boxes["missed"].setChecked(True)

    def _layout(self) -> None:
        rows = [FlowLayout(), FlowLayout()]  # verdicts; what differs between A and B
        for cls in (*VERDICT_CLASSES, *COMPARE_CLASSES):
            box = QCheckBox(CLASSES[cls])
            box.toggled.connect(lambda _: self.refresh())
            self.boxes[cls] = box
            rows[cls in COMPARE_CLASSES].addWidget(box)
        self.compare_row = [self.boxes[c] for c in COMPARE_CLASSES]
        self.sort.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.sort.setMinimumContentsLength(14)
        bottom = QHBoxLayout()
        bottom.addWidget(self.text, 2)
        bottom.addWidget(self.table_only)
        bottom.addWidget(self.owners)  # here: the comparison classes fit on one line
        bottom.addWidget(QLabel("sort by"))
        bottom.addWidget(self.sort)
        bottom.addWidget(self.status, 3)
        self.status.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        layout = QVBoxLayout(self)
        for row in rows:
            layout.addLayout(row)
        layout.addLayout(bottom)
        layout.addWidget(self.view, 1)

    # ------------------------------------------------------------------ what is shown
    def query(self) -> Query:
        s = self.session
        images = frozenset(s.visible_ids) if self.table_only.isChecked() else None
        owners = self.owners.currentData() if s.comparing() else None
        return Query(
            frozenset(k for k, b in self.boxes.items() if b.isChecked() and b.isEnabled()),
            self.text.text(),
            tuple(owners) if owners else (0, 1),
            images,
            str(self.sort.currentData()),
        )

    def _inputs_now(self) -> tuple[tuple[object, ...], list[SideInput], bool] | None:
        """The sides' datasets and evaluations of the shown metric (None while they run)."""
        s, a, b = self.session, self.session.a, self.session.b
        ev_a = None if a is None else a.evaluation()
        if a is None or ev_a is None:
            return None
        sides = [SideInput(a.dataset, ev_a, METRICS[ev_a.metric].view)]
        if b is not None:
            ev_b = b.evaluation()
            if ev_b is None:
                return None
            sides.append(SideInput(b.dataset, ev_b, METRICS[ev_b.metric].view))
        key = tuple(id(x) for p in sides for x in (p.dataset, p.evaluation))
        return (*key, s.compare_mode()), sides, s.compare_mode() != "metrics"

    def view_state(self) -> GalleryView:
        """The filters and sort as a view state keeps them."""
        return GalleryView(
            shown=self.isVisible(),
            classes=tuple(k for k, b in self.boxes.items() if b.isChecked()),
            text=self.text.text(),
            table_only=self.table_only.isChecked(),
            owners=OWNERS[max(self._owners_index, 0)],
            sort=str(self.sort.currentData()),
        )

    def restore(self, view: GalleryView) -> None:
        """The filters and sort of a view state (``detlens view --state``)."""
        for key, box in self.boxes.items():
            box.setChecked(key in view.classes)
        self.text.setText(view.text)
        self.table_only.setChecked(view.table_only)
        self.sort.setCurrentIndex(max(self.sort.findData(view.sort), 0))
        self._owners_index = OWNERS.index(view.owners)
        if self.owners.count() == len(OWNERS):
            self.owners.setCurrentIndex(self._owners_index)
        self.session.gallery_view = self.view_state()

    def refresh(self) -> None:
        """Ask for the crops of the current filters (off the UI thread), when shown."""
        if self.owners.count() == len(OWNERS):
            self._owners_index = self.owners.currentIndex()
        self.session.gallery_view = self.view_state()
        if not self.isVisible():
            return
        self._update_boxes()
        now = self._inputs_now()
        if now is None:
            self.status.setText(f"waiting for {self.session.metric or 'the'} results…")
            return
        key, sides, detectors = now
        q = self.query()
        if (key, q) == self._asked:
            return
        self._asked = (key, q)
        if key != self._inputs_key:  # the same list object: the drawn crops stay valid
            self._inputs, self._inputs_key = sides, key
        self._gen = self.lister.ask(key, self._inputs, detectors, q)
        self.status.setText("listing the crops…")

    _inputs_key: tuple[object, ...] = ()
    _owners_index = 0  # A and B, A, B: kept while the choice is not shown

    def _on_listed(self, gen: int, crops: list[Crop], made: int) -> None:
        if gen != self._gen:
            return
        self._shown = gen
        names = self.session.names() if self.session.comparing() else []
        self.model.set_crops(crops, self._inputs, names)
        q = self._asked[1] if self._asked else Query()
        order = sorted(q.classes, key=list(CLASSES).index)
        what = ", ".join(_named(CLASSES[c], self.session.names()) for c in order)
        self.status.setText(f"{len(crops):,} of {made:,} crops ({what or 'every class'})")
        self.status.setToolTip(self.status.text())  # the line may be cut

    def _update_boxes(self) -> None:
        """Comparison classes while comparing; classes no shown metric can have greyed."""
        s = self.session
        on = s.comparing()
        for box in self.compare_row:
            box.setVisible(on)
        self.owners.setVisible(on)
        names = s.names()
        for cls, box in zip(COMPARE_CLASSES, self.compare_row, strict=True):
            box.setText(_named(SHORT[cls], names))
            box.setToolTip(_named(CLASSES[cls], names))
        titles = [f"{names[0]} and {names[1]}", names[0], names[1]]
        if on and [self.owners.itemText(k) for k in range(self.owners.count())] != titles:
            self.owners.blockSignals(True)
            self.owners.clear()
            for title, owners in zip(titles, ((0, 1), (0,), (1,)), strict=True):
                self.owners.addItem(title, owners)
            self.owners.setCurrentIndex(self._owners_index)  # a view state's choice
            self.owners.blockSignals(False)
        metrics = [x.metric for x in s.sides if x is not None and x.metric]
        for cls in VERDICT_CLASSES:
            why = [impossible(m, _ASKS.get(cls, cls)) for m in metrics]
            box = self.boxes[cls]
            box.setEnabled(not metrics or not all(why))
            box.setToolTip(why[0] if metrics and all(why) else CLASSES[cls])

    def sizeHint(self) -> QSize:
        """Two rows of crops under the filters (a dock's first height)."""
        return QSize(900, self.view.y() + 2 * CELL.height() + 40 if self.view.y() else 420)

    def _on_session_visible_changed(self, _: object) -> None:
        if self.table_only.isChecked():
            self.refresh()

    def showEvent(self, event: QShowEvent) -> None:
        """The list is asked for once the window has laid out and painted the dock: the
        thread making it, started at once, slowed that paint from 47 to 141 ms."""
        super().showEvent(event)
        self._delayed.start()

    def hideEvent(self, event: QHideEvent) -> None:
        super().hideEvent(event)
        self.session.gallery_view = self.view_state()

    def _on_session_dataset_changed(self) -> None:
        tip = summary(attributes(self.session.dataset))  # kept per dataset
        self.text.setToolTip(
            "Part of a sample id or of the text, or attribute=value"
            + (f"; attributes here:\n{tip}" if tip else " (this dataset has none)")
        )
        self.refresh()

    def settle(self, timeout_s: float = 60.0) -> bool:
        """Until the crop list asked for is shown and its visible crops are drawn (tests,
        screenshots); False on timeout."""
        end = time.monotonic() + timeout_s
        while self._delayed.isActive() and time.monotonic() < end:
            QApplication.processEvents()  # the list asked for after the dock is painted
            time.sleep(0.005)
        self.lister.wait(timeout_s)
        QApplication.processEvents()  # the list's signal
        if self._gen != self._shown:
            return False
        last = self.model.index(self.model.rowCount() - 1)
        while last.isValid() and not self.view.visualRect(last).isValid():
            QApplication.processEvents()  # the cells laid out, a batch per turn
            if time.monotonic() > end:
                return False
        self.view.viewport().grab()  # paints the visible cells: asks for their crops
        while not self.renderer.idle() and time.monotonic() < end:
            QApplication.processEvents()  # the window stays live meanwhile
            time.sleep(0.002)
        QApplication.processEvents()  # the drawn crops into the cache
        self.view.viewport().update()
        return self.renderer.idle()

    # ------------------------------------------------------------------ opening
    def _on_view_clicked(self, index: QModelIndex) -> None:
        if not index.isValid():
            return
        c = self.model.crops[index.row()]
        self.session.set_sample(c.sample)
        self.session.select((c.side, c.index))
        self.opened.emit(((c.side, c.index), c.owner))
