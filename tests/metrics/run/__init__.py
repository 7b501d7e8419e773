"""Tests of ``metrics.run``."""
