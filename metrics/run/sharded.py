"""``--workers N`` with the reading in the workers: each process reads, checks and evaluates
its own slices of an ICDAR txt set, and sends back counts, problems and tallies.

``runner.run`` with workers evaluates a dataset the calling process has read: reading and
checking stay on one core and every per-instance result crosses back pickled, so two
workers gained little. Here the calling process only pairs the files (``plan_icdar``) and
finds the detection schema (its files shared out too); then every slice of pairs is read
(``read_pairs``), its geometry checked, validated and evaluated where it lands
(``metrics.run.pool``: the caller takes slices from the front, workers from the back). A slice
sends back what the command line's summary needs: the facts of its samples (counts, box
types), its problems, and per metric each sample's tally (and, for a metric with
``global_extras``, the sample's result without its per-instance lists, and without its
evidence where ``global_extras`` does not read it); with ``results``
(``--json``, ``--csv``) every sample's whole result, pickled.

The outcome is what ``load_dataset`` + ``runner.run`` give for the same inputs: the same
problems in the same order, the same excluded samples, the same summaries (tallies added in
sample order) and extras, and with ``results`` the same per-sample results; the strict
policy refuses the same input errors. Without ``results`` the evaluations carry no
per-sample results (``Evaluation.results`` is empty). What needs the samples themselves
(the analyses, the viewer) takes the dataset path. Only metrics whose validation splits
over samples (``MetricSpec.shardable``, no ``finalize``) are evaluated this way.
"""

from __future__ import annotations

import functools
import operator
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Literal, TypeVar

import metrics.run.pool as pool
from metrics.catalogue.registry import METRICS, make_params
from metrics.core.model import Facts, InputError, Problem, Severity, facts_of
from metrics.core.protocols import Params
from metrics.core.records import dataclass
from metrics.core.results import Evaluation, SampleResult, summarize
from metrics.core.tally import Tally
from metrics.declare.spec import MetricSpec
from metrics.io.archive import Member
from metrics.io.formats import ICDAR
from metrics.io.formats.base import forget_parsed
from metrics.io.formats.detect import detect
from metrics.io.icdar.det_schema import SchemaEvidence
from metrics.io.icdar.grammar import DetSchema
from metrics.io.icdar.plan import (
    KEEP_SCANS,
    IcdarPlan,
    LoadOptions,
    Pair,
    Schema,
    find_schema,
    plan_icdar,
    read_pairs,
)
from metrics.io.reader import geometry_warnings
from metrics.run.light import light_detail, light_kind, strip
from metrics.run.refusal import refuse
from metrics.run.runner import (
    BLOCK,
    Failed,
    Policy,
    Progress,
    apply_failures,
    evaluate_chunk,
)
from metrics.shapes.mode import Detail

PathLike = str | os.PathLike[str]
S = TypeVar("S")
T = TypeVar("T")
_Light = Literal["none", "lists", "evidence"]  # what a slice leaves out of a result it sends
Kept = tuple[str, Tally, SampleResult | None]  # sample id, tally, light result (extras)


def shardable(spec: MetricSpec[Params]) -> bool:
    """Whether ``spec`` can be evaluated slice by slice (see the module docstring)."""
    return spec.shardable and spec.finalize is None


@dataclass(frozen=True)
class Outcome:
    """What the command line prints: the facts of the set, the readers' problems (as
    ``Dataset.problems``) and one evaluation per metric (summary, extras, problems,
    excluded samples; per-sample results only when asked for), or the refusal the strict
    policy raises."""

    facts: Facts
    problems: tuple[Problem, ...]
    evaluations: list[Evaluation[Params]]
    refused: InputError | None = None  # the strict policy's refusal (no evaluations then)


@dataclass(frozen=True)
class _Job:
    """What every process needs for its slices (inherited when the workers fork)."""

    plan: IcdarPlan
    schema: DetSchema
    ids: tuple[str, ...]
    params: tuple[Params, ...]
    reader_bad: frozenset[str]  # samples the pairing and the schema found errors in
    light: tuple[_Light, ...]  # per metric: what global_extras needs of each result
    full: bool  # send every sample's whole result (for --json / --csv)
    scanned: Schema | None = None  # one process: the schema's scans and lines, read again


@dataclass
class _Part:
    """One slice's outcome."""

    facts: Facts
    read: list[Problem]
    warnings: list[Problem]
    found: list[list[Problem]]  # per metric: its validation's problems
    excluded: list[set[str]]  # per metric
    failed: Failed
    kept: list[list[Kept]]  # per metric, in sample order


