"""TedEval, spec 4."""
