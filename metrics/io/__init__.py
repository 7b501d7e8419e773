"""Readers (and, later, writers) of GT and detection files."""

from metrics.io.reader import LoadOptions, load_dataset

__all__ = ["LoadOptions", "load_dataset"]