def evaluate(
    gt: PathLike,
    det: PathLike,
    specs: Sequence[MetricSpec[Params]],
    overrides: Mapping[str, Mapping[str, object]],
    *,
    gt_lines: PathLike | None = None,
    images: PathLike | None = None,
    options: LoadOptions | None = None,
    policy: Policy = "strict",
    workers: int = 2,
    progress: Progress | None = None,
    results: bool = False,
) -> Outcome | None:
    """Read and evaluate ``gt`` / ``det`` slice by slice in ``workers`` processes; None
    when the inputs are not ICDAR txt on both sides or a metric is not ``shardable`` (the
    caller then loads the dataset). Raises ``InputError`` where ``load_dataset`` would;
    the input errors ``runner.run`` would raise are returned in ``Outcome.refused``, with
    the facts of the set."""
    opts = options or LoadOptions()
    if not all(shardable(s) for s in specs):
        return None
    try:
        gfound = detect(gt, "gt", opts.gt_format)
        dfound = detect(det, "det", opts.det_format)
    except BaseException:
        forget_parsed()
        raise
    if gfound.format is not ICDAR or dfound.format is not ICDAR:
        return None  # what detecting parsed stays for load_dataset (which forgets it)
    forget_parsed()
    plan = plan_icdar(gt, det, gfound, dfound, gt_lines, images, opts)
    with pool.paused_gc():
        schema, found, scanned = _schema(plan, workers)
        head = plan.problems_with(found)
        params = tuple(make_params(s, overrides.get(s.id)) for s in specs)
        job = _Job(
            plan,
            schema,
            tuple(s.id for s in specs),
            params,
            frozenset(p.sample_id for p in head if _error(p) and p.sample_id is not None),
            tuple(_light_kind(s) for s in specs),
            results,
            scanned,
        )
        bounds = _bounds(len(plan.pairs), workers, BLOCK)
        work = functools.partial(_part, job=job)
        parts = _map(plan.pairs, work, bounds, workers, progress)
    return _assemble(head, parts, specs, params, policy, set(found), results)


def _bounds(n: int, workers: int, largest: int) -> list[tuple[int, int]]:
    """Slices of at most ``largest`` items: shared out in small slices so that the
    processes finish together, in one process as large as vectorizing wants."""
    if workers > 1:
        return pool.slice_bounds(n, workers, largest)
    return [(a, min(a + largest, n)) for a in range(0, n, largest)]


def _map(
    items: Sequence[S],
    job: Callable[[Sequence[S]], T],
    bounds: list[tuple[int, int]],
    workers: int,
    progress: Progress | None = None,
) -> list[T]:
    """``job`` of every slice, in order: in this process alone, or shared with workers."""
    if workers > 1 and len(bounds) > 1:
        return pool.run_slices(items, job, bounds, workers, progress)
    out = []
    for a, b in bounds:
        out.append(job(items[a:b]))
        if progress is not None:
            progress(b, len(items))
    return out


def _error(p: Problem) -> bool:
    return p.severity is Severity.ERROR


def _schema(plan: IcdarPlan, workers: int) -> tuple[DetSchema, list[Problem], Schema | None]:
    """The detection schema over every detection file (its problems in file order), the
    files shared out like the samples. In one process, a set whose detection files are
    small (``plan.KEEP_SCANS``) keeps what finding it scanned and split, which reading uses
    instead of scanning each file again."""
    members = plan.det_members
    if not members:
        return find_schema((), plan.opts).schema, [], None
    if workers == 1 and sum(len(m.data) for m in members) <= KEEP_SCANS:
        whole = find_schema(members, plan.opts)
        return whole.schema, whole.problems, whole
    bounds = _bounds(len(members), workers, BLOCK * 4)
    shapes = functools.partial(_shape, opts=plan.opts)
    found = _map(members, shapes, bounds, workers)
    evidence = functools.reduce(operator.or_, (f.evidence for f in found), SchemaEvidence())
    schema = evidence.schema(plan.opts.forced)
    return schema, [p for f in found for p in f.problems], None


def _shape(members: Sequence[Member], opts: LoadOptions) -> Schema:
    """The schema inferred over some detection files (forcing is applied by the caller);
    only the schema and the problems travel back."""
    del opts
    found = find_schema(members, LoadOptions())
    return Schema(found.schema, found.evidence, problems=found.problems)


