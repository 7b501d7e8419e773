"""ICDAR 2013 DetEval (one-to-one, split, merge).

``cards.py`` says what the metric is, ``params.py`` declares its parameters (both light),
``specs.py`` (``SPECS``) joins the card to the code that evaluates it.
"""
