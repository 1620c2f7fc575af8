"""The metric's options and input conversion, shared by the evaluate module, the CLI and the Space.

Each option is described once, as a field of ``MetricOptions`` with its help text in the field's
metadata (``option(...)``). The evaluate docstring, the ``score`` command's flags and the README
table are all generated from those fields (the functions at the end of this module), so a new
option is one field here and nothing else. What produced a result is not read from the options
but from the loaded scorer (``CAPScorer.identity``, ``capqa.identity``).
"""

import argparse
import difflib
from dataclasses import dataclass, field, fields
from typing import (Any, Callable, Dict, Optional, Sequence, Tuple, Union, get_args,
                    get_origin)

from capqa.constants import (ALPHA, DEFAULT_NLI_MODEL, DEFAULT_NLI_REVISION, NEUTRAL_WEIGHT, NLI_MAX_LENGTH, RULES,
                             STATEMENT_MODEL_PUBLISHED, metric_space_id, statement_model_id)
from capqa.engine.devices import PRECISIONS, check_quantize, dtype_name, inference_dtype, resolve_device
from capqa.scorer import VARIANTS, CAPScorer, check_variant
from capqa.validation import check_bool, check_max_length, check_positive_int, check_unit_interval, validate_inputs
from capqa.verdicts.judge import check_verdict, parse_verdict_argument, resolve_verdict

# evaluate.load() passes these to every metric's __init__; they are evaluate's, not CAP's options.
EVALUATE_INIT_ARGUMENTS = ("config_name", "keep_in_memory", "cache_dir", "num_process", "process_id",
                           "seed", "experiment_id", "hash", "max_concurrent_cache_files", "timeout")


def option(default: Any, help: str, *, affects_scores: bool = True, choices: Optional[tuple] = None,
           parse: Optional[Callable[[str], Any]] = None) -> Any:
    """A ``MetricOptions`` field with its one description.

    affects_scores: False for options that change only speed, memory or where things are kept
        (a job may resume with other values of them); new options count as score-changing.
    parse: how a command-line flag's text becomes the option's value (default: its type).
    """
    return field(default=default, metadata={"help": help, "affects_scores": affects_scores, "choices": choices,
                                            "parse": parse})


@dataclass
class MetricOptions:
    """Validated init options of the CAP metric; ``build_scorer`` loads the models."""

    nli_model: Optional[str] = option(
        None, f"NLI classifier: a Hub id or a local folder, with exactly the labels entailment, neutral and "
              f"contradiction in config.id2label (a fourth label is refused, not renormalised); "
              f"default {DEFAULT_NLI_MODEL}")
    nli_revision: Optional[str] = option(
        None, "Hub revision of the NLI model; the default model is pinned to the paper's commit")
    statement_model: Optional[str] = option(
        None, f"'{RULES}' (the rule-based converter, no model), a Hub id or a local folder of a seq2seq model; "
              + (f"default {statement_model_id()}" if STATEMENT_MODEL_PUBLISHED else
                 f"default: the rule-based converter, while the statement model {statement_model_id()} is not "
                 f"published (said once in the log; the hashcode records the engine that ran)"))
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
        "auto", "dtype: 'auto' = NLI in bf16 on CUDA, float32 on CPU, the statement model in float32; "
                "'bfloat16' is ~2x faster on AMX CPUs (~1e-3 off); 'float16' needs a GPU (never for a T5 "
                "statement model, which stays float32)", choices=("auto", *PRECISIONS))
    variant: str = option("cap", "'cap', or 'plus' to add CAP+ (fitted for the default NLI model only)",
                          choices=VARIANTS)
    compact_attention: bool = option(
        True, "DeBERTa-v2/v3 relative attention computed over the positions a batch uses: faster, same scores "
              "up to float rounding (checked at load; any failure keeps transformers' own code); False keeps "
              "transformers' attention")
    verdict: Optional[Union[str, float, Dict[str, float]]] = option(
        None, "a policy ('strict', 'lenient', 'graded'), a threshold in [0, 1] or {class: credit}, or 'none' (None): "
              "no verdict. Adds per-example `correct` (bool), `accuracy` (their mean) and `verdict` (what correct "
              "means; under 'graded' it includes partial answers); with partial credit also `credit` and "
              "`mean_credit`",
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
        # The dtype is resolved here, once (a CPU without bf16 units is said once), and passed
        # on by name; the engine's own checks run now so that a bad option fails at load time.
        self._nli_dtype = inference_dtype(device, self.precision)
        self.quantize = check_quantize(self.quantize, device, self._nli_dtype)
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

    def check_nli_model(self) -> None:
        """Read the NLI model's config now (a small file; models load on first use) and refuse one
        that cannot serve, or whose position limit ``max_length`` exceeds: errors at load time."""
        from capqa.engine.model_checks import check_nli_config

        check_nli_config(self.nli_model, self.nli_revision, self.max_length)

    def build_scorer(self) -> CAPScorer:
        from capqa.engine.nli import NLIScorer
        from capqa.statements.generator import StatementGenerator

        precision = dtype_name(self._nli_dtype)
        nli = NLIScorer(self.nli_model, self.nli_revision, device=self.device, batch_size=self.batch_size,
                        max_length=self.max_length, max_tokens=self.max_tokens, quantize=self.quantize,
                        precision=precision, compact_attention=self.compact_attention,
                        score_cache_dir=self.score_cache_dir)
        # The statement model loads on first use: scoring statements directly never needs it.
        statements = StatementGenerator(self.statement_model, self.statement_revision, device=self.device,
                                        batch_size=self.batch_size, lazy=True,
                                        precision="auto" if self.precision == "auto" else precision)
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


# What ``compute()`` takes besides the inputs.
COMPUTE_ARGUMENTS = ("return_details",)


def check_compute_arguments(kwargs: Dict[str, Any]) -> None:
    """Refuse a ``compute()`` argument that is not one, naming where an option belongs instead."""
    for name in kwargs:
        if name in COMPUTE_ARGUMENTS:
            continue
        if name in option_names():
            raise TypeError(f"`{name}` is an option of the metric, not of compute(): give it to evaluate.load(), "
                            f"e.g. evaluate.load(\"cap-eval/cap\", {name}=...), and call compute() with the inputs")
        raise TypeError(f"compute() got an unexpected argument `{name}`; it takes predictions, references, "
                        f"questions and {', '.join(COMPUTE_ARGUMENTS)} (the metric's options go to evaluate.load())")


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
    group = parser.add_argument_group(f'metric options (as evaluate.load("{metric_space_id()}", **options))')
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
    lines = [f'Init options (evaluate.load("{metric_space_id()}", **options); an unknown option is refused):']
    for spec in fields(MetricOptions):
        lines.append(f"    {spec.name} (default {_default_text(spec)}): {spec.metadata.get('help', '')}")
    return "\n".join(lines) + "\n"


def options_markdown_table() -> str:
    """The options as the README's Markdown table."""
    lines = ["| option | default | meaning |", "|---|---|---|"]
    for spec in fields(MetricOptions):
        lines.append(f"| `{spec.name}` | `{_default_text(spec)}` | {spec.metadata.get('help', '')} |")
    return "\n".join(lines) + "\n"
