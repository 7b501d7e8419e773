"""CLEval detection and end-to-end, 0.1.1 and the paper-era code.

``cards.py`` says what each metric is, ``params.py`` declares its parameters (both light),
``specs.py`` (``SPECS``) joins each card to the code that evaluates it.
"""
