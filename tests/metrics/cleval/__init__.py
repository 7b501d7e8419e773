"""CLEval 0.1.1 and the paper-era code, spec 5."""
