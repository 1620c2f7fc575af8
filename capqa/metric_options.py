"""The metric's options and input conversion, shared by the evaluate module and the Space."""

from dataclasses import dataclass
from typing import Optional

from capqa.constants import (ALPHA, DEFAULT_NLI_MODEL, DEFAULT_NLI_REVISION, NEUTRAL_WEIGHT,
                             NLI_MAX_LENGTH)
from capqa.engine.devices import check_quantize, inference_dtype, resolve_device
from capqa.scorer import CAPScorer, check_variant, validate_inputs
from capqa.validation import check_folder, check_max_length, check_positive_int, check_unit_interval


@dataclass
class MetricOptions:
    """Validated init options of the CAP metric; ``build_scorer`` loads the models."""

    nli_model: Optional[str] = None
    nli_revision: Optional[str] = None
    statement_model: Optional[str] = None
    statement_revision: Optional[str] = None
    alpha: float = ALPHA
    neutral_weight: float = NEUTRAL_WEIGHT
    batch_size: int = 32
    max_tokens: Optional[int] = None
    device: str = "auto"
    max_length: int = NLI_MAX_LENGTH
    # NLI probabilities cached on disk (capqa.engine.cache); not evaluate's own ``cache_dir``.
    score_cache_dir: Optional[str] = None
    quantize: bool = False
    precision: str = "auto"
    variant: str = "cap"

    def __post_init__(self):
        for name in ("nli_model", "nli_revision", "statement_model", "statement_revision"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, str) or not value.strip()):
                raise ValueError(f"`{name}` must be a non-empty string (a Hub id or a local folder), got {value!r}")
        if self.nli_model is None:
            self.nli_model = DEFAULT_NLI_MODEL
        if self.nli_revision is None and self.nli_model == DEFAULT_NLI_MODEL:
            # The paper's numbers come from this exact commit of the default model.
            self.nli_revision = DEFAULT_NLI_REVISION
        self.alpha = check_unit_interval(self.alpha, "alpha")
        self.neutral_weight = check_unit_interval(self.neutral_weight, "neutral_weight")
        self.batch_size = check_positive_int(self.batch_size, "batch_size")
        self.max_length = check_max_length(self.max_length)
        if self.max_tokens is not None:
            self.max_tokens = check_positive_int(self.max_tokens, "max_tokens")
        device = resolve_device(self.device)
        # The engine's own checks, run now so that a bad option fails at load time.
        self.quantize = check_quantize(self.quantize, device, inference_dtype(device, self.precision))
        if self.score_cache_dir is not None:
            check_folder(self.score_cache_dir, "score_cache_dir")
        self.variant = check_variant(self.variant)

    def build_scorer(self):
        from capqa.engine.nli import NLIScorer
        from capqa.statements.generator import StatementGenerator

        nli = NLIScorer(self.nli_model, self.nli_revision, device=self.device, batch_size=self.batch_size,
                        max_length=self.max_length, max_tokens=self.max_tokens, quantize=self.quantize,
                        precision=self.precision)
        if self.score_cache_dir is not None:
            from capqa.engine.cache import ScoreCache

            nli.cache = ScoreCache.for_scorer(self.score_cache_dir, nli)
        # The statement model loads lazily: scoring statements directly never needs it.
        statements = _LazyStatements(lambda: StatementGenerator(
            self.statement_model, self.statement_revision, device=self.device, batch_size=self.batch_size))
        return CAPScorer(nli, statements, alpha=self.alpha, neutral_weight=self.neutral_weight,
                         variant=self.variant)


class _LazyStatements:
    """Builds the statement generator on first use."""

    def __init__(self, factory):
        self._factory, self._generator = factory, None

    def generate(self, questions, answers):
        if self._generator is None:
            self._generator = self._factory()
        return self._generator.generate(questions, answers)


def stored_batch(predictions, references, questions):
    """Validate user input and convert it to the metric's stored features.

    ``questions`` is stored as "" for every example when none are given (evaluate needs the
    same columns in every batch); ``stored_questions`` turns that back into None.
    """
    predictions, golds, questions = validate_inputs(predictions, references, questions)
    return {"predictions": predictions, "references": golds,
            "questions": questions if questions is not None else [""] * len(predictions)}


def stored_questions(questions):
    """The questions of stored batches, or None when the examples came without questions."""
    given = [bool(question) for question in questions]
    if not any(given):
        return None
    if not all(given):
        raise ValueError("`questions` were given for some batches but not others; "
                         "give questions for every example or for none")
    return list(questions)
