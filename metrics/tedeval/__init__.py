"""TedEval: character-level scores from pseudo character centres.

``cards.py`` says what the metric is, ``params.py`` declares its parameters (both light),
``specs.py`` (``SPECS``) joins the card to the code that evaluates it.
"""
