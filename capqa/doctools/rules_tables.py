"""Generated doc tables measured with the rules' own code and the test suite: docs/rules.md,
docs/statements.md and docs/testing.md (registered in ``capqa.doctools.registry``).

The rule converter and its measures (``capqa.statements.rules.quality``) belong to their room;
these functions only call them and lay the result out.
"""

import os
import re
import subprocess
import sys
from functools import lru_cache
from typing import Dict

import pandas as pd

from capqa.common.paths import DATA_DIR, REPO_ROOT
from capqa.statements.evaluation import evaluate_statements
from capqa.statements.rules import naive_statement, rule_statement
from capqa.statements.rules.quality import FALLBACK_OPENING, quality_table, score_converter
from capqa.statements.text_metrics import token_f1

SAMPLE = DATA_DIR / "cap_statements_sample.csv"
QUICK_SUBSET = "not slow and not browser"


@lru_cache(maxsize=1)
def _sample_quality() -> pd.DataFrame:
    """The rules beside the naive baseline on the CAP-Statements sample, per question type."""
    frame = pd.read_csv(SAMPLE, keep_default_na=False)
    return quality_table(score_converter(frame, rule_statement), score_converter(frame, naive_statement),
                         "label_question_type")


def statements_rules_table() -> str:
    """docs/statements.md: exact match and token F1 of the rules beside the naive baseline."""
    table = _sample_quality()
    lines = ["| question type | rows | EM rules | EM naive | token F1 rules | token F1 naive |",
             "|---|---:|---:|---:|---:|---:|"]
    for group, row in table.iterrows():
        lines.append(f"| {group} | {int(row['rows'])} | {row['EM rules']:.3f} | {row['EM naive']:.3f} | "
                     f"{row['F1 rules']:.3f} | {row['F1 naive']:.3f} |")
    return "\n".join(lines)


@lru_cache(maxsize=1)
def _rules_evaluation() -> dict:
    """What ``eval-statements --model rules --csv data/cap_statements_sample.csv`` measures."""
    rows = pd.read_csv(SAMPLE, keep_default_na=False).to_dict("records")
    return evaluate_statements("rules", rows, show_progress=False)[0]


def statements_rules_metrics() -> str:
    """docs/statements.md: what ``eval-statements --model rules`` prints overall."""
    scores = _rules_evaluation()
    return (f"`python -m capqa eval-statements --model rules --csv data/cap_statements_sample.csv` prints, "
            f"overall: exact match {scores['exact_match']:.3f}, token F1 {scores['token_f1']:.3f}, sacreBLEU "
            f"{scores['bleu']:.1f}, chrF {scores['chrf']:.1f}.")


def statements_premises() -> str:
    """docs/statements.md: the rules against the premises the paper's statement model made."""
    sample = pd.read_csv(DATA_DIR / "cap_correctness_sample.csv", keep_default_na=False)
    pairs = sample.drop_duplicates(["question", "gold_answer"])
    made = [rule_statement(question, answer) for question, answer in zip(pairs["question"], pairs["gold_answer"])]
    f1 = sum(token_f1(mine, premise) for mine, premise in zip(made, pairs["premise"])) / len(made)
    fallback = sum(statement.startswith(FALLBACK_OPENING) for statement in made) / len(made)
    return (f"On its {len(pairs):,} distinct question + gold answer pairs, the rule statements reach a mean token "
            f"F1 of {f1:.3f}; {fallback:.1%} of them fall back to the safe form.")


def _collected(marker: str) -> tuple:
    """(tests selected by ``-m marker``, all tests) as pytest collects them, in one collection."""
    command = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "-m", marker]
    done = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=900,
                          env=_environment())
    found = re.search(r"(\d+)/(\d+) tests collected", done.stdout)
    if not found:
        raise RuntimeError(f"pytest --collect-only printed no count:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return int(found.group(1)), int(found.group(2))


def _environment() -> Dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO_ROOT), "HF_HUB_OFFLINE": "1"}


def test_counts() -> str:
    """docs/testing.md: how many tests the quick subset and the whole suite hold."""
    selected, total = _collected(QUICK_SUBSET)
    return (f"The quick subset holds {selected:,} of the {total:,} tests "
            f"(`pytest --collect-only -q -m \"{QUICK_SUBSET}\"` counts them).")


def statement_card_rules_table() -> str:
    """statement_model_card/README.md: the rule converter per question type, as eval-statements
    reports it (exact match, token F1, sacreBLEU, chrF)."""
    scores = _rules_evaluation()
    lines = ["| question type | rows | exact match | token F1 | BLEU | chrF |", "|---|---:|---:|---:|---:|---:|"]
    for name, group in {**scores["by_question_type"], "overall": scores}.items():
        lines.append(f"| {name} | {group['rows']} | {group['exact_match']:.3f} | {group['token_f1']:.3f} | "
                     f"{group['bleu']:.2f} | {group['chrf']:.2f} |")
    return "\n".join(lines)
