"""HierText detection PQ at word, line and paragraph level. The metrics apply to datasets
read from HierText JSON (samples with a ``Hierarchy``).

``cards.py`` says what each metric is, ``params.py`` declares its parameters (both light),
``specs.py`` (``SPECS``) joins each card to the code that evaluates it.
"""
