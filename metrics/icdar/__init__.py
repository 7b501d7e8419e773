"""The ICDAR IoU family: ICDAR 2015 IoU, SIoU/TIoU, their curved variants, word + text-line.

``cards.py`` says what each metric is, ``params.py`` declares its parameters (both light),
``specs.py`` (``SPECS``) joins each card to the code that evaluates it. This module imports
nothing, so reading the cards imports none of the family's metric code.
"""
