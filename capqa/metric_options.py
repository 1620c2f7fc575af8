"""The metric's options and input conversion, shared by the evaluate module, the CLI and the Space.

Each option is described once, as a field of ``MetricOptions`` with its help text in the field's
metadata (``option(...)``). The evaluate docstring, the ``score`` command's flags, the README
table and the ``hashcode`` of every result are all generated from those fields (the functions
at the end of this module), so a new option is one field here and nothing else.
"""

import argparse
import difflib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import (TYPE_CHECKING, Any, Callable, Dict, Optional, Sequence, Tuple, Union, get_args,
                    get_origin)

from capqa.constants import (ALPHA, DEFAULT_NLI_MODEL, DEFAULT_NLI_REVISION, NEUTRAL_WEIGHT,
                             NLI_MAX_LENGTH, RULES, statement_model_id)
from capqa.engine.devices import PRECISIONS, check_quantize, inference_dtype, resolve_device
from capqa.scorer import VARIANTS, CAPScorer, check_variant, validate_inputs
from capqa.validation import check_bool, check_max_length, check_positive_int, check_unit_interval
from capqa.verdicts.judge import check_verdict, parse_verdict_argument, resolve_verdict

if TYPE_CHECKING:
    from capqa.statements.generator import StatementGenerator

# evaluate.load() passes these to every metric's __init__; they are evaluate's, not CAP's options.
EVALUATE_INIT_ARGUMENTS = ("config_name", "keep_in_memory", "cache_dir", "num_process", "process_id",
                           "seed", "experiment_id", "hash", "max_concurrent_cache_files", "timeout")


def option(default: Any, help: str, *, affects_scores: bool = True, choices: Optional[tuple] = None,
           parse: Optional[Callable[[str], Any]] = None) -> Any:
    """A ``MetricOptions`` field with its one description.

    affects_scores: False for options that change only speed, memory or where things are kept
        (they stay out of the result's ``hashcode``); new options count as score-changing.
    parse: how a command-line flag's text becomes the option's value (default: its type).
    """
    return field(default=default, metadata={"help": help, "affects_scores": affects_scores, "choices": choices,
                                            "parse": parse})


