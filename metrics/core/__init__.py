"""What every part of the engine shares: the data model (instances, samples, datasets,
problems), the result model (verdicts, match records, results, evaluations, tallies), the
evidence base (regions as coordinates, pair tables, sparse pair values), array helpers and
the rules for non-integer coordinates. Imports no metric family and no geometry engine.
"""
