"""The rule converter held to the targets of docs/rules.md (issue 14), measured as
benchmarks/bench_rules.py measures them: the open-domain probe set and the CAP-Statements sample."""


import pandas as pd
import pytest

from capqa.statements.rules import naive_statement, rule_statement
from capqa.statements.rules.context import split_question
from capqa.statements.rules.lexicon import AUX_START, WH_START
from capqa.statements.rules.quality import one_sentence_with_answer, quality_table, score_converter

from support.data import TEST_DATA_DIR, data_path

PROBES = TEST_DATA_DIR / "open_domain_probes.csv"


@pytest.fixture(scope="module")
def probes():
    return pd.read_csv(PROBES, keep_default_na=False)


@pytest.fixture(scope="module")
def scored_probes(probes):
    return score_converter(probes, rule_statement), score_converter(probes, naive_statement)


@pytest.fixture(scope="module")
def scored_sample():
    frame = pd.read_csv(data_path("cap_statements_sample.csv"), keep_default_na=False)
    return score_converter(frame, rule_statement), score_converter(frame, naive_statement)


def test_probe_set_is_hand_written_open_domain_and_well_formed(probes):
    """At least 200 probes, unique ids, a gold statement that passes its own one-sentence check."""
    assert len(probes) >= 200 and probes.id.is_unique
    assert probes.category.nunique() >= 15
    for row in probes.itertuples():
        assert one_sentence_with_answer(row.statement, row.statement, row.answer_span), row.id


def test_probe_targets(scored_probes):
    rules, naive = scored_probes
    table = quality_table(rules, naive, "category")
    assert table.loc["overall", "EM rules"] >= 0.985  # its figure before issue 21
    assert table.loc["overall", "1-sent rules"] == 1.0
    assert table.loc["overall", "EM rules"] > table.loc["overall", "EM naive"]


def test_no_fallback_on_a_well_formed_question(scored_probes):
    """The form 'The answer to "..." is X.' is never used for a wh- or yes/no question."""
    rules, _ = scored_probes
    questions = [split_question(question).question for question in rules.question]
    well_formed = [bool(WH_START.match(q) or AUX_START.match(q)) and q.endswith("?") for q in questions]
    fallbacks = rules[[flag and bool(fallback) for flag, fallback in zip(well_formed, rules.fallback)]]
    assert sum(well_formed) >= 200
    assert fallbacks.empty, list(fallbacks.question)


def test_sample_targets(scored_sample):
    """No regression on CAP-Statements: EM >= 0.87 overall, >= 0.75 on short questions, and every
    statement one sentence with the answer."""
    rules, naive = scored_sample
    table = quality_table(rules, naive, "label_question_type")
    assert table.loc["overall", "EM rules"] >= 0.87
    assert table.loc["short_question", "EM rules"] >= 0.75
    assert table.loc["overall", "1-sent rules"] == 1.0


def test_gold_statements_of_issue_21s_styles():
    """The hand-written gold of tests/data/statement_gold.csv: exact match on the rows tuned on and
    on the held-out rows (never read while tuning), and few statements with an issue."""
    from capqa.doctools.rules_corpora import group_table, scored_corpus

    table = group_table(scored_corpus("gold"), ["split"])
    assert table.loc["tuned", "EM"] >= 0.95
    assert table.loc["held_out", "EM"] >= 0.85
    assert table.loc["overall", "any issue"] <= 0.02
    styles = group_table(scored_corpus("gold"), ["style"])
    assert set(styles.index) == {"llm", "negated", "imperative", "comparison", "exam", "factoid", "squad", "overall"}
    assert (styles.EM >= 0.8).all(), styles.EM


def test_real_systems_answers_rarely_give_a_statement_with_an_issue():
    """3,789 answers of real QA systems (NQ301, EVOUNA): at most 6.5 % of statements per source with
    any issue of statement_issues (5.0-5.9 % since the check reads each statement's parse, issue
    31; the string-only check saw 0.5 %), no semicolon join and at most one in a thousand echoed
    questions (verb-led queries: "joined mexico and the united states to form nafta")."""
    from capqa.doctools.rules_corpora import group_table, scored_corpus

    scored = scored_corpus("real")
    table = group_table(scored, ["source"])
    assert (table["any issue"] <= 0.065).all(), table
    assert not any("semicolon_join" in issues for issues in scored.issues)
    assert sum("echoed_question" in issues for issues in scored.issues) <= len(scored) / 1000


def test_rules_write_the_papers_premise_for_most_exam_questions():
    """Regression guard for the paper's own data (ARC-Easy, OpenBookQA, MMLU): on the distinct
    (question, gold answer) pairs of the CAP-Correctness sample, the rules' statement is the
    paper's statement model's premise (case and punctuation aside) at least as often as the
    regular-expression converter of version 1 did (60.5 %; version 2 fell to 52.3 %, version 4 reaches
    60.9 %, so the guard stays at version 1's figure)."""
    from capqa.doctools.paper_agreement import SAMPLE_CSV
    from capqa.statements.rules import rule_statements
    from capqa.statements.text_metrics import exact_match

    sample = pd.read_csv(SAMPLE_CSV, keep_default_na=False, dtype=str).drop_duplicates(["question", "gold_answer"])
    made = rule_statements(list(sample.question), list(sample.gold_answer))
    matches = [exact_match(statement, premise) for statement, premise in zip(made, sample.premise)]
    assert len(matches) > 1000
    assert sum(matches) / len(matches) >= 0.605
