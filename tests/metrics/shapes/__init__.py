"""Tests of ``metrics.shapes``."""
