"""The agreement card: how often CAP and the baselines agree with the human judgement.

``run_agreement`` is ``python -m capqa agreement``'s library function: it reads the judged rows,
scores them with CAP under the user's options (a resumable job, ``capqa.agreement.scoring``),
turns the scores into verdicts with a threshold never chosen on the rows it judges
(``capqa.agreement.verdicts``) and measures, per source, per system and overall, the accuracy and
Cohen's kappa of CAP and of the baselines against the human judgement, with CIs from a
bootstrap over questions. ``agreement_card`` does the measuring, with CAP or without it (the
baselines alone need no model: the docs' tables are made so). Beside the figures: the peers'
published figures, and the rows where CAP and the people disagree, with both statements and
what ``statement_issues`` flags in them.
"""

import dataclasses
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
from tqdm.auto import tqdm

from capqa.agreement.baselines import BASELINES, baseline_values
from capqa.agreement.judged import JUDGED_ANSWERS, JudgedRows, describe_rows, read_judged
from capqa.agreement.peers import PUBLISHED, PublishedFigure
from capqa.agreement.scoring import SCORED_FILE, CapRun, score_judged
from capqa.agreement.statistics import Agreement, agreement
from capqa.agreement.verdicts import (DEFAULT_FOLDS, SCORE_LABELS, Judged, fold_verdicts, resolve_threshold,
                                      shipped_verdicts)
from capqa.jobs.output import check_out_path
from capqa.metric.options import MetricOptions
from capqa.metric.scorer import CAPScorer
from capqa.monotonicity.measures import CONFIDENCE
from capqa.verdicts.judge import Verdict
from capqa.verdicts.thresholds import cluster_folds

logger = logging.getLogger(__name__)

ALL_SOURCES = "all sources"
SCORE_CACHE_FOLDER = "score-cache"


@dataclass(frozen=True)
class GroupAgreement:
    """The rows of one source (``ALL_SOURCES``: every row), or of one system within it."""

    source: str
    system: Optional[str]
    rows: int
    questions: int
    judged_correct: int
    methods: Dict[str, Agreement]

    def to_json(self) -> dict:
        return {"source": self.source, "system": self.system, "rows": self.rows, "questions": self.questions,
                "judged_correct": self.judged_correct,
                "methods": {method: value.to_json() for method, value in self.methods.items()}}


@dataclass(frozen=True)
class Disagreement:
    """A row where CAP's verdict is not the person's, with the two statements CAP compared."""

    id: str
    source: str
    system: str
    question: str
    gold: str
    answer: str
    human: str
    cap: str
    score: float
    gold_statement: str
    answer_statement: str
    statement_issues: List[str]

    def to_json(self) -> dict:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class StatementFlags:
    """How often ``statement_issues`` flags a statement where CAP and the people disagree, and
    where they agree (the comparison that says whether flagged statements go with errors)."""

    disagreements: int
    flagged_disagreements: int
    agreements: int
    flagged_agreements: int
    codes: Dict[str, int]   # issue code -> disagreements whose statements it flags, most frequent first

    @property
    def disagreement_share(self) -> float:
        return self.flagged_disagreements / self.disagreements if self.disagreements else float("nan")

    @property
    def agreement_share(self) -> float:
        return self.flagged_agreements / self.agreements if self.agreements else float("nan")

    def to_json(self) -> dict:
        return {**dataclasses.asdict(self), "disagreement_share": self.disagreement_share,
                "agreement_share": self.agreement_share}


@dataclass(frozen=True)
class CardSettings:
    described: str
    rows: int
    questions: int
    folds: int
    n_resamples: int
    seed: int
    confidence: float = CONFIDENCE


@dataclass(frozen=True)
class AgreementCard:
    settings: CardSettings
    methods: Dict[str, str]          # method -> its name in tables, CAP first
    judged: Dict[str, Judged]        # how the thresholded methods' verdicts were made
    groups: List[GroupAgreement]
    published: Tuple[PublishedFigure, ...]
    cap: Optional[CapRun] = field(default=None, repr=False)
    disagreements: List[Disagreement] = field(default_factory=list, repr=False)
    flags: Optional[StatementFlags] = None

    def to_json(self) -> dict:
        return {"settings": dataclasses.asdict(self.settings), "methods": self.methods,
                "judged": {method: judged.to_json() for method, judged in self.judged.items()},
                "cap": None if self.cap is None else {"score": self.cap.score, "hashcode": self.cap.hashcode,
                                                      "nli_model": self.cap.nli.model,
                                                      "nli_revision": self.cap.nli.revision,
                                                      "fitted_nli_model": self.cap.nli.is_fitted_model},
                "groups": [group.to_json() for group in self.groups],
                "published": [figure.to_json() for figure in self.published],
                "statement_flags": None if self.flags is None else self.flags.to_json(),
                "disagreements": [row.to_json() for row in self.disagreements]}


