"""The ICDAR txt reader, each file read in one pass.

A set is paired before it is parsed (``plan``). Each file is then read once (``files``):

1. its bytes are decoded once (``metrics.io.archive.decode``: BOM dropped, UTF-8; a file
   with undecodable bytes is decoded line by line, to name each line that has them);
2. a file whose every line is a plain integer QUAD, LTRB or polygon line is taken from that
   text with one regex (``filelines.scan_plain``) and becomes its instances in one array
   (``filelines.plain_quads``, ``plainpoly``), its lines never split;
3. any other file is split into numbered lines once, from the same text; one walk over them
   (``filelines.gt_file`` / ``parse_det_file``) splits each line's fields once
   (``grammar.split_fields``), finds the file's box hint from those splits and each line's
   fields from the same split (``lines``), converts every coordinate in one array, and
   words every mistake as the one-line parser would, at its line.

The detection schema (whether the columns after a box are a confidence, a transcription)
is decided over the whole set (``det_schema``) from the same reading: a plain file's scan,
or the lines and their fields split for it, which reading the file then goes on from. The
patterns and helpers these modules share are public in ``grammar``.
"""
