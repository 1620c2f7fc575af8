"""Systems scored on the same examples, side by side: is B significantly better than A, and where
does each lose points? (``python -m capqa compare``; its command line is ``capqa.cli.compare``,
its tables and plot ``capqa.compare.report``.)

``compare_systems`` takes two or more scored tables (the CSVs ``score`` writes), aligns their
rows (by an id column, or by question + gold answer), refuses tables that do not hold the same
examples or were scored under different settings (their summaries' identity records, compared
field by field: ``capqa.records.job.JobIdentity.scoring``), and returns a ``Comparison``:

- per system: the mean of every metric all tables have (CAP, CAP+, accuracy, mean credit) with a
  95 % percentile-bootstrap CI, every system on the same resamples;
- per pair and metric: the mean difference with its paired-bootstrap CI, the paired
  approximate-randomisation p-value, and Holm's adjusted p-value over the pairs;
- per ``by`` column: each group's mean CAP per system; per system: mean CAP and the share of
  the points it lost in each relation class.

``cluster`` names a column whose rows are resampled and permuted together. By default
(``DETECT_CLUSTERS``) it is the question column when some question has several rows: the answers
to one question share its difficulty and its gold answer, and resampling them as independent rows
makes intervals too narrow and p-values too small (on a null with five answers per question, a
false-positive rate of several times the nominal 5 %: ``benchmarks/bench_compare_null.py``).
``cluster=None`` resamples rows. Holm's adjustment runs over the pairs of each metric
(``holm_family="metric"``) or over every pair of every metric as one family (``"all"``).
"""

import logging
from collections import Counter
from dataclasses import asdict, dataclass, field
from itertools import combinations
from typing import Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import pandas as pd

from capqa.common.constants import LABELS
from capqa.common.validation import check_positive_int, check_seed
from capqa.compare.significance import (DEFAULT_PERMUTATIONS, DEFAULT_RESAMPLES, DEFAULT_SEED, Estimate,
                                        bootstrap_means, estimate, holm, randomisation_p_values)
from capqa.compare.summary import metric_values, present_metrics
from capqa.monotonicity.measures import CONFIDENCE
from capqa.records.job import JobIdentity
from capqa.records.json_records import differences

logger = logging.getLogger(__name__)

CORRECTION = "Holm"
# Holm's families: the tests adjusted together.
HOLM_FAMILIES = {"metric": "the pairs of each metric", "all": "every pair of every metric, one family"}
RELATION_COLUMN = "relation"
_SHOWN_CHARS = 60


class _DetectClusters:
    """The default of ``compare_systems(cluster=...)``: cluster by the question column when some
    question has several rows, else resample rows."""

    def __repr__(self) -> str:
        return "DETECT_CLUSTERS"


DETECT_CLUSTERS = _DetectClusters()
# Why the rows were (or were not) resampled in clusters, as ComparisonSettings.cluster_reason says.
CLUSTER_REASONS = ("detected", "given", "off", "no repeated questions")


@dataclass(frozen=True)
class ScoredSystem:
    """One system's scored table as ``compare_systems`` takes it; ``identity``: the job that
    scored it (its summary's record; None when unknown); ``metrics``: the metrics scoring wrote
    (its summary says; None: every metric column the table has)."""

    name: str
    table: pd.DataFrame = field(repr=False)
    identity: Optional[JobIdentity] = None
    metrics: Optional[Tuple[str, ...]] = None

    @property
    def hashcode(self) -> Optional[str]:
        return None if self.identity is None else self.identity.hashcode()

    def scored_metrics(self) -> List[str]:
        return present_metrics(self.table.columns) if self.metrics is None else list(self.metrics)


@dataclass(frozen=True)
class Alignment:
    """How rows of different tables are matched: by ``id_column`` when given, else by question
    and gold answer (``question_column`` None: by gold answer alone), repeated keys in file order."""

    id_column: Optional[str] = None
    question_column: Optional[str] = "question"
    gold_column: str = "gold_answer"

    @property
    def columns(self) -> List[str]:
        return [self.id_column] if self.id_column else [c for c in (self.question_column, self.gold_column) if c]

    def describe(self) -> str:
        if self.id_column:
            return f"rows matched by `{self.id_column}`"
        return (f"rows matched by {' + '.join(f'`{c}`' for c in self.columns)} "
                "(repeated keys in file order)")


@dataclass(frozen=True)
class SystemResult:
    name: str
    hashcode: Optional[str]
    metrics: Dict[str, Estimate]


@dataclass(frozen=True)
class PairResult:
    """``second`` minus ``first`` on one metric."""

    first: str
    second: str
    metric: str
    difference: Estimate
    p_value: float
    p_adjusted: float


