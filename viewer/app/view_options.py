"""``detlens view``'s options that can be checked before a window exists (Qt-free): each
mistake is one line and exit 2."""

from __future__ import annotations

import argparse
from pathlib import Path

from metrics.catalogue.registry import resolve
from metrics.core.model import InputError
from metrics.io.demo import demo_paths
from viewer.scene.layers import LAYER_KEYS


def parse_size(text: str) -> tuple[int, int]:
    """``WxH`` with positive integers (at least 200 x 150), else InputError."""
    w, sep, h = text.lower().partition("x")
    if not sep or not w.strip().isdigit() or not h.strip().isdigit():
        raise InputError([], f"--size takes WIDTHxHEIGHT, e.g. 1600x900, not {text!r}")
    size = int(w), int(h)
    if size[0] < 200 or size[1] < 150 or max(size) > 16384:
        raise InputError([], f"--size {text}: between 200x150 and 16384x16384 please")
    return size


def parse_select(text: str) -> tuple[str, int]:
    """``gt:N`` or ``det:N`` with N counted from 1 like the lines of the file; returns the
    0-based reference the viewer uses."""
    side, sep, n = text.strip().partition(":")
    side = side.strip().lower()
    if not sep or side not in ("gt", "det") or not n.strip().isdigit() or int(n) < 1:
        raise InputError(
            [], f"--select takes gt:N or det:N (N from 1, as the file's lines), not {text!r}"
        )
    return side, int(n) - 1


SHOT_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp")


def check_options(args: argparse.Namespace) -> None:
    """Everything that can be checked before a window exists (each mistake: one line, exit 2)."""
    parse_size(args.size)
    if args.screenshot:
        _check_shot(args)
    if args.select:
        parse_select(args.select)
        if not args.sample:  # numbers are per image: without it, the first image was used
            raise InputError([], f"--select {args.select} needs --sample ID (the image it is on)")
    for name in (args.metric, args.compare_metric):
        if name:
            try:
                resolve(name)
            except KeyError as exc:
                raise InputError([], exc.args[0]) from None
    if args.layers:
        wanted = {x.strip() for x in args.layers.split(",") if x.strip()}
        unknown = wanted - set(LAYER_KEYS)
        if unknown or not wanted:
            raise InputError(
                [], f"unknown layers {sorted(unknown)}; known: {', '.join(LAYER_KEYS)}"
            )


def _check_shot(args: argparse.Namespace) -> None:
    """``--screenshot``: a PNG/JPEG/BMP name in a folder that exists, never an input (the
    demo's files included)."""
    from metrics.io.atomic import output_problem

    out = str(args.screenshot)
    demo = demo_paths()
    inputs = [args.gt, *args.det, args.images, args.gt_lines, args.state]
    inputs += [str(demo.gt), str(demo.det_b), str(demo.images)]
    problem = output_problem(out, inputs)
    if problem is not None:
        raise InputError([], f"--screenshot {problem}")
    if Path(out).suffix.lower() not in SHOT_SUFFIXES:
        raise InputError(
            [], f"--screenshot {out}: give a file name ending in {', '.join(SHOT_SUFFIXES)}"
        )
