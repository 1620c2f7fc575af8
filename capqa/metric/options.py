"""The metric's options and input conversion, shared by the evaluate module, the CLI and the Space.

Each option is declared once, as a field of ``MetricOptions`` (``option(...)``): its default, its
constraints (``capqa.common.constraints``, built from the one list of each kind: ``POLICIES``,
``VARIANTS``, ``PRECISIONS``), its meaning, and whether it changes scores. ``OPTIONS`` holds the
declarations as ``capqa.common.settings.Setting`` objects, and everything else derives from them:
the check at load time and its error text, the ``score`` command's flags, the Space's
``CAP_<OPTION>`` variables, the evaluate docstring, the README's table and the test that every
option refuses a wrong value. A new option is one field here. What produced a result is not
read from the options but from the loaded scorer (``CAPScorer.identity``, ``capqa.records.identity``).
"""

import argparse
import numbers
import os
from dataclasses import dataclass, field, fields
from typing import Any, Dict, Optional, Sequence, Tuple, Union

from capqa.common.constants import (ALPHA, DEFAULT_NLI_MODEL, DEFAULT_NLI_REVISION, NEUTRAL_WEIGHT, NLI_MAX_LENGTH,
                                    PRECISIONS, RULES, STATEMENT_MODEL_PUBLISHED, VARIANTS, metric_space_id,
                                    statement_model_id)
from capqa.common.constraints import (Boolean, Interval, InvalidOptionError, PathText, Pattern, StrMapping, StrOptions,
                                      Synonym, Text)
from capqa.common.settings import Setting, add_arguments, docstring, markdown_table, unknown_names_message
from capqa.common.validation import MIN_MAX_LENGTH, validate_inputs
from capqa.engine.cache import check_cache_dir
from capqa.engine.model_checks import check_nli_config
from capqa.loading.pretrained import KWARGS_SET_BY_OPTIONS, LoadArguments
from capqa.metric.scorer import CAPScorer
from capqa.statements.generator import StatementGenerator
from capqa.statements.registry import ENGINES, engine_names, engine_options, resolve_engine_name
from capqa.statements.workers import MAX_AUTO_WORKERS
from capqa.verdicts.judge import resolve_verdict
from capqa.verdicts.policies import POLICIES, policy_credits

# evaluate.load() passes these to every metric's __init__; they are evaluate's, not CAP's options.
EVALUATE_INIT_ARGUMENTS = ("config_name", "keep_in_memory", "cache_dir", "num_process", "process_id",
                           "seed", "experiment_id", "hash", "max_concurrent_cache_files", "timeout")
_A_MODEL = "a Hub id or a local folder"
_A_REVISION = "a Hub revision (a branch, tag or commit)"
_KWARGS = ("a mapping {argument: value}", "JSON {argument: value} (inline or a file)")
_UNIT = Interval(numbers.Real, 0, 1)


def option(default: Any, constraints: tuple, meaning: str, *, affects_scores: bool = True,
           affects_nli: bool = False, default_text: Optional[str] = None) -> Any:
    """A ``MetricOptions`` field with its one declaration (``capqa.common.settings.Setting``).

    constraints: the values it takes (``None`` for None), as ``capqa.common.constraints`` objects.
    affects_scores: False for options that change only speed, memory or where things are kept (a
        job may resume with other values of them); new options count as score-changing.
    affects_nli: True for options that change the NLI probabilities (the score cache's key too).
    """
    declared = dict(default=default, constraints=constraints, meaning=meaning, affects_scores=affects_scores,
                    affects_nli=affects_nli, default_text=default_text)
    return field(default=default, metadata={"declared": declared})