@dataclass(frozen=True)
class GroupResult:
    """The mean CAP of every system on the rows whose ``column`` is ``value``."""

    column: str
    value: str
    rows: int
    cap: Dict[str, Estimate]


@dataclass(frozen=True)
class RelationResult:
    """One system's rows in one relation class: their mean CAP and share of all lost points."""

    system: str
    relation: str
    rows: int
    mean_cap: float
    lost_share: float


@dataclass(frozen=True)
class ComparisonSettings:
    rows: int
    alignment: str
    n_resamples: int
    n_permutations: int
    seed: int
    confidence: float = CONFIDENCE
    cluster: Optional[str] = None
    clusters: Optional[int] = None
    correction: str = CORRECTION
    mixed_settings: bool = False
    cluster_reason: str = "off"
    repeated_clusters: int = 0      # clusters with more than one row
    holm_family: str = "metric"


@dataclass(frozen=True)
class Comparison:
    """What ``compare_systems`` found; the CLI, the Space and the tests read the same record."""

    systems: List[SystemResult]
    pairs: List[PairResult]
    groups: List[GroupResult]
    relations: List[RelationResult]
    settings: ComparisonSettings

    @property
    def metrics(self) -> List[str]:
        return list(self.systems[0].metrics)

    def pair(self, first: str, second: str, metric: str = "cap") -> PairResult:
        return next(p for p in self.pairs if (p.first, p.second, p.metric) == (first, second, metric))

    def to_json(self) -> dict:
        def plain(value):
            if isinstance(value, Estimate):
                return value.to_json()
            if isinstance(value, dict):
                return {key: plain(item) for key, item in value.items()}
            return value
        return {"systems": [{key: plain(value) for key, value in vars(s).items()} for s in self.systems],
                "pairs": [{key: plain(value) for key, value in vars(p).items()} for p in self.pairs],
                "groups": [{key: plain(value) for key, value in vars(g).items()} for g in self.groups],
                "relations": [asdict(r) for r in self.relations], "settings": asdict(self.settings)}


def compare_systems(systems: Sequence[ScoredSystem], alignment: Alignment = Alignment(), by: Sequence[str] = (),
                    cluster: Union[str, None, _DetectClusters] = DETECT_CLUSTERS, n_resamples: int = DEFAULT_RESAMPLES,
                    n_permutations: int = DEFAULT_PERMUTATIONS, seed: int = DEFAULT_SEED,
                    allow_mixed_settings: bool = False, holm_family: str = "metric") -> Comparison:
    """Compare two or more scored systems on the same examples (see the module's docstring)."""
    systems = _check_systems(systems)
    n_resamples = check_positive_int(n_resamples, "n_resamples")
    n_permutations = check_positive_int(n_permutations, "n_permutations")
    seed = check_seed(seed, "seed")
    if holm_family not in HOLM_FAMILIES:
        raise ValueError(f"`holm_family` must be one of {', '.join(HOLM_FAMILIES)}, got {holm_family!r}")
    mixed = check_same_settings(systems, allow_mixed_settings)
    tables = align(systems, alignment)
    first = systems[0]
    cluster, reason = resolve_cluster(tables[0], alignment, cluster)
    for column in [*by, *([cluster] if cluster else [])]:
        if column not in tables[0].columns:
            raise ValueError(f"`{first.name}` has no column {column!r} (asked for by --by/--cluster); its columns "
                             f"are {', '.join(map(repr, tables[0].columns))}")
    metrics = [m for m in first.scored_metrics() if all(m in system.scored_metrics() for system in systems)]
    # values[m, s]: metric m of system s on the aligned rows.
    values = np.stack([[metric_values(table, metric, f"`{system.name}`") for system, table in zip(systems, tables)]
                       for metric in metrics])
    clusters = list(tables[0][cluster]) if cluster else None
    n_clusters = None if clusters is None else len(set(clusters))
    repeated = 0 if clusters is None else sum(count > 1 for count in Counter(clusters).values())
    resampled = bootstrap_means(values.reshape(-1, values.shape[-1]), n_resamples, seed, clusters)
    resampled = resampled.reshape(len(metrics), len(systems), -1)
    results = [SystemResult(system.name, system.hashcode,
                            {metric: estimate(values[m, s], resampled[m, s]) for m, metric in enumerate(metrics)})
               for s, system in enumerate(systems)]
    pairs = _pairs(systems, metrics, values, resampled, n_permutations, seed, clusters, holm_family)
    cap = values[metrics.index("cap")]
    settings = ComparisonSettings(rows=len(tables[0]), alignment=alignment.describe(), n_resamples=n_resamples,
                                  n_permutations=n_permutations, seed=seed, cluster=cluster, clusters=n_clusters,
                                  mixed_settings=mixed, cluster_reason=reason, repeated_clusters=repeated,
                                  holm_family=holm_family)
    return Comparison(results, pairs, _groups(systems, tables, cap, by, clusters, n_resamples, seed),
                      _relations(systems, tables, cap), settings)


