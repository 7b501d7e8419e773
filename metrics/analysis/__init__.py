"""Analysis over the engine's results: confidence sweeps, error attribution (oracle fixes),
paired bootstrap, recall by GT attribute, and the per-instance export.

Qt-free, like the rest of ``metrics``. Every number here comes from the same metric
implementations as ``detlens eval``: a sweep value equals the evaluation of the detections
filtered at that threshold, an attribution gain is the evaluation of the fixed detections,
and a bootstrap resample is a sum of per-image tallies.
"""
