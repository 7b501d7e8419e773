"""Exports: annotated images (``render``), the window's File › Export (``window``) and the
``detlens export`` command (``cli``). Importing the package loads no Qt.
"""
