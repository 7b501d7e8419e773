"""The Analysis plots (pyqtgraph), shared by the viewer's Analysis panel and ``detlens
report``: one drawing code for both, from the engine's analysis data (``metrics.analysis``)."""
