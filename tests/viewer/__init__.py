"""Tests of the PySide6 viewer (skipped when PySide6 is not installed)."""
