"""The ``detlens`` command line (``main``) and its engine subcommands."""

from metrics.cli.main import main

__all__ = ["main"]