def agreement_card(rows: JudgedRows, cap: Optional[CapRun] = None, verdict: Optional[Verdict] = None,
                   thresholds_path: Optional[str] = None, n_folds: int = DEFAULT_FOLDS, n_resamples: int = 1000,
                   seed: int = 42, progress: bool = True) -> AgreementCard:
    """The card of ``rows``: the baselines' agreement and, with ``cap`` (its scores of the rows),
    CAP's, judged by ``verdict``'s threshold or, when it is None, by ``n_folds`` folds."""
    human, clusters = rows.human, rows.clusters
    folds = cluster_folds(clusters, n_folds, seed)
    baselines = baseline_values(list(rows.table["answer"]), rows.golds)
    judged, verdicts, methods = {}, {}, {}
    if cap is not None:
        label = SCORE_LABELS[cap.score]
        judged[cap.score] = (shipped_verdicts(cap.scores, verdict, thresholds_path) if verdict is not None
                             else fold_verdicts(cap.scores, human, folds, label))
        verdicts[cap.score], methods[cap.score] = judged[cap.score].accepted, label
    judged["token_f1"] = fold_verdicts(baselines["token_f1"], human, folds, BASELINES["token_f1"].label)
    for name, baseline in BASELINES.items():
        verdicts[name] = judged[name].accepted if baseline.thresholded else baselines[name]
        methods[name] = baseline.label
    groups = _groups(rows, verdicts, human, clusters, n_resamples, seed, progress)
    sources = set(rows.table["source"])
    settings = CardSettings(describe_rows(rows), len(human), rows.questions, n_folds, n_resamples, seed)
    card = AgreementCard(settings, methods, judged, groups,
                         tuple(figure for figure in PUBLISHED if figure.source in sources), cap)
    if cap is None:
        return card
    disagreements, flags = _disagreements(rows, cap, verdicts[cap.score], human)
    return dataclasses.replace(card, disagreements=disagreements, flags=flags)


def _scopes(rows: JudgedRows) -> List[Tuple[str, Optional[str], np.ndarray]]:
    """(source, system, rows mask): every row, each source, each system within its source."""
    table = rows.table
    sources = list(dict.fromkeys(table["source"]))
    scopes = [(ALL_SOURCES, None, np.ones(len(table), dtype=bool))] if len(sources) > 1 else []
    scopes += [(source, None, (table["source"] == source).to_numpy()) for source in sources]
    for source in sources:
        in_source = table["source"] == source
        for system in dict.fromkeys(table.loc[in_source, "system"]):
            scopes.append((source, system, (in_source & (table["system"] == system)).to_numpy()))
    return scopes


def _groups(rows, verdicts, human, clusters, n_resamples, seed, progress) -> List[GroupAgreement]:
    groups = []
    scopes = _scopes(rows)
    for source, system, mask in tqdm(scopes, desc="agreement bootstrap", unit="group", disable=not progress):
        measured = agreement({method: values[mask] for method, values in verdicts.items()}, human[mask],
                             clusters[mask], n_resamples, seed)
        groups.append(GroupAgreement(source, system, int(mask.sum()), len(np.unique(clusters[mask])),
                                     int(human[mask].sum()), measured))
    return groups


def _disagreements(rows: JudgedRows, cap: CapRun, accepted: np.ndarray,
                   human: np.ndarray) -> Tuple[List[Disagreement], StatementFlags]:
    table = rows.table
    verdict_name = {True: "correct", False: "incorrect"}
    wrong = np.flatnonzero(accepted != human)
    found = [Disagreement(table["id"][i], table["source"][i], table["system"][i], table["question"][i],
                          table["gold"][i], table["answer"][i], verdict_name[bool(human[i])],
                          verdict_name[bool(accepted[i])], float(cap.scores[i]), cap.gold_statements[i],
                          cap.answer_statements[i], cap.issues[i]) for i in wrong]
    flagged = np.array([bool(issues) for issues in cap.issues])
    codes: Dict[str, int] = {}
    for row in found:
        for code in dict.fromkeys(row.statement_issues):
            codes[code] = codes.get(code, 0) + 1
    agreeing = accepted == human
    flags = StatementFlags(len(found), int(flagged[~agreeing].sum()), int(agreeing.sum()),
                           int(flagged[agreeing].sum()), dict(sorted(codes.items(), key=lambda item: -item[1])))
    return found, flags


def run_agreement(options: MetricOptions, out_dir: Union[str, os.PathLike],
                  data: Union[str, os.PathLike] = JUDGED_ANSWERS, sources: Optional[Sequence[str]] = None,
                  questions_per_source: Optional[int] = None, threshold: str = "shipped",
                  thresholds_path: Optional[str] = None, n_folds: int = DEFAULT_FOLDS, n_resamples: int = 1000,
                  seed: int = 42, chunk_size: int = 500, progress: bool = True) -> AgreementCard:
    """Score the judged rows of ``data`` with CAP under ``options`` into ``out_dir`` (resumable;
    NLI probabilities cached in ``out_dir/score-cache`` unless ``options`` name a cache) and
    return their card. ``threshold``: "shipped" (the threshold of ``options.verdict``'s policy,
    "strict" by default, from ``thresholds_path`` or the package's file) or "folds"."""
    rows = read_judged(data, sources, questions_per_source)
    # Everything that can be refused is refused before the models load.
    verdict = resolve_threshold(threshold, options.verdict, options.variant, thresholds_path)
    cluster_folds(rows.clusters, n_folds, seed)
    out_dir = Path(out_dir)
    check_out_path(out_dir / SCORED_FILE)
    scoring = dataclasses.replace(options, verdict=None,
                                  score_cache_dir=options.score_cache_dir or str(out_dir / SCORE_CACHE_FOLDER))
    scorer = scoring.build_scorer()
    cap = score_judged(rows, scorer, out_dir, chunk_size)
    if verdict is not None:
        # What the figures come from: these scores judged by that verdict, as `score --verdict` records it.
        judging = CAPScorer(scorer.nli, scorer.statements, scorer.alpha, scorer.neutral_weight, scorer.variant, verdict)
        cap = dataclasses.replace(cap, hashcode=judging.identity_for(questions=True).hashcode())
    return agreement_card(rows, cap, verdict, thresholds_path, n_folds, n_resamples, seed, progress)
