"""The rule converter measured on every corpus the repository carries, as tables.

- ``probes``: tests/data/open_domain_probes.csv (hand-written; gold statements; per category);
- ``sample``: data/cap_statements_sample.csv (CAP-Statements; gold; per question type);
- ``gold``: tests/data/statement_gold.csv (issue 21's styles; gold; per style and split,
  ``tuned`` rows used while developing the rules, ``held_out`` rows never looked at);
- ``real``: tests/data/real_qa_answers.csv (real systems' answers to NQ and TriviaQA questions;
  no gold statement; per source and system);
- the statement corpus (tests/data/statement_corpus): ``statement_issues`` against the read
  judgements of each split, per code (``check_*_markdown``).

Each row is converted once (``rule_statements``) and checked (``statement_issues``); exact match
is against the gold statement where there is one. The ``*_markdown`` functions return the tables
of docs/rules.md (between ``<!-- generated: NAME -->`` markers; ``DOC_TABLES`` maps each NAME to
its function, and ``capqa.doctools.registry`` registers each for ``python -m capqa docs``). ``benchmarks/bench_rules.py`` prints them all.
"""

import functools
import hashlib
import json
from typing import Callable, Dict, List, NamedTuple, Optional

import pandas as pd

from capqa.common.paths import REPO_ROOT
from capqa.statements.check import ISSUES, statements_issues
from capqa.statements.rules import rule_statements
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
        outputs = rule_statements(list(frame.question), list(frame.answer))
    else:
        outputs = [converter(question, answer) for question, answer in zip(frame.question, frame.answer)]
    scored = frame.assign(output=outputs)
    scored["issues"] = statements_issues(list(frame.question), list(frame.answer), outputs)
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


# The corpora the rules were tuned on (of the gold corpus, its ``tuned`` rows only): their output
# is held by a golden digest per row (tests/statements/rules_golden.json), so that a change of the
# rules' statements without a bump of ``RULES_VERSION`` fails a test.
TUNED_CORPORA = ("probes", "sample", "gold")
GOLDEN_DIGITS = 12


def _digest(*texts: str) -> str:
    return hashlib.sha256(json.dumps(texts, ensure_ascii=False).encode("utf-8")).hexdigest()[:GOLDEN_DIGITS]


@functools.lru_cache(maxsize=None)
def tuned_outputs() -> pd.DataFrame:
    """The rule statements of every tuned row: ``corpus``, ``question``, ``answer``, ``output``,
    and ``key`` (a digest of corpus, question and answer) and ``digest`` (of the output)."""
    frames = []
    for name in TUNED_CORPORA:
        frame = pd.read_csv(REPO_ROOT / CORPORA[name].path, keep_default_na=False)
        if "split" in frame:
            frame = frame[frame.split == "tuned"]
        frames.append(frame[["question", "answer"]].assign(corpus=name))
    rows = pd.concat(frames, ignore_index=True)
    rows["output"] = rule_statements(list(rows.question), list(rows.answer))
    rows["key"] = [_digest(*row) for row in zip(rows.corpus, rows.question, rows.answer)]
    rows["digest"] = [_digest(output) for output in rows.output]
    return rows


def golden_record(kind: str, version: str, digests: Dict[str, str]) -> dict:
    """A golden record: ``{kind}_version``, the rows, one digest per row (repeated rows once, in key
    order) under ``"statements"`` or ``"issues"`` and one digest of them all."""
    rows = dict(sorted(digests.items()))
    return {f"{kind}_version": version, "rows": len(rows),
            "digest": _digest(*(f"{key}={value}" for key, value in rows.items())),
            "statements" if kind == "rules" else "issues": rows}


def rules_golden(outputs: pd.DataFrame, version: str) -> dict:
    """The golden record of ``tuned_outputs()`` under rules ``version``: one output digest per row."""
    return golden_record("rules", version, dict(zip(outputs.key, outputs.digest)))


def still_wrong(name: str, limit: int = 10, split: str = "tuned") -> pd.DataFrame:
    """Rows of corpus ``name`` whose statement differs from the gold (only ``split`` of the gold
    corpus: held-out rows are not to be read while tuning) or has an issue, for reading."""
    scored = scored_corpus(name)
    if "split" in scored:
        scored = scored[scored.split == split]
    wrong = scored[(scored.get("exact_match", 1.0) == 0) | (scored.any_issue == 1)]
    return wrong.head(limit)


# --- The statement check against the statement corpus's read judgements ----------------------
STATEMENT_CORPUS = TESTS_DATA / "statement_corpus"
CORPUS_SPLITS = ("tune", "heldout")
BAD_JUDGEMENTS = frozenset(("wrong", "ungrammatical", "fallback"))


