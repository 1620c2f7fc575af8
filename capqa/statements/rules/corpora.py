"""The rule converter measured on every corpus the repository carries, as tables.

- ``probes``: tests/data/open_domain_probes.csv (hand-written; gold statements; per category);
- ``sample``: data/cap_statements_sample.csv (CAP-Statements; gold; per question type);
- ``gold``: tests/data/statement_gold.csv (issue 21's styles; gold; per style and split,
  ``tuned`` rows used while developing the rules, ``held_out`` rows never looked at);
- ``real``: tests/data/real_qa_answers.csv (real systems' answers to NQ and TriviaQA questions;
  no gold statement; per source and system).

Each row is converted once (``rule_statements``) and checked (``statement_issues``); exact match
is against the gold statement where there is one. The ``*_markdown`` functions return the tables
of docs/rules.md (between ``<!-- generated: NAME -->`` markers; ``DOC_TABLES`` maps each NAME to
its function, and ``capqa.dev.doc_tables`` registers each for ``python -m capqa docs``). ``benchmarks/bench_rules.py`` prints them all.
"""

import functools
from typing import Callable, Dict, List, NamedTuple, Optional

import pandas as pd

from capqa.paths import REPO_ROOT
from capqa.statements.check import ISSUES, statement_issues
from capqa.statements.text_metrics import exact_match

TESTS_DATA = REPO_ROOT / "tests" / "data"


class Corpus(NamedTuple):
    name: str
    path: str                   # relative to the repository root
    groups: List[str]           # the columns the tables group by
    has_gold: bool


CORPORA: Dict[str, Corpus] = {
    "probes": Corpus("probes", "tests/data/open_domain_probes.csv", ["category"], True),
    "sample": Corpus("sample", "data/cap_statements_sample.csv", ["label_question_type"], True),
    "gold": Corpus("gold", "tests/data/statement_gold.csv", ["style", "split"], True),
    "real": Corpus("real", "tests/data/real_qa_answers.csv", ["source", "system"], False),
}


def score_rows(frame: pd.DataFrame, converter: Optional[Callable] = None) -> pd.DataFrame:
    """``frame`` (question, answer and, optionally, statement) with the converter's ``output``,
    its ``issues`` (a list of codes), ``any_issue`` (0/1) and, with a gold statement,
    ``exact_match`` (0/1)."""
    if converter is None:
        from capqa.statements.rules import rule_statements

        outputs = rule_statements(list(frame.question), list(frame.answer))
    else:
        outputs = [converter(question, answer) for question, answer in zip(frame.question, frame.answer)]
    scored = frame.assign(output=outputs)
    scored["issues"] = [statement_issues(question, answer, output)
                        for question, answer, output in zip(frame.question, frame.answer, outputs)]
    scored["any_issue"] = [float(bool(issues)) for issues in scored.issues]
    if "statement" in frame:
        scored["exact_match"] = [exact_match(output, gold) for output, gold in zip(outputs, frame.statement)]
    return scored


@functools.lru_cache(maxsize=None)
def scored_corpus(name: str) -> pd.DataFrame:
    """The rows of corpus ``name`` (a key of ``CORPORA``), converted and checked (cached)."""
    corpus = CORPORA[name]
    frame = pd.read_csv(REPO_ROOT / corpus.path, keep_default_na=False)
    return score_rows(frame)


def issue_shares(scored: pd.DataFrame) -> Dict[str, float]:
    """The share of rows with each issue code (every code of ``ISSUES``) and with any."""
    rows = max(len(scored), 1)
    shares = {code: sum(code in issues for issues in scored.issues) / rows for code in ISSUES}
    return {"any": float(scored.any_issue.mean()) if len(scored) else 0.0, **shares}


