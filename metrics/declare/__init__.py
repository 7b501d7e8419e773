"""What a metric is: its spec (the evaluate function and its options), its card (the texts
users read), its parameters' declarations and what it offers the views. The families build
on these; nothing here computes a score.
"""
