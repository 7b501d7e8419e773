"""``detlens export``: annotated PNGs of chosen samples, headless, plus a CSV/HTML index."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

from metrics.catalogue.registry import MetricSpec, make_params, parse_sets, resolve
from metrics.cli.commands import Subcommands, positive_int
from metrics.cli.coverage import (
    DEFAULT_METRIC_HELP,
    default_choice,
    detector_names,
    need_gt_lines,
    say_fallback,
    say_skipped,
)
from metrics.cli.format_options import (
    add_policy_option,
    add_set_option,
    add_side_options,
    add_workers_option,
    floats_mode,
    read_sets,
)
from metrics.core.jsonvalue import JSONObject
from metrics.core.model import Dataset, InputError, Sample
from metrics.core.protocols import Params
from metrics.core.results import Evaluation
from metrics.io.demo import demo_paths
from metrics.run.progress import ProgressBar
from metrics.run.runner import Cancelled, run
from viewer.app.interrupts import Interrupts, guarded, headless_qt
from viewer.scene.layers import DEFAULT_LAYERS, LAYER_KEYS

MAX_SIDE_PX = 1600  # viewer.export.render's (not imported here: --help loads no Qt)


def add_export_command(sub: Subcommands) -> None:
    p = sub.add_parser(
        "export",
        help="render annotated images of samples (headless) with a CSV/HTML index",
        description="Render the evidence of a metric on chosen samples to PNG files, through "
        "the viewer's painter, without a window. Two --det put the detectors side by side.",
    )
    add_side_options(p, lines_and_images=True, two_dets=True, box_type=True)
    p.add_argument(
        "--metric",
        help=f"metric id ({DEFAULT_METRIC_HELP})",
    )
    add_set_option(p)
    add_policy_option(p, default="skip_sample")
    add_workers_option(p)
    which = p.add_mutually_exclusive_group()
    which.add_argument("--worst", type=positive_int, help="the N images with the lowest H-mean")
    which.add_argument("--samples", help="comma-separated sample ids")
    p.add_argument("--layers", help=f"comma-separated layers ({', '.join(LAYER_KEYS)})")
    p.add_argument("--out", required=True, help="output folder")
    p.add_argument(
        "--full-size",
        action="store_true",
        help=f"keep every image pixel (default: the long side of each PNG at most "
        f"{MAX_SIDE_PX} px, so its header and labels read at its size)",
    )
    p.add_argument(
        "--allow-next-to-inputs",
        action="store_true",
        help="allow --out to be a folder that holds the inputs",
    )
    p.set_defaults(func=cmd_export)


def _inputs(args: argparse.Namespace) -> tuple[str, list[str], str | None]:
    if args.gt is None:
        if args.det:
            raise InputError([], "--det given without --gt")
        demo = demo_paths()
        return str(demo.gt), [str(demo.det_b)], args.images or str(demo.images)
    return args.gt, list(args.det), args.images


def _check_out(out: Path, inputs: list[str], allowed: bool) -> None:
    if out.exists() and not out.is_dir():
        raise InputError([], f"--out {out} is a file: give a folder (it is created if missing)")
    if allowed:
        return
    target = out.resolve()
    for item in inputs:
        p = Path(item).resolve()
        if target in (p, p.parent):
            raise InputError(
                [],
                f"--out {out} would write next to the input {item}; choose "
                "another folder or pass --allow-next-to-inputs",
            )


def _choose(ds: Dataset, ev: Evaluation[Params], args: argparse.Namespace) -> list[Sample]:
    if args.samples:
        ids = [s.strip() for s in args.samples.split(",") if s.strip()]
        unknown = [s for s in ids if s not in {x.id for x in ds}]
        if unknown:
            raise InputError([], f"unknown sample ids: {', '.join(unknown)}")
        return [ds[s] for s in ids]
    order = sorted(ds, key=lambda s: (ev.results[s.id].hmean if s.id in ev.results else 2.0, s.id))
    return order[: args.worst] if args.worst is not None else order


def _global(ev: Evaluation[Params]) -> tuple[float | None, float | None, float | None]:
    """The global R/P/H of an evaluation, None where it scored nothing."""
    if ev.summary is None:
        return None, None, None
    return ev.recall, ev.precision, ev.hmean


def _abs(path: str) -> str:
    return str(Path(path).resolve())


def cmd_export(args: argparse.Namespace) -> int:
    return guarded(lambda interrupts: _export(args, interrupts))  # Ctrl-C never lost


def _overrides(
    sets: list[str], spec: MetricSpec[Params], floats: str = "as-given"
) -> dict[str, str]:
    try:
        return dict(parse_sets(sets, [spec], floats=floats)[spec.id])
    except ValueError as exc:
        raise InputError([], exc.args[0]) from None


def _export(args: argparse.Namespace, interrupts: Interrupts) -> int:
    if not headless_qt("export needs PySide6"):
        return 2
    from PySide6.QtWidgets import QApplication

    from viewer.export.render import ExportHead, Panel, export_samples

    gt, dets, images = _inputs(args)
    if not 1 <= len(dets) <= 2:
        raise InputError([], "give one or two --det")
    out = Path(args.out)
    lines = [args.gt_lines] if args.gt_lines else []
    inputs = [gt, *dets, *lines] + ([images] if images else [])
    _check_out(out, inputs, args.allow_next_to_inputs)
    named = resolve(args.metric) if args.metric else None
    need_gt_lines([named] if named else [], args.gt_lines)
    if named is not None:
        _overrides(args.set, named)  # a named metric's --set mistakes: before reading
    datasets = read_sets(args, gt, dets, gt_lines=args.gt_lines, images=images)
    spec, own = (named, {}) if named else default_choice(datasets)  # fallbacks as the viewer
    user = _overrides(args.set, spec, floats_mode(args))
    overrides = {**own, **user}
    say_fallback(spec.id, own, user)
    params = make_params(spec, overrides)
    interrupts.check()
    try:
        evals = [
            run(
                ds,
                [spec],
                {spec.id: overrides},
                policy=args.policy,
                workers=args.workers,
                cancel=interrupts.seen,
            )[0]
            for ds in datasets
        ]
    except Cancelled:
        raise KeyboardInterrupt from None
    names = detector_names(dets)
    for note in say_skipped(evals, datasets, names):  # skipped images drawn unevaluated
        print(f"warning: {note}", file=sys.stderr)
    layers = frozenset(x.strip() for x in args.layers.split(",")) if args.layers else DEFAULT_LAYERS
    unknown = set(layers) - set(LAYER_KEYS)
    if unknown:
        raise InputError([], f"unknown layers {sorted(unknown)}; known: {', '.join(LAYER_KEYS)}")
    chosen = _choose(datasets[0], evals[0], args)
    interrupts.check()
    app = QApplication.instance() or QApplication(sys.argv[:1])
    del app
    bar = ProgressBar()

    def progress(done: int, total: int) -> None:
        interrupts.check()
        bar(done, total)

    def panels_of(sample: Sample) -> list[Panel]:
        return [
            Panel(n, spec.id, ev.results.get(sample.id), ds[sample.id], params)
            for n, ev, ds in zip(names, evals, datasets, strict=True)
        ]

    def state_of(sample: Sample) -> JSONObject:
        return {
            "gt": _abs(gt),
            "det": [_abs(d) for d in dets],
            "images": _abs(images) if images else None,
            "metric": spec.id,
            "params": dataclasses.asdict(params),
            "sample": sample.id,
            "layers": sorted(layers),
            "zoom": "fit",
        }

    problems = [*datasets[0].problems, *(p for ev in evals for p in ev.problems)]  # why skipped
    head = ExportHead(
        dataset=_abs(gt),
        metric=spec.id,
        detectors=tuple(
            (n, _abs(d), *_global(ev)) for n, d, ev in zip(names, dets, evals, strict=True)
        ),
        params=", ".join(f"{k}={v}" for k, v in overrides.items()),
    )
    done = export_samples(
        chosen,
        panels_of,
        layers,
        out,
        state_of,
        progress,
        problems,
        inputs,
        head,
        full_size=args.full_size,
    )
    print(f"wrote {len(done)} images and {out / 'index.html'}")
    return 0