def resolve_cluster(table: pd.DataFrame, alignment: Alignment,
                    cluster: Union[str, None, _DetectClusters]) -> Tuple[Optional[str], str]:
    """(the column to cluster by or None, why: one of ``CLUSTER_REASONS``). ``DETECT_CLUSTERS``:
    the alignment's question column when the table has it and some question has several rows."""
    if cluster is None:
        return None, "off"
    if not isinstance(cluster, _DetectClusters):
        if not isinstance(cluster, str) or not cluster:
            raise TypeError(f"`cluster` must be a column name, None or DETECT_CLUSTERS, got {cluster!r}")
        return cluster, "given"
    column = alignment.question_column
    if column and column in table.columns and table[column].astype(str).duplicated().any():
        return column, "detected"
    return None, "no repeated questions"


def _check_systems(systems):
    systems = list(systems)
    if len(systems) < 2:
        raise ValueError(f"compare needs at least two systems, got {len(systems)}")
    names = [system.name for system in systems]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise ValueError(f"two systems are called {repeated[0]!r}; give each system its own name")
    for system in systems:
        if "cap" not in system.table.columns:
            raise ValueError(f"`{system.name}` has no 'cap' column: it is not a scored file (score it first)")
    return systems


def settings_differences(first: JobIdentity, second: JobIdentity) -> str:
    """Every setting that decides scores on which two jobs disagree, in words."""
    return "; ".join(f"{name}: {_setting(before)} vs {_setting(now)}"
                     for name, before, now in differences(first.scoring(), second.scoring()))


def _setting(value) -> str:
    """A setting in words: a string of punctuation (a separator) quoted, so that ";" or " " shows."""
    if value is None:
        return "none"
    return repr(value) if isinstance(value, str) and not any(map(str.isalnum, value)) else str(value)


def check_same_settings(systems: Sequence[ScoredSystem], allow_mixed: bool = False) -> bool:
    """True when the systems were scored under different or unknown settings and ``allow_mixed``
    lets that pass; False when they were all scored alike (the identity records agree on every
    field that decides scores); otherwise refuses, naming what differs."""
    unknown = [system.name for system in systems if system.identity is None]
    known = [system for system in systems if system.identity is not None]
    other = next((system for system in known if system.identity.scoring() != known[0].identity.scoring()), None)
    if not unknown and other is None:
        return False
    if allow_mixed:
        logger.warning("comparing systems scored under different or unknown settings (--allow-mixed-settings)")
        return True
    if unknown:
        raise ValueError(f"`{unknown[0]}` has no hashcode (no summary file beside it: it was scored elsewhere "
                         "or before summaries existed), so compare cannot check that every system was scored "
                         "alike; score it with `python -m capqa score`, or allow mixed settings "
                         "(--allow-mixed-settings)")
    raise ValueError(f"`{known[0].name}` and `{other.name}` were scored under different settings "
                     f"({settings_differences(known[0].identity, other.identity)}): their scores are not comparable; "
                     "score them alike, or allow mixed settings (--allow-mixed-settings, stated in the table)")


def _keys(system: ScoredSystem, alignment: Alignment) -> List[tuple]:
    table = system.table
    missing = [column for column in alignment.columns if column not in table.columns]
    if missing:
        raise ValueError(f"`{system.name}` has no column {missing[0]!r} to match rows by; its columns are "
                         f"{', '.join(map(repr, table.columns))} (choose --id-column or --question-column/--gold-column)")
    keys = list(zip(*(table[column].astype(str) for column in alignment.columns)))
    if alignment.id_column:
        for row, (key,) in enumerate(keys, start=1):
            if not key.strip():
                raise ValueError(f"`{system.name}` row {row}: the id column {alignment.id_column!r} is empty")
        seen = {}
        for row, key in enumerate(keys, start=1):
            if key in seen:
                raise ValueError(f"`{system.name}` rows {seen[key]} and {row} have the same id {key[0]!r}; "
                                 "ids must be unique")
            seen[key] = row
        return keys
    # Repeated (question, gold) keys (several answers to one question) match in file order.
    seen: Counter = Counter()
    numbered = []
    for key in keys:
        numbered.append((*key, seen[key]))
        seen[key] += 1
    return numbered


def _shown(key: tuple, alignment: Alignment) -> str:
    def cut(text):
        return text if len(text) <= _SHOWN_CHARS else text[:_SHOWN_CHARS - 1] + "…"
    parts = [f"{column} {cut(value)!r}" for column, value in zip(alignment.columns, key)]
    if not alignment.id_column and key[-1]:
        parts.append(f"occurrence {key[-1] + 1}")
    return ", ".join(parts)


