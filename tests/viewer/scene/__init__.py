"""Tests of the Qt-free scene (viewer.scene): they run without PySide6 too."""