def _part(pairs: Sequence[Pair], job: _Job) -> _Part:
    """Read, check, validate and evaluate one slice of pairs."""
    samples, read = read_pairs(job.plan, pairs, job.scanned or Schema(job.schema))
    if job.scanned is not None:
        job.scanned.forget(pairs)
    warnings = geometry_warnings(samples)
    bad_reader = set(job.reader_bad)
    bad_reader.update(p.sample_id for p in read if _error(p) and p.sample_id is not None)
    found: list[list[Problem]] = []
    excluded: dict[str, set[str]] = {}
    for mid, prm in zip(job.ids, job.params, strict=True):
        problems = METRICS[mid].validate(samples, prm)
        bad = set(bad_reader)
        bad.update(p.sample_id for p in problems if _error(p) and p.sample_id)
        if any(_error(p) and p.sample_id is None for p in problems):
            bad.update(s.id for s in samples)  # a dataset-level error: no sample can be used
        found.append(problems)
        excluded[mid] = bad
    # without ``full`` a result is cut down at once (``_light``): its lists are never read
    wanted = Detail.FULL if job.full else light_detail(job.light, Detail.SUMMARY)
    rows, failed = evaluate_chunk(samples, job.ids, job.params, excluded, wanted)
    kept: list[list[Kept]] = [[] for _ in job.ids]
    for s, row in zip(samples, rows, strict=True):
        for col, r in enumerate(row):
            if r is not None:
                keep = r if job.full else _light(r, job.light[col])
                kept[col].append((s.id, r.tally, keep))
    facts = facts_of(samples, job.plan.has_lines)
    return _Part(facts, read, warnings, found, list(excluded.values()), failed, kept)


def _light_kind(spec: MetricSpec[Params]) -> _Light:
    kind = light_kind(spec)
    return "none" if kind == "full" else kind  # finalize: never sharded (``shardable``)


def _light(r: SampleResult, kind: _Light) -> SampleResult | None:
    """What ``global_extras`` reads of a result, as the slice sends it back: nothing
    ("none"), else ``light.strip``."""
    return None if kind == "none" else strip(r, kind)


def _assemble(
    head: list[Problem],
    parts: list[_Part],
    specs: Sequence[MetricSpec[Params]],
    params: Sequence[Params],
    policy: Policy,
    again: set[Problem],
    full: bool,
) -> Outcome:
    """The slices put together in sample order, as ``runner.run`` would have them.
    ``again``: what finding the schema reported, which reading a detection file that is
    not plain integer QUADs reports again (its undecodable bytes, say): said once."""
    reader = [*head, *(p for part in parts for p in part.read if p not in again)]
    reader.extend(p for part in parts for p in part.warnings)
    problems = list(reader)
    seen = set(problems)
    own: dict[str, list[Problem]] = {}  # per metric, its errors
    excluded: dict[str, set[str]] = {}
    for col, spec in enumerate(specs):
        found = [p for part in parts for p in part.found[col]]
        problems.extend(p for p in found if p not in seen)
        seen.update(found)
        excluded[spec.id] = set().union(*(part.excluded[col] for part in parts))
        own[spec.id] = [p for p in found if _error(p)]
    facts = sum((part.facts for part in parts), Facts())
    try:
        refuse([p for p in reader if _error(p)], own, policy, facts.n_samples)
        failed = [f for part in parts for f in part.failed]
        problems = apply_failures(failed, excluded, problems, policy, facts.n_samples)
    except InputError as exc:
        return Outcome(facts, tuple(reader), [], exc)
    evaluations = [
        _evaluation(
            spec,
            prm,
            [k for part in parts for k in part.kept[col]],
            problems,
            excluded,
            full,
            facts.n_samples,
        )
        for col, (spec, prm) in enumerate(zip(specs, params, strict=True))
    ]
    return Outcome(facts, tuple(reader), evaluations)


def _evaluation(
    spec: MetricSpec[Params],
    prm: Params,
    kept: list[Kept],
    problems: Iterable[Problem],
    excluded: Mapping[str, set[str]],
    full: bool,
    images: int,
) -> Evaluation[Params]:
    summary = summarize([t for _, t, _ in kept]) if kept else None
    extras: dict[str, float] = {}
    if spec.global_extras is not None and kept:
        extras = spec.global_extras([r for _, _, r in kept if r is not None])
    results = {sid: r for sid, _, r in kept if r is not None} if full else {}
    return Evaluation(
        spec.id,
        prm,
        results,
        summary,
        extras,
        tuple(problems),
        tuple(sorted(excluded[spec.id])),
        images,
        complete=full,
    )
