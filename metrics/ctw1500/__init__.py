"""SCUT-CTW1500's own evaluation (VOC-style polygon IoU, AP).

``cards.py`` says what the metric is, ``params.py`` declares its parameters (both light),
``specs.py`` (``SPECS``) joins the card to the code that evaluates it.
"""
