"""Tests of ``metrics.io.icdar``."""
