"""Painting with QPainter: draw items, labels and notes, Qt pens and colours from the palette,
bulk polygons, and the images read for the canvas and exports.
"""