@functools.lru_cache(maxsize=None)
def judged_split(split: str) -> pd.DataFrame:
    """The judged outputs of one split of tests/data/statement_corpus (``tune`` or ``heldout``),
    checked: ``question``, ``answer``, ``output`` (the converter's output the judgement read),
    ``judgement``, ``bad`` (wrong, ungrammatical or fallback), ``issues`` (``statements_issues``
    of the judged output) and ``current`` (whether today's converter still makes that output,
    so that the judgement covers it)."""
    judgements = pd.read_csv(STATEMENT_CORPUS / f"judgements_{split}.csv", keep_default_na=False)
    current = rule_statements(list(judgements.question), list(judgements.answer))
    issues = statements_issues(list(judgements.question), list(judgements.answer), list(judgements.output))
    return judgements.assign(bad=judgements.judgement.isin(BAD_JUDGEMENTS), issues=issues,
                             current=[made == output for made, output in zip(current, judgements.output)])


def check_golden(version: str) -> dict:
    """The golden record of the statement check under ``version``: the digest of the issue codes of
    every statement it is held to, keyed by (row, statement) so that a changed statement is a new
    row, not a changed code: each tuned row's rule statement (``tuned_outputs``) and each judged
    output of the statement corpus."""
    outputs = tuned_outputs()
    found = statements_issues(list(outputs.question), list(outputs.answer), list(outputs.output))
    codes = {_digest(key, output): issues for key, output, issues in zip(outputs.key, outputs.output, found)}
    for split in CORPUS_SPLITS:
        codes.update((_digest(split, row.id, row.output), row.issues) for row in judged_split(split).itertuples())
    return golden_record("check", version, {key: _digest(*issues) for key, issues in codes.items()})


def check_measure(frame: pd.DataFrame, code: Optional[str] = None) -> Dict[str, float]:
    """Recall of the bad outputs and precision of the flags, for any code or for ``code``."""
    flagged = [bool(issues) if code is None else code in issues for issues in frame.issues]
    hits = sum(flag and bad for flag, bad in zip(flagged, frame.bad))
    return {"flagged": sum(flagged), "flagged bad": hits, "recall": hits / max(int(frame.bad.sum()), 1),
            "precision": hits / sum(flagged) if sum(flagged) else float("nan")}


def check_splits_markdown() -> str:
    """Per split: judged outputs, how many of them today's converter still makes, the bad ones,
    and the check's recall and precision on them."""
    rows = {}
    for split in CORPUS_SPLITS + ("all",):
        frame = pd.concat([judged_split(name) for name in CORPUS_SPLITS]) if split == "all" else judged_split(split)
        measure = check_measure(frame)
        rows[split] = {"judged outputs": len(frame), "made today": int(frame.current.sum()), "bad": int(frame.bad.sum()),
                       "flagged": measure["flagged"], "flagged bad": measure["flagged bad"],
                       "recall": f"{measure['recall']:.3f}", "precision": f"{measure['precision']:.3f}"}
    return pd.DataFrame(rows).T.to_markdown()


def check_codes_markdown() -> str:
    """Per code that fires on the corpus, per split: statements flagged, the share of them judged
    bad (precision) and the share of the split's bad statements it flags (recall)."""
    frames = {split: judged_split(split) for split in CORPUS_SPLITS}
    rows = {}
    for code in ISSUES:
        measures = {split: check_measure(frame, code) for split, frame in frames.items()}
        if not any(measure["flagged"] for measure in measures.values()):
            continue
        row = {}
        for split, measure in measures.items():
            row[f"{split} flagged"] = measure["flagged"]
            row[f"{split} precision"] = "" if not measure["flagged"] else f"{measure['precision']:.2f}"
            row[f"{split} recall"] = f"{measure['recall']:.3f}"
        rows[f"`{code}`"] = row
    return pd.DataFrame(rows).T.to_markdown()


DOC_TABLES.update({"rules-check-splits": check_splits_markdown, "rules-check-codes": check_codes_markdown})


def corpus_benchmarks_markdown() -> str:
    """Per benchmark of the statement corpus, by split: rows, exact match of today's outputs
    against the hand-written references, and the read judgements of the outputs today's converter
    makes (an output no one has read yet counts as unjudged, never as ok)."""
    rows = []
    for split in CORPUS_SPLITS:
        corpus = pd.read_csv(STATEMENT_CORPUS / f"{split}.csv", keep_default_na=False, dtype=str)
        judged = judged_split(split).set_index("id")
        made = rule_statements(list(corpus.question), list(corpus.answer))
        corpus = corpus.assign(
            em=[exact_match(output, reference) for output, reference in zip(made, corpus.reference)],
            judgement=[judged.judgement[row] if judged.current[row] else "unjudged" for row in corpus.id])
        for benchmark, group in [*corpus.groupby("benchmark", sort=True), (f"all {split}", corpus)]:
            shares = group.judgement.value_counts(normalize=True)
            rows.append({"split": split, "benchmark": benchmark, "rows": len(group),
                         "exact match": f"{group.em.mean():.3f}",
                         **{name: f"{shares.get(name, 0.0):.1%}"
                            for name in ("ok", *sorted(BAD_JUDGEMENTS), "unjudged")}})
    return pd.DataFrame(rows).to_markdown(index=False)
