"""Every constant of the CAP paper and of the project's published artifacts, in one place.

"How Correct Is Your Answer? A Semantic Correctness Framework for Open QA Evaluation"
(EMNLP 2026 Findings). Nothing else in the package hard-codes these values.
"""

import os
import re

# --- The CAP formula -------------------------------------------------------------------------
#   D(a -> b) = P_entail(a -> b) + NEUTRAL_WEIGHT * P_neutral(a -> b)
#   CAP       = ALPHA * D(gold -> pred) + (1 - ALPHA) * D(pred -> gold)
ALPHA = 0.85
NEUTRAL_WEIGHT = 0.30

# --- NLI model -------------------------------------------------------------------------------
DEFAULT_NLI_MODEL = "cross-encoder/nli-deberta-v3-large"
DEFAULT_NLI_REVISION = "bab4bc7178836f731dcfd18c06ca9def0a137712"
NLI_MAX_LENGTH = 512
# Canonical names of the three NLI classes; models spell them differently, see capqa.engine.nli.
NLI_LABELS = ("entailment", "neutral", "contradiction")

# --- Statement model -------------------------------------------------------------------------
STATEMENT_TEMPLATE = "question: {question} answer: {answer}"
STATEMENT_MAX_INPUT_TOKENS = 128
STATEMENT_TRAIN_MAX_LENGTH = 512
STATEMENT_MAX_NEW_TOKENS = 128
STATEMENT_NUM_BEAMS = 4
STATEMENT_BASE_MODEL = "google/mt5-small"
# Pin a commit id here before a training run that must be reproduced bit for bit; the Hub
# cannot be reached from the machines this project is built on, so none could be verified.
STATEMENT_BASE_REVISION = "main"
# The value of ``statement_model`` that selects the offline rule-based converter.
RULES = "rules"

# --- Correctness taxonomy (most correct first) ------------------------------------------------
LABELS = (
    "exact",
    "equivalent",
    "alternative_correct",
    "overinclusive_valid",
    "partial",
    "overinclusive_invalid",
    "invalid",
    "contradictory",
)
SEVERITY = {
    "exact": 6,
    "equivalent": 6,
    "alternative_correct": 6,
    "overinclusive_valid": 5,
    "partial": 4,
    "overinclusive_invalid": 2,
    "invalid": 1,
    "contradictory": 0,
}
# What each class means, completing "the answer is ...".
CLASS_DEFINITIONS = {
    "exact": "the gold answer, word for word",
    "equivalent": "the gold answer's meaning in other words",
    "alternative_correct": "a different answer that is also correct",
    "overinclusive_valid": "the gold answer plus extra information that is true",
    "partial": "only part of the gold answer",
    "overinclusive_invalid": "the gold answer plus extra information that is false",
    "invalid": "a wrong answer",
    "contradictory": "the opposite of the gold answer",
}
HARD_PAIRS = (
    ("equivalent", "partial"),
    ("overinclusive_valid", "partial"),
    ("overinclusive_valid", "overinclusive_invalid"),
    ("alternative_correct", "invalid"),
)
# Scores are rounded to this many decimals before two answers are compared.
COMPARISON_DECIMALS = 10

# --- Published Hub artifacts -------------------------------------------------------------------
_DEFAULT_HUB_NAMESPACE = "cap-eval"
# The package's environment variables besides the Space's settings (``CAP_<OPTION>``, read by
# ``capqa.space.settings``): a ``CAP_*`` variable that is none of them is named as a likely typo.
HUB_NAMESPACE_VARIABLE = "CAP_HUB_NAMESPACE"
HARNESS_OPTIONS_VARIABLE = "CAP_HARNESS_OPTIONS"
OTHER_VARIABLES = (HUB_NAMESPACE_VARIABLE, HARNESS_OPTIONS_VARIABLE)


# A Hub user or organisation name, as huggingface_hub's repo-id check allows it: ASCII letters,
# digits, '-', '_' and '.', starting and ending with a letter or digit, no '--' or '..', <= 96.
_HUB_NAMESPACE = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._-]{0,94}[A-Za-z0-9])?")


