"""Qt-free scene: what the viewer draws and lists, built from the engine's results (no PySide6).

The import-linter contract in ``pyproject.toml`` keeps PySide6 out of this package, so the
overlay, the palette, the table rows and the view state can be tested and reused headless.
"""
