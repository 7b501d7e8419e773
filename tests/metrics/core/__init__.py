"""Tests of ``metrics.core``."""
