"""Running metrics over a dataset: the one loop (``runner``), worker processes (``pool``),
workers that read their own slices of an ICDAR set (``sharded``), a failing metric turned
into a located problem (``guard``) and the command lines' progress bar (``progress``).
"""