@dataclass(repr=False)
class MetricOptions:
    """Validated init options of the CAP metric; ``build_scorer`` loads the models."""

    nli_model: Optional[str] = option(
        None, (PathText(_A_MODEL), None),
        "the NLI classifier, with exactly the labels entailment, neutral and contradiction in config.id2label "
        "(a fourth label is refused, not renormalised)", affects_nli=True, default_text=DEFAULT_NLI_MODEL)
    nli_revision: Optional[str] = option(
        None, (Text(_A_REVISION), None), "the NLI model's revision", affects_nli=True,
        default_text="the paper's commit for the default model, else the latest")
    statement_model: Optional[str] = option(
        None, (PathText(f"{RULES!r} (the rule-based converter, no model), {_A_MODEL} of a seq2seq model"), None),
        "what turns (question, answer) into the statements NLI compares (the hashcode records the engine that ran)",
        default_text=statement_model_id() if STATEMENT_MODEL_PUBLISHED else (
            f"the rule-based converter, while the statement model {statement_model_id()} is not published "
            f"(said once in the log)"))
    statement_revision: Optional[str] = option(None, (Text(_A_REVISION), None), "the statement model's revision",
                                               default_text="the latest")
    statement_engine: Optional[str] = option(
        None, (StrOptions(engine_names()), None),
        "the statement engine, by its registered name (docs/statements.md): 'rules', 'seq2seq' (`statement_model` "
        "a folder or Hub id) or 'openai' (`statement_model` the name an OpenAI-compatible endpoint serves)",
        default_text="from `statement_model`: 'rules' for 'rules' or none, else 'seq2seq'")
    statement_base_url: Optional[str] = option(
        None, (Text("a URL such as http://127.0.0.1:8000/v1"), None),
        "the openai engine's endpoint (chat completions)", affects_scores=False,
        default_text="OPENAI_BASE_URL, else api.openai.com")
    statement_api_key_env: str = option(
        "OPENAI_API_KEY", (Pattern(r"[A-Za-z_][A-Za-z0-9_]*", "an environment variable's name"),),
        "the environment variable holding the openai engine's API key (the key itself is never stored, logged "
        "or hashed; a local server needs none)", affects_scores=False)
    statement_timeout: float = option(60.0, (Interval(numbers.Real, 0, None, closed="neither"),),
                                      "seconds the openai engine waits for one answer", affects_scores=False)
    statement_concurrency: int = option(8, (Interval(numbers.Integral, 1, None),),
                                        "requests the openai engine has open at once (at most)", affects_scores=False)
    statement_max_retries: int = option(
        4, (Interval(numbers.Integral, 0, None),),
        "retries of a request that got 408/409/429/5xx or lost its connection, with exponential backoff",
        affects_scores=False)
    statement_workers: Optional[int] = option(
        None, (Interval(numbers.Integral, 0, None), None),
        "processes making the rule statements ahead of the NLI model (0: made in this process, between NLI "
        "batches); the statements are the same whatever the number", affects_scores=False,
        default_text=f"0 beside an NLI model on the CPU, else the cores the process has less one, at most "
                     f"{MAX_AUTO_WORKERS}")
    alpha: float = option(ALPHA, (_UNIT,), "weight of the forward direction D(gold -> prediction)")
    neutral_weight: float = option(NEUTRAL_WEIGHT, (_UNIT,), "lambda, the weight of P(neutral) in D")
    batch_size: int = option(32, (Interval(numbers.Integral, 1, None),), "pairs per NLI batch (at most)",
                             affects_scores=False)
    max_tokens: Optional[int] = option(
        None, (Interval(numbers.Integral, 1, None), None),
        "token budget per NLI batch (padded tokens); bounds memory on long texts", affects_scores=False,
        default_text="no budget")
    device: str = option(
        "auto", (Pattern(r"auto|cpu|mps|cuda(:[0-9]+)?", "'auto', 'cpu', 'cuda', 'cuda:N' or 'mps'",
                         also=("torch.device",)),),
        "where the models run; 'auto' is cuda, then mps, then cpu", affects_scores=False)
    max_length: int = option(NLI_MAX_LENGTH, (Interval(numbers.Integral, MIN_MAX_LENGTH, None),),
                             "NLI input tokens (premise + hypothesis); longer pairs are cut", affects_nli=True)
    score_cache_dir: Optional[str] = option(
        None, (PathText("a folder", check=check_cache_dir), None),
        "folder where NLI probabilities and the openai engine's statements are cached, so re-scoring is nearly "
        "free and never asks the endpoint twice (not evaluate's own cache_dir)",
        affects_scores=False, default_text="no cache")
    quantize: bool = option(False, (Boolean(),),
                            "CPU dynamic int8 quantisation of the NLI model: faster, scores ~1e-3 off", affects_nli=True)
    precision: str = option(
        "auto", (StrOptions(("auto", *PRECISIONS)),),
        "dtype: 'auto' = NLI in bf16 on CUDA, float32 on CPU, the statement model in float32; 'bfloat16' is ~2x "
        "faster on AMX CPUs (~1e-3 off); 'float16' needs a GPU (never for a T5 statement model, which stays "
        "float32)", affects_nli=True)
    variant: str = option("cap", (StrOptions(VARIANTS),), "'plus' adds CAP+ (fitted for the default NLI model only)")
    compact_attention: bool = option(
        True, (Boolean(),),
        "DeBERTa-v2/v3 relative attention computed over the positions a batch uses: faster, same scores up to "
        "float rounding (checked at load; any failure keeps transformers' own code); False keeps transformers' "
        "attention", affects_nli=True)
    verdict: Optional[Union[str, float, Dict[str, float]]] = option(
        None, (None, Synonym("none", None), StrOptions(tuple(POLICIES)), _UNIT,
               StrMapping("a mapping {class: credit}", "JSON {class: credit} (inline or a file)", check=policy_credits)),
        "a policy, a threshold or credits per class; None ('none') adds no verdict. Adds per-example `correct` "
        "(bool), `accuracy` (their mean) and `verdict` (what correct means; under 'graded' it includes partial "
        "answers); with partial credit also `credit` and `mean_credit`", default_text="no verdict")
    local_files_only: bool = option(
        False, (Boolean(),), "load the models from the Hugging Face cache only, never asking the Hub "
                             "(from_pretrained's local_files_only; HF_HUB_OFFLINE=1 does it for every library)",
        affects_scores=False)
    model_cache_dir: Optional[str] = option(
        None, (PathText("a folder"), None),
        "the Hugging Face cache the models are read from and downloaded to (from_pretrained's cache_dir; "
        "evaluate's own cache_dir holds its result files)", affects_scores=False, default_text="HF_HUB_CACHE")
    trust_remote_code: bool = option(
        False, (Boolean(),),
        "let a model's own Python code (its config's auto_map) run: off unless set, since that code runs on this "
        "machine with your rights; a model that needs it is refused with a message naming this option",
        affects_nli=True)
    model_kwargs: Optional[Dict[str, Any]] = option(
        None, (StrMapping(*_KWARGS, refused_keys=KWARGS_SET_BY_OPTIONS), None),
        "keyword arguments passed straight to the NLI and statement models' from_pretrained, e.g. "
        "{\"attn_implementation\": \"eager\"} (in the hashcode)", affects_nli=True, default_text="none")
    tokenizer_kwargs: Optional[Dict[str, Any]] = option(
        None, (StrMapping(*_KWARGS, refused_keys=KWARGS_SET_BY_OPTIONS), None),
        "keyword arguments passed straight to the tokenizers' from_pretrained (in the hashcode)", affects_nli=True,
        default_text="none")

    def __post_init__(self) -> None:
        for setting in OPTIONS:  # the one check of every option, at the boundary
            setattr(self, setting.name, setting.validate(getattr(self, setting.name)))
        self._check_engine_options()
        if self.nli_model is None:
            self.nli_model = DEFAULT_NLI_MODEL
        if self.nli_revision is None and self.nli_model == DEFAULT_NLI_MODEL:
            # The paper's numbers come from this exact commit of the default model.
            self.nli_revision = DEFAULT_NLI_REVISION
        # Deferred: torch, which resolving the device loads (importing the options stays light).
        from capqa.loading.devices import check_quantize, inference_dtype, resolve_device

        device = resolve_device(self.device)
        # The dtype is resolved here, once (a CPU without bf16 units is said once), and passed
        # on by name; the engine's own checks run now so that a bad option fails at load time.
        self._nli_dtype = inference_dtype(device, self.precision)
        self.quantize = check_quantize(self.quantize, device, self._nli_dtype)

    def _check_engine_options(self) -> None:
        """Refuse an engine's own option given for another engine (it would be silently unused)."""
        engine = resolve_engine_name(self.statement_engine, self.statement_model)
        defaults = {setting.name: setting.default for setting in OPTIONS}
        for name in engine_options():
            if name not in ENGINES[engine].options and getattr(self, name) != defaults[name]:
                users = [spec.name for spec in ENGINES.values() if name in spec.options]
                raise InvalidOptionError(f"`{name}` is an option of the {' / '.join(users)} statement engine, but "
                                         f"the statement engine is {engine!r}: set `statement_engine` too")
        if engine != RULES and ENGINES[engine].takes_model and self.statement_model in (None, RULES):
            raise InvalidOptionError(f"`statement_engine={engine!r}` needs `statement_model`: "
                                     f"{ENGINES[engine].needs}")

    def engine_settings(self) -> Dict[str, Any]:
        """{option: value} of the options the statement engine reads for itself."""
        engine = resolve_engine_name(self.statement_engine, self.statement_model)
        return {name: getattr(self, name) for name in ENGINES[engine].options}

    def __repr__(self) -> str:
        """The options that differ from their defaults, local folders by their name only."""
        changed = [f"{name}={_shown(value)}" for name, value in self.changed().items()]
        return f"MetricOptions({', '.join(changed)})"

    def changed(self) -> Dict[str, Any]:
        """{name: value} of the options that differ from their defaults (the default NLI model's
        pinned commit counts as its default)."""
        defaults = {setting.name: setting.default for setting in OPTIONS}
        defaults.update(nli_model=DEFAULT_NLI_MODEL)
        if self.nli_model == DEFAULT_NLI_MODEL:
            defaults.update(nli_revision=DEFAULT_NLI_REVISION)
        return {name: getattr(self, name) for name in defaults if getattr(self, name) != defaults[name]}

    def load_arguments(self) -> LoadArguments:
        """What every from_pretrained call gets besides a model's name and revision."""
        return LoadArguments(self.local_files_only, self.model_cache_dir, self.trust_remote_code,
                             self.model_kwargs or {}, self.tokenizer_kwargs or {})

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
        check_nli_config(self.nli_model, self.nli_revision, self.max_length, self.load_arguments())

    def build_scorer(self) -> CAPScorer:
        # Deferred: torch, which the engines and the device code load (importing the options stays light).
        from capqa.engine.nli import NLIScorer
        from capqa.loading.devices import dtype_name

        precision = dtype_name(self._nli_dtype)
        nli = NLIScorer(self.nli_model, self.nli_revision, device=self.device, batch_size=self.batch_size,
                        max_length=self.max_length, max_tokens=self.max_tokens, quantize=self.quantize,
                        precision=precision, compact_attention=self.compact_attention,
                        score_cache_dir=self.score_cache_dir, load=self.load_arguments())
        # The statement model loads on first use: scoring statements directly never needs it.
        statements = StatementGenerator(self.statement_model, self.statement_revision, device=self.device,
                                        batch_size=self.batch_size, lazy=True,
                                        precision="auto" if self.precision == "auto" else precision,
                                        load=self.load_arguments(), engine=self.statement_engine,
                                        settings=self.engine_settings(), cache_dir=self.score_cache_dir)
        return CAPScorer(nli, statements, alpha=self.alpha, neutral_weight=self.neutral_weight,
                         variant=self.variant, verdict=resolve_verdict(self.verdict, self.variant))


