"""What a command that evaluates (``compare``, ``export``, ``report``) says about what it
could not evaluate: a metric that needs the text-line GT without ``--gt-lines`` is an option
mistake, and images a metric skipped (``policy="skip_sample"``) are named with the first
reason, or refuse the command when none is left; never a silent empty result."""

from __future__ import annotations

import sys
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path

from metrics.catalogue.registry import PREFERRED, MetricSpec, default_metric
from metrics.core.model import Dataset, InputError, Severity
from metrics.core.protocols import Params
from metrics.core.results import Evaluation

GT_LINES_HELP = "text-line GT (wordline_* metrics), any GT format"
DEFAULT_METRIC_HELP = (  # compare, export, report without --metric (``default_choice``)
    f"default: the first that applies of {', '.join(PREFERRED)}: TIoU on quads, curved "
    "TIoU on polygons"
)


def detector_names(paths: Sequence[str]) -> list[str]:
    """Display names of detection inputs: the file name without ``.zip``, a prime added to
    a name already taken (``run1/det.zip`` and ``run2/det.zip`` show as ``det``, ``det'``)."""
    names: list[str] = []
    for path in paths:
        name = Path(path).name.removesuffix(".zip") or path
        while name in names:
            name += "'"
        names.append(name)
    return names


def need_gt_lines(specs: Sequence[MetricSpec[Params]], gt_lines: str | None) -> None:
    """A metric scored on text lines without them: one line, exit 2 (as ``eval``)."""
    for s in specs:
        if s.needs_gt_lines and gt_lines is None:
            raise InputError([], f"{s.id} needs the text-line GT: add --gt-lines PATH")


def skipped_note(ev: Evaluation[Params], ds: Dataset, name: str) -> str | None:
    """The line saying which images ``ev`` skipped: 'METRIC on NAME: K of N images skipped;
    first: FILE:LINE: why' (None when it skipped none)."""
    if not ev.excluded:
        return None
    first = next((p for p in ev.problems if p.severity is Severity.ERROR), None)
    why = f"; first: {first}" if first is not None else ""
    return f"{ev.metric} on {name}: {len(ev.excluded)} of {len(ds)} images skipped{why}"


def say_skipped(
    evals: Sequence[Evaluation[Params]], datasets: Sequence[Dataset], names: Sequence[str]
) -> list[str]:
    """The skipped-images notes of each evaluation; refuses (``InputError``) when a metric
    evaluated no image of a set."""
    notes = []
    for ev, ds, name in zip(evals, datasets, names, strict=True):
        note = skipped_note(ev, ds, name)
        if note is None:
            continue
        if len(ev.excluded) >= len(ds):
            raise InputError([], f"nothing evaluated: {note}")
        notes.append(note)
    return notes


def default_choice(
    datasets: Sequence[Dataset],
) -> tuple[MetricSpec[Params], dict[str, object]]:
    """The metric a command runs when none is named (``registry.default_metric``: TIoU on
    quads, curved TIoU on polygons), with the fallback values the viewer and ``eval
    --metric all`` switch on where its defaults refuse the data (polygons in the ICDAR
    clockwise order, which the curved script refuses: ``auto_orient=true``), the same for
    every side."""
    from metrics.run.runner import plan_all

    spec = default_metric(datasets[0])
    if spec is None:
        raise InputError([], "no metric applies to this dataset (see detlens check)")
    merged: dict[str, object] = {}
    for ds in datasets:
        merged.update(plan_all(ds, [spec]).overrides.get(spec.id, {}))
    return spec, merged


def fallback_words(values: Mapping[str, object]) -> str:
    """What a command says of the fallback values switched on for a metric whose defaults
    refuse the data (``default_choice``, ``runner.plan_all``), as ``eval`` and the viewer
    say it: 'evaluated with auto_orient=true: its defaults refuse these inputs'; "" for
    none."""
    if not values:
        return ""
    sets = ", ".join(f"{k}={v}" for k, v in values.items())
    return f"evaluated with {sets}: its defaults refuse these inputs"


def say_fallback(metric: str, values: Mapping[str, object], given: Collection[str]) -> str:
    """Warn on stderr of the fallback ``values`` switched on for ``metric`` but those the
    user ``given`` with ``--set`` (``export`` and ``report``, as ``eval`` and ``gallery``
    warn of it); the words said, "" for none (``fallback_words``)."""
    said = fallback_words({k: v for k, v in values.items() if k not in given})
    if said:
        print(f"warning: {metric}: {said}", file=sys.stderr)
    return said
