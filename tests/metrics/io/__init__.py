"""Readers and writers (metrics.io)."""
