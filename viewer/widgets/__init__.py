"""Widgets: each one gets the session, listens to its signals and calls its methods.

They never import each other or the main window (import-linter contract); ``main_window``
wires them.
"""
