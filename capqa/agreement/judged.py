"""The judged rows: real questions, their gold answers, a QA system's answer and a person's judgement.

The package's are ``tests/data/real_qa_answers.csv`` (NQ301 of Kamalloo et al. 2023 and a sample of
EVOUNA of Wang et al. 2023; provenance in tests/data/README.md); a file of the user's with the same
columns works the same way. Columns: ``question``, ``gold`` (gold answers joined by " / "),
``answer`` and ``judgement`` (``correct`` / ``incorrect``; an empty cell is an unjudged row, left
out), and optionally ``id``, ``source`` and ``system``.

Answers to one question are not independent (they share its difficulty and its gold answers),
and the same question can come in two sources, so every row carries its question's key (the
question lower-cased, whitespace collapsed, without a closing "?"): the unit that the bootstrap
resamples and that the cross-validation folds keep together.
"""

import os
from dataclasses import dataclass
from typing import Optional, Sequence, Union

import numpy as np
import pandas as pd

from capqa.common.paths import REPO_ROOT
from capqa.common.quoting import quote_all
from capqa.common.tables import read_table, require_columns
from capqa.common.validation import check_positive_int, check_references, check_text_list
from capqa.monotonicity.bootstrap import cluster_codes

JUDGED_ANSWERS = REPO_ROOT / "tests" / "data" / "real_qa_answers.csv"
GOLD_SEPARATOR = " / "
JUDGEMENTS = {"correct": True, "incorrect": False}
REQUIRED_COLUMNS = ("question", "gold", "answer", "judgement")
# The name of a system the source does not name (NQ301's answers no system's output matches).
UNNAMED_SYSTEM = "(unattributed)"


@dataclass(frozen=True)
class JudgedRows:
    """The judged rows (``table``: the columns above, every row judged), each row's question
    key as a cluster code, and how many unjudged rows of the file were left out."""

    table: pd.DataFrame
    left_out: int = 0

    @property
    def human(self) -> np.ndarray:
        """True where the person judged the answer correct."""
        return self.table["judgement"].map(JUDGEMENTS).to_numpy(dtype=bool)

    @property
    def clusters(self) -> np.ndarray:
        """Each row's question as a cluster code (0 .. questions - 1)."""
        return cluster_codes(question_keys(self.table["question"]), "question")

    @property
    def golds(self) -> list:
        return [cell.split(GOLD_SEPARATOR) for cell in self.table["gold"]]

    @property
    def questions(self) -> int:
        return int(self.clusters.max(initial=-1)) + 1


def question_keys(questions: Sequence[str]) -> list:
    """The question each row answers, as one key: lower-cased, whitespace collapsed, no closing "?"."""
    return [" ".join(question.lower().split()).rstrip("? ") for question in questions]


def read_judged(path: Union[str, os.PathLike] = JUDGED_ANSWERS, sources: Optional[Sequence[str]] = None,
                questions_per_source: Optional[int] = None) -> JudgedRows:
    """The judged rows of ``path``, checked; ``sources``: only these; ``questions_per_source``:
    only the first N questions of each source (all their answers), for a quick look."""
    table = read_table(path)
    require_columns(table, list(REQUIRED_COLUMNS), f"`{path}`")
    table = table.assign(**{column: table[column] if column in table.columns else default
                            for column, default in (("id", [str(i + 1) for i in range(len(table))]),
                                                    ("source", os.path.basename(str(path))), ("system", ""))})
    table["system"] = table["system"].where(table["system"].str.strip() != "", UNNAMED_SYSTEM)
    unknown = sorted(set(table["judgement"]) - set(JUDGEMENTS) - {""})
    if unknown:
        raise ValueError(f"`{path}`: the `judgement` column holds {quote_all(unknown)}; expected "
                         f"{' or '.join(JUDGEMENTS)} (or an empty cell for an unjudged answer)")
    judged = table[table["judgement"] != ""]
    judged = _only_sources(judged, sources, path)
    if questions_per_source is not None:
        judged = _first_questions(judged, check_positive_int(questions_per_source, "questions_per_source"))
    if judged.empty:
        raise ValueError(f"`{path}` has no judged rows (a `judgement` of {' or '.join(JUDGEMENTS)}) to measure")
    check_text_list(list(judged["question"]), "question")
    check_text_list(list(judged["answer"]), "answer", allow_blank=True)
    check_references([cell.split(GOLD_SEPARATOR) for cell in judged["gold"]], "gold")
    return JudgedRows(judged.reset_index(drop=True), int((table["judgement"] == "").sum()))


def _only_sources(table: pd.DataFrame, sources: Optional[Sequence[str]], path) -> pd.DataFrame:
    if not sources:
        return table
    present = list(dict.fromkeys(table["source"]))
    missing = [source for source in sources if source not in present]
    if missing:
        raise ValueError(f"`sources` names {quote_all(missing)}, which `{path}` does not hold; its sources are "
                         f"{quote_all(present)}")
    return table[table["source"].isin(sources)]


def _first_questions(table: pd.DataFrame, count: int) -> pd.DataFrame:
    """The rows of the first ``count`` questions (file order) of each source."""
    keys = pd.Series(question_keys(table["question"]), index=table.index)
    kept = []
    for _, rows in table.groupby("source", sort=False):
        first = list(dict.fromkeys(keys[rows.index]))[:count]
        kept.append(rows[keys[rows.index].isin(first)])
    return pd.concat(kept).sort_index()


def describe_rows(rows: JudgedRows) -> str:
    """'3,789 judged answers to 736 questions from NQ301, EVOUNA-NQ and EVOUNA-TQ'."""
    sources = list(dict.fromkeys(rows.table["source"]))
    named = sources[0] if len(sources) == 1 else f"{', '.join(sources[:-1])} and {sources[-1]}"
    left_out = f" ({rows.left_out:,} unjudged rows left out)" if rows.left_out else ""
    return f"{len(rows.table):,} judged answers to {rows.questions:,} questions from {named}{left_out}"
