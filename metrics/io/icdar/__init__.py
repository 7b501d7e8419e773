"""The ICDAR txt reader: one text line's grammar (``lines``), a whole file at once
(``filelines``, ``plainpoly``), the detection schema of a set (``det_schema``), one side's
files (``files``) and a set paired before it is parsed (``plan``).
"""