def align(systems: Sequence[ScoredSystem], alignment: Alignment = Alignment()) -> List[pd.DataFrame]:
    """Every system's table in the first one's row order; refuses tables that do not hold the same
    examples, naming the first difference."""
    reference = _keys(systems[0], alignment)
    if len(reference) < 2:
        raise ValueError(f"`{systems[0].name}` has {len(reference)} row(s): comparing systems needs at least 2 "
                         "examples (one example says nothing about which system is better)")
    tables = [systems[0].table.reset_index(drop=True)]
    for system in systems[1:]:
        keys = _keys(system, alignment)
        position = {key: row for row, key in enumerate(keys)}
        where = f"`{system.name}` and `{systems[0].name}` do not hold the same examples"
        sizes = f" ({len(keys):,} rows against {len(reference):,})" if len(keys) != len(reference) else ""
        for row, key in enumerate(reference, start=1):
            if key not in position:
                raise ValueError(f"{where}{sizes}: `{system.name}` has no row for {_shown(key, alignment)} "
                                 f"(row {row} of `{systems[0].name}`)")
        if len(keys) != len(reference):
            known = set(reference)
            extra = next(row for row, key in enumerate(keys) if key not in known)
            raise ValueError(f"{where}{sizes}: `{system.name}` row {extra + 1} ({_shown(keys[extra], alignment)}) "
                             f"is not in `{systems[0].name}`")
        tables.append(system.table.iloc[[position[key] for key in reference]].reset_index(drop=True))
    return tables


def _pairs(systems, metrics, values, resampled, n_permutations, seed, clusters, holm_family) -> List[PairResult]:
    """Every pair of systems on every metric; Holm's adjustment runs over the pairs of one metric
    (``holm_family="metric"``) or over all the tests at once (``"all"``)."""
    tests = [(m, i, j) for m in range(len(metrics)) for i, j in combinations(range(len(systems)), 2)]
    p_values = randomisation_p_values(np.stack([values[m, j] - values[m, i] for m, i, j in tests]),
                                      n_permutations, seed, clusters)
    adjusted = np.empty_like(p_values)
    families = [list(range(len(tests)))] if holm_family == "all" else [
        [t for t, test in enumerate(tests) if test[0] == m] for m in range(len(metrics))]
    for family in families:
        adjusted[family] = holm(p_values[family])
    return [PairResult(systems[i].name, systems[j].name, metrics[m],
                       estimate(values[m, j] - values[m, i], resampled[m, j] - resampled[m, i]),
                       float(p_values[t]), float(adjusted[t])) for t, (m, i, j) in enumerate(tests)]


def _estimates_or_none(values: np.ndarray, n_resamples: int, seed: int, clusters: Optional[list]) -> List[Estimate]:
    """Per row of ``values``: the mean with its CI, or without one where fewer than 2 units are left."""
    units = len(values[0]) if clusters is None else len(set(clusters))
    if units < 2:
        return [Estimate(float(np.mean(row)), np.nan, np.nan) for row in values]
    resampled = bootstrap_means(values, n_resamples, seed, clusters)
    return [estimate(row, draws) for row, draws in zip(values, resampled)]


def _groups(systems, tables, cap, by, clusters, n_resamples, seed) -> List[GroupResult]:
    groups = []
    for column in by:
        labels = tables[0][column].astype(str).to_numpy()
        for value in sorted(set(labels), key=_label_order):
            mask = labels == value
            kept = None if clusters is None else [c for c, keep in zip(clusters, mask) if keep]
            found = _estimates_or_none(cap[:, mask], n_resamples, seed, kept)
            groups.append(GroupResult(column, value, int(mask.sum()),
                                      {system.name: found[s] for s, system in enumerate(systems)}))
    return groups


def _label_order(value: str) -> tuple:
    """Correctness classes in the taxonomy's order, anything else alphabetically after them."""
    return (LABELS.index(value), "") if value in LABELS else (len(LABELS), value)


def _relations(systems, tables, cap) -> List[RelationResult]:
    relations = []
    for s, (system, table) in enumerate(zip(systems, tables)):
        if RELATION_COLUMN not in table.columns:
            continue
        labels = table[RELATION_COLUMN].astype(str).to_numpy()
        lost = 1.0 - cap[s]
        total = lost.sum()
        for relation in sorted(set(labels), key=_label_order):
            mask = labels == relation
            relations.append(RelationResult(system.name, relation, int(mask.sum()), float(cap[s][mask].mean()),
                                            float(lost[mask].sum() / total) if total > 0 else 0.0))
    return relations
