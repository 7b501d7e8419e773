"""DetEval (ICDAR 2013), spec 2."""
