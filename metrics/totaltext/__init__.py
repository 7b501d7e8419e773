"""The Total-Text dataset's own evaluation scripts: DetEval (tr 0.7 / tp 0.6) and Pascal VOC
(IoU >= 0.5). Spec: ``TOTALTEXT_CTW1500.md``.

``cards.py`` says what each metric is, ``params.py`` declares its parameters (both light),
``specs.py`` (``SPECS``) joins each card to the code that evaluates it.
"""