OPTIONS: Tuple[Setting, ...] = tuple(Setting(spec.name, **spec.metadata["declared"]) for spec in fields(MetricOptions))


def option_names() -> Tuple[str, ...]:
    """The metric's option names, in declaration order."""
    return tuple(setting.name for setting in OPTIONS)


def _unknown_options_message(unknown, names):
    evaluate_own = [name for name in EVALUATE_INIT_ARGUMENTS if name != "hash"]
    return (f"{unknown_names_message(unknown, names, 'CAP option')}; the options are {', '.join(names)} "
            f"(evaluate's own {', '.join(evaluate_own)} are accepted too)")


def _shown(value: Any) -> str:
    """An option's value in a repr: a path by its last part only (no folder of this machine)."""
    if isinstance(value, str) and (os.path.isabs(value) or value.startswith((".", "~")) or os.path.isdir(value)):
        return f"<folder {os.path.basename(os.path.normpath(os.path.expanduser(value)))!r}>"
    return repr(value)


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


# --- The options' one declaration, rendered for each front end ---------------------------------

def add_option_arguments(parser: argparse.ArgumentParser) -> None:
    """One ``--flag`` per option (``nli_model`` -> ``--nli-model``), with its help, choices and default."""
    add_arguments(parser.add_argument_group(f'metric options (as evaluate.load("{metric_space_id()}", **options))'),
                  OPTIONS)


def options_from_args(args: argparse.Namespace) -> MetricOptions:
    """The ``MetricOptions`` of parsed ``add_option_arguments`` flags (validated, as at load time)."""
    return MetricOptions(**{name: getattr(args, name) for name in option_names()})


def options_docstring() -> str:
    """The options part of the metric's kwargs description."""
    return docstring(OPTIONS, f'Init options (evaluate.load("{metric_space_id()}", **options); an unknown option '
                              f'is refused):')


def options_markdown_table() -> str:
    """The options as the README's Markdown table."""
    return markdown_table(OPTIONS)
