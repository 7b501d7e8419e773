"""Tests of ``metrics.io.formats``."""
