"""MMOCR's ``HmeanIOUMetric``: ``mmocr_hmean_iou`` (strategy vanilla, MMOCR's default) and
``mmocr_hmean_iou_maxmatch`` (strategy max_matching). Both sweep the detection-score
threshold and report the best hmean of the sweep; they are offered by ``--metric all`` only
when every detection carries a confidence.

``cards.py`` says what each metric is, ``params.py`` declares its parameters (both light),
``specs.py`` (``SPECS``) joins each card to the code that evaluates it.
"""