def hub_namespace() -> str:
    """The Hub namespace of the project's artifacts; ``CAP_HUB_NAMESPACE`` overrides it, and must
    be a Hub user or organisation name (every repo id of the project is built from it)."""
    namespace = os.environ.get(HUB_NAMESPACE_VARIABLE, "").strip() or _DEFAULT_HUB_NAMESPACE
    if not _HUB_NAMESPACE.fullmatch(namespace) or "--" in namespace or ".." in namespace:
        raise ValueError(f"`CAP_HUB_NAMESPACE` must be a Hub user or organisation name (ASCII letters, digits, "
                         f"'-', '_' and '.', starting and ending with a letter or digit, at most 96 characters), "
                         f"got {namespace[:100]!r}")
    return namespace


def statement_model_id() -> str:
    return f"{hub_namespace()}/cap-statement-mt5-small"


# Whether `publish model` has uploaded the statement model to ``statement_model_id()``. Until it
# has, the metric, the command line and the Space make their statements with the rule-based
# converter by default (``default_statement_model``; the hashcode records the engine that ran).
STATEMENT_MODEL_PUBLISHED = False


def default_statement_model() -> str:
    """The statement engine used when none is given: the published statement model once
    ``STATEMENT_MODEL_PUBLISHED`` says so (read at each call: the one switch), the rule-based
    converter until then."""
    return statement_model_id() if STATEMENT_MODEL_PUBLISHED else RULES


def correctness_dataset_id() -> str:
    return f"{hub_namespace()}/CAP-Correctness"


def statements_dataset_id() -> str:
    return f"{hub_namespace()}/CAP-Statements"


def metric_space_id() -> str:
    return f"{hub_namespace()}/cap"


CITATION = """\
@inproceedings{cap2026,
    title     = {How Correct Is Your Answer? A Semantic Correctness Framework for Open {QA} Evaluation},
    booktitle = {Findings of the Association for Computational Linguistics: EMNLP 2026},
    year      = {2026},
    publisher = {Association for Computational Linguistics},
}
"""

# Which statements the paper's figures and this package's calibration rest on: CAP's 77.70 %, the
# CAP+ and relation models and the verdict thresholds were all measured or fitted on the NLI
# probabilities of the paper's statement model's statements (data/paper_scores.csv), not on the
# statements a run with the rule-based converter makes. OUT.summary.json records it.
CALIBRATION_STATEMENTS = {
    "engine": "the paper's statement model (mT5-small fine-tuned on CAP-Statements; not published)",
    "data": "data/paper_scores.csv: the CAP-Correctness validation rows (CAP+, relation, verdict thresholds) "
            "and test rows (77.70 % pairwise accuracy)",
    "meaning": "the paper's figures, CAP+ and the verdict thresholds assume that engine's statements; a run "
               "whose hashcode names other statements (e.g. statements=rules(...)) is scored on statements "
               "that differ from them (docs/plus.md)",
}

# The paper's COMET row (test split, all datasets), as reported: no per-row COMET scores were
# published, so it cannot be recomputed from paper_scores.csv.
PAPER_COMET_PAIRWISE_ACCURACY = 0.6110
PAPER_COMET_MEAN_VIOLATIONS = 9

# The relation's five groups of the eight classes, most correct first; each class belongs to exactly one.
RELATION_GROUPS = {
    "correct": ("exact", "equivalent", "alternative_correct"),
    "overinclusive_valid": ("overinclusive_valid",),
    "partial": ("partial",),
    "overinclusive_invalid": ("overinclusive_invalid",),
    "wrong": ("invalid", "contradictory"),
}

# The dtypes a model may compute in (`precision`), besides "auto".
PRECISIONS = ("float32", "bfloat16", "float16")
# The metric's variants (`variant`): "cap", the paper's CAP; "plus", also CAP+ (capqa.plus.calibration).
VARIANTS = ("cap", "plus")
