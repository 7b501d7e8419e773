"""Geometry the metric families share, one copy of each rule: polygons and candidate pairs
on shapely (``geometry``), the numpy quad clipper (``quads``), overlay operations that never
raise (``robust``), rings stacked by vertex count (``ringstack``), the shared matching rules
(``matching``), detection order and the clockwise test (``order``), and the geometry cache
of one run (``cache``).
"""