def group_table(scored: pd.DataFrame, groups: List[str], codes: int = 4) -> pd.DataFrame:
    """Per group and overall: rows, exact match (with gold), the share with any issue, and the
    shares of the ``codes`` most frequent issue codes of the whole frame."""
    frequent = sorted(ISSUES, key=lambda code: -sum(code in issues for issues in scored.issues))[:codes]
    frequent = [code for code in frequent if any(code in issues for issues in scored.issues)]

    def summary(part: pd.DataFrame) -> dict:
        shares = issue_shares(part)
        row = {"rows": len(part)}
        if "exact_match" in part:
            row["EM"] = part.exact_match.mean()
        row["any issue"] = shares["any"]
        row.update({code: shares[code] for code in frequent})
        return row

    table = pd.DataFrame({key if isinstance(key, str) else " / ".join(map(str, key)): summary(part)
                          for key, part in scored.groupby(groups)}).T
    table.loc["overall"] = pd.Series(summary(scored))
    return table.astype({"rows": int})


def markdown(table: pd.DataFrame) -> str:
    """A table as Markdown: shares and exact match with three decimals, rows as integers."""
    formats = {column: ("{:d}" if column == "rows" else "{:.3f}") for column in table.columns}
    shown = table.copy()
    for column, form in formats.items():
        shown[column] = [form.format(int(value) if column == "rows" else value) for value in table[column]]
    return shown.to_markdown()


def real_issues_markdown() -> str:
    """Issue shares of the rule statements on the real systems' answers, per source."""
    return markdown(group_table(scored_corpus("real"), ["source"]))


def real_systems_markdown() -> str:
    """Issue shares on the real systems' answers, per source and system."""
    return markdown(group_table(scored_corpus("real"), ["source", "system"], codes=2))


def gold_markdown() -> str:
    """Exact match and issue shares on the hand-written gold statements, per style and split."""
    return markdown(group_table(scored_corpus("gold"), ["style", "split"], codes=2))


def gold_splits_markdown() -> str:
    """Exact match on the gold statements: the rows tuned on and the held-out rows."""
    return markdown(group_table(scored_corpus("gold"), ["split"], codes=2))


def probes_markdown() -> str:
    """Exact match and issue shares on the open-domain probe set, per category."""
    return markdown(group_table(scored_corpus("probes"), ["category"], codes=2))


def sample_markdown() -> str:
    """Exact match and issue shares on the CAP-Statements sample, per question type."""
    return markdown(group_table(scored_corpus("sample"), ["label_question_type"], codes=2))


def corpora_markdown() -> str:
    """One line per corpus: rows, exact match (where there is gold) and the share with any issue."""
    lines = {}
    for name, corpus in CORPORA.items():
        scored = scored_corpus(name)
        row = {"file": f"`{corpus.path}`", "rows": len(scored),
               "EM": f"{scored.exact_match.mean():.3f}" if corpus.has_gold else "",
               "any issue": f"{scored.any_issue.mean():.3f}"}
        lines[name] = row
    return pd.DataFrame(lines).T.to_markdown()


def issue_codes_markdown() -> str:
    """The codes of ``statement_issues`` and what each means."""
    return pd.DataFrame({"code": [f"`{code}`" for code in ISSUES], "meaning": list(ISSUES.values())}).to_markdown(
        index=False)


DOC_TABLES: Dict[str, Callable[[], str]] = {
    "rules-issue-codes": issue_codes_markdown,
    "rules-corpora": corpora_markdown,
    "rules-real-issues": real_issues_markdown,
    "rules-real-systems": real_systems_markdown,
    "rules-gold": gold_markdown,
    "rules-gold-splits": gold_splits_markdown,
    "rules-probes": probes_markdown,
    "rules-sample": sample_markdown,
}


def still_wrong(name: str, limit: int = 10, split: str = "tuned") -> pd.DataFrame:
    """Rows of corpus ``name`` whose statement differs from the gold (only ``split`` of the gold
    corpus: held-out rows are not to be read while tuning) or has an issue, for reading."""
    scored = scored_corpus(name)
    if "split" in scored:
        scored = scored[scored.split == split]
    wrong = scored[(scored.get("exact_match", 1.0) == 0) | (scored.any_issue == 1)]
    return wrong.head(limit)