@dataclass
class MetricOptions:
    """Validated init options of the CAP metric; ``build_scorer`` loads the models."""

    nli_model: Optional[str] = option(
        None, f"NLI classifier: a Hub id or a local folder (labels read from config.id2label); "
              f"default {DEFAULT_NLI_MODEL}")
    nli_revision: Optional[str] = option(
        None, "Hub revision of the NLI model; the default model is pinned to the paper's commit")
    statement_model: Optional[str] = option(
        None, f"'rules' (offline rule-based converter, no model), a Hub id or a local folder of a seq2seq "
              f"model; default {statement_model_id()}, which is not published yet: pass 'rules' or a folder")
    statement_revision: Optional[str] = option(None, "Hub revision of the statement model")
    alpha: float = option(ALPHA, "weight of the forward direction D(gold -> prediction), in [0, 1]")
    neutral_weight: float = option(NEUTRAL_WEIGHT, "lambda, the weight of P(neutral) in D, in [0, 1]")
    batch_size: int = option(32, "pairs per NLI batch (at most)", affects_scores=False)
    max_tokens: Optional[int] = option(
        None, "token budget per NLI batch (padded tokens); bounds memory on long texts", affects_scores=False)
    device: str = option("auto", "'auto' (cuda, then mps, then cpu), 'cpu', 'cuda', 'cuda:N' or 'mps'",
                         affects_scores=False)
    max_length: int = option(NLI_MAX_LENGTH, "NLI input tokens (premise + hypothesis); longer pairs are cut")
    score_cache_dir: Optional[str] = option(
        None, "folder where NLI probabilities are cached, so re-scoring is nearly free "
              "(not evaluate's own cache_dir)", affects_scores=False)
    quantize: bool = option(False, "CPU dynamic int8 quantisation of the NLI model: faster, scores ~1e-3 off")
    precision: str = option(
        "auto", "NLI dtype: 'auto' = bf16 on CUDA, float32 on CPU; 'bfloat16' is ~2x faster on AMX CPUs "
                "(~1e-3 off); 'float16' needs a GPU", choices=("auto", *PRECISIONS))
    variant: str = option("cap", "'cap', or 'plus' to add CAP+ (fitted for the default NLI model only)",
                          choices=VARIANTS)
    compact_attention: bool = option(
        True, "DeBERTa-v2/v3 relative attention computed over the positions a batch uses: faster, same scores "
              "up to float rounding (checked at load; any failure keeps transformers' own code); False keeps "
              "transformers' attention")
    verdict: Optional[Union[str, float, Dict[str, float]]] = option(
        None, "None; 'strict', 'lenient', 'graded', a threshold in [0, 1] or {class: credit}: adds per-example "
              "`correct` (bool), `accuracy` (their mean) and `verdict` (what correct means; under 'graded' it "
              "includes partial answers); with partial credit also `credit` and `mean_credit`",
        parse=parse_verdict_argument)

    def __post_init__(self) -> None:
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
            from capqa.engine.cache import check_cache_dir

            check_cache_dir(self.score_cache_dir)
        self.variant = check_variant(self.variant)
        self.compact_attention = check_bool(self.compact_attention, "compact_attention")
        self.verdict = check_verdict(self.verdict)

    @classmethod
    def split_init_arguments(cls, kwargs: Dict[str, Any],
                             passthrough: Tuple[str, ...] = EVALUATE_INIT_ARGUMENTS) -> Tuple["MetricOptions", dict]:
        """(the options in ``kwargs``, the ``passthrough`` arguments); anything else is refused.

        A typo such as ``nli_modle=`` must not load the defaults silently and fail later with an
        error about another model.
        """
        names = option_names()
        unknown = [name for name in kwargs if name not in names and name not in passthrough]
        if unknown:
            raise TypeError(_unknown_options_message(unknown, names))
        options = cls(**{name: value for name, value in kwargs.items() if name in names})
        return options, {name: value for name, value in kwargs.items() if name not in names}

    def score_settings(self) -> Dict[str, Any]:
        """What decides the scores, by option name: every field that affects scores, with each
        model's revision beside it and defaults resolved (the statement model's Hub id, the dtype)."""
        settings = {}
        for spec in fields(self):
            if not spec.metadata.get("affects_scores", True) or spec.name.endswith("_revision"):
                continue
            settings[spec.name] = getattr(self, spec.name)
        settings["statement_model"] = self.statement_model or statement_model_id()
        for model in ("nli_model", "statement_model"):
            revision = getattr(self, model.replace("_model", "_revision"), None)
            if settings[model] != RULES and not Path(settings[model]).is_dir():
                settings[model] = f"{settings[model]}@{revision or 'latest'}"
        if "precision" in settings:
            dtype = inference_dtype(resolve_device(self.device), self.precision)
            settings["precision"] = str(dtype).replace("torch.", "")
        return settings

    def hashcode(self) -> str:
        """One line that says exactly what produced a score (as bertscore's ``hashcode``)."""
        from capqa import __version__

        settings = "|".join(f"{name}={value}" for name, value in self.score_settings().items())
        return f"cap-eval={__version__}|{settings}"

    def build_scorer(self) -> CAPScorer:
        from capqa.engine.nli import NLIScorer
        from capqa.statements.generator import StatementGenerator

        nli = NLIScorer(self.nli_model, self.nli_revision, device=self.device, batch_size=self.batch_size,
                        max_length=self.max_length, max_tokens=self.max_tokens, quantize=self.quantize,
                        precision=self.precision, compact_attention=self.compact_attention)
        if self.score_cache_dir is not None:
            from capqa.engine.cache import ScoreCache

            nli.cache = ScoreCache.for_scorer(self.score_cache_dir, nli)
        # The statement model loads lazily: scoring statements directly never needs it.
        statements = _LazyStatements(lambda: StatementGenerator(
            self.statement_model, self.statement_revision, device=self.device, batch_size=self.batch_size))
        return CAPScorer(nli, statements, alpha=self.alpha, neutral_weight=self.neutral_weight,
                         variant=self.variant, verdict=resolve_verdict(self.verdict, self.variant))


