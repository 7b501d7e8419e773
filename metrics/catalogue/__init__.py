"""The metric catalogue: the cards gathered from the families (catalog) and the names resolved
to specs, importing a family's code on first use (registry).
"""