def option_names() -> Tuple[str, ...]:
    """The metric's option names, in declaration order."""
    return tuple(spec.name for spec in fields(MetricOptions))


def _unknown_options_message(unknown, names):
    hints = []
    for name in unknown:
        close = difflib.get_close_matches(name, names, n=1)
        hints.append(f"{name!r}" + (f" (did you mean {close[0]!r}?)" if close else ""))
    evaluate_own = [name for name in EVALUATE_INIT_ARGUMENTS if name != "hash"]
    return (f"unknown CAP option(s) {', '.join(hints)}; the options are {', '.join(names)} "
            f"(evaluate's own {', '.join(evaluate_own)} are accepted too)")


class _LazyStatements:
    """Builds the statement generator on first use."""

    def __init__(self, factory: Callable[[], "StatementGenerator"]) -> None:
        self._factory, self._generator = factory, None

    def generate(self, questions: Sequence[str], answers: Sequence[str]) -> list:
        if self._generator is None:
            self._generator = self._factory()
        return self._generator.generate(questions, answers)


def stored_batch(predictions: Sequence[str], references: Sequence[Union[str, Sequence[str]]],
                 questions: Optional[Sequence[str]]) -> Dict[str, list]:
    """Validate user input and convert it to the metric's stored features.

    ``questions`` is stored as "" for every example when none are given (evaluate needs the
    same columns in every batch); ``stored_questions`` turns that back into None.
    """
    predictions, golds, questions = validate_inputs(predictions, references, questions)
    return {"predictions": predictions, "references": golds,
            "questions": questions if questions is not None else [""] * len(predictions)}


def stored_questions(questions: Sequence[str]) -> Optional[list]:
    """The questions of stored batches, or None when the examples came without questions."""
    given = [bool(question) for question in questions]
    if not any(given):
        return None
    if not all(given):
        raise ValueError("`questions` were given for some batches but not others; "
                         "give questions for every example or for none")
    return list(questions)


# --- The options' one description, rendered for each front end ---------------------------------

def _value_type(spec) -> type:
    """int, float, str or bool: the type an option takes, without Optional."""
    annotation = spec.type
    if get_origin(annotation) is Union:
        annotation = next(arg for arg in get_args(annotation) if arg is not type(None))
    return annotation if annotation in (int, float, str, bool) else str


def add_option_arguments(parser: argparse.ArgumentParser) -> None:
    """One ``--flag`` per option (``nli_model`` -> ``--nli-model``), with its help and default."""
    group = parser.add_argument_group("metric options (as evaluate.load(\"cap\", **options))")
    for spec in fields(MetricOptions):
        flag, value_type = "--" + spec.name.replace("_", "-"), _value_type(spec)
        help_text = spec.metadata.get("help", "").replace("%", "%%")  # argparse formats help with %
        if value_type is bool:
            group.add_argument(flag, action=argparse.BooleanOptionalAction, default=spec.default, help=help_text)
        else:
            group.add_argument(flag, type=spec.metadata.get("parse") or value_type, default=spec.default, help=help_text,
                               choices=spec.metadata.get("choices"))


def options_from_args(args: argparse.Namespace) -> MetricOptions:
    """The ``MetricOptions`` of parsed ``add_option_arguments`` flags (validated, as at load time)."""
    return MetricOptions(**{name: getattr(args, name) for name in option_names()})


def _default_text(spec) -> str:
    return "None" if spec.default is None else repr(spec.default)


def options_docstring() -> str:
    """The options part of the metric's kwargs description."""
    lines = ["Init options (evaluate.load(\"cap_metric.py\", **options); an unknown option is refused):"]
    for spec in fields(MetricOptions):
        lines.append(f"    {spec.name} (default {_default_text(spec)}): {spec.metadata.get('help', '')}")
    return "\n".join(lines) + "\n"


def options_markdown_table() -> str:
    """The options as the README's Markdown table."""
    lines = ["| option | default | meaning |", "|---|---|---|"]
    for spec in fields(MetricOptions):
        lines.append(f"| `{spec.name}` | `{_default_text(spec)}` | {spec.metadata.get('help', '')} |")
    return "\n".join(lines) + "\n"
