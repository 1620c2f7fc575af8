"""What the Space runs with, read from the environment, and how it names its models in public.

The page, the About tab and the API show model *names*: a Hub id as it is, a local folder by
its folder name only. Server paths (model folders, the Hugging Face cache, the home folder) are
replaced in every message that may carry them.
"""

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Optional

from capqa.constants import DEFAULT_NLI_MODEL, RULES, STATEMENT_MODEL_PUBLISHED, statement_model_id
from capqa.metric_options import MetricOptions
from capqa.paths import DATA_DIR, REPO_ROOT
from capqa.quoting import quote

# The published per-row scores: beside app.py in the assembled Space, else the repo's data/.
BENCHMARK_SCORES_NAME = "paper_scores.csv"
DEFAULT_BENCHMARK_SCORES = next(
    (path for path in (REPO_ROOT / BENCHMARK_SCORES_NAME, DATA_DIR / BENCHMARK_SCORES_NAME) if path.is_file()),
    DATA_DIR / BENCHMARK_SCORES_NAME)
SPACE_VARIANT = "plus"  # the page shows CAP+ beside CAP
# The verdict policies the Space offers (CAP_VERDICT); "none" adds no verdict.
VERDICT_CHOICES = ("none", "strict", "lenient", "graded")
_TRUE, _FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


def is_local_path(name: str) -> bool:
    """True for a model given as a folder rather than a Hub id."""
    return os.path.isabs(name) or name.startswith((".", "~")) or os.path.isdir(name)


def public_model_name(name: str) -> str:
    """A Hub id as it is; a local folder as "local folder `name`", without its path."""
    if name == RULES or not is_local_path(name):
        return f"`{name}`"
    return f"local folder `{Path(name).expanduser().name or name}`"


@dataclass(frozen=True)
class SpaceSettings:
    """What the Space runs with; ``from_environ`` reads the variables of ``ENVIRONMENT``."""

    nli_model: str = DEFAULT_NLI_MODEL
    nli_revision: Optional[str] = None
    statement_model: Optional[str] = None
    statement_revision: Optional[str] = None
    device: str = "auto"
    benchmark_scores: Path = DEFAULT_BENCHMARK_SCORES
    # CAP_VERDICT (none/strict/lenient/graded) and CAP_COMPACT_ATTENTION (default on).
    verdict: Optional[str] = None
    compact_attention: bool = True

    @classmethod
    def from_environ(cls, environ: Optional[Mapping[str, str]] = None) -> "SpaceSettings":
        environ = os.environ if environ is None else environ
        return cls(**{variable.field: variable.parse(environ.get(variable.name, "").strip() or None)
                      for variable in ENVIRONMENT})

    @property
    def statement_model_name(self) -> str:
        return self.statement_model or statement_model_id()

    def metric_options(self) -> MetricOptions:
        """The metric's options (validated, as at load time)."""
        return MetricOptions(nli_model=self.nli_model, nli_revision=self.nli_revision,
                             statement_model=self.statement_model,
                             statement_revision=self.statement_revision, device=self.device,
                             variant=SPACE_VARIANT, verdict=self.verdict,
                             compact_attention=self.compact_attention)

    def describe(self) -> str:
        """The models in public words (Markdown), never a server path."""
        statements = ("the rule-based converter (`rules`)" if self.statement_model == RULES
                      else public_model_name(self.statement_model_name))
        features = "".join((f", verdict `{self.verdict}`" if self.verdict else "",
                            "" if self.compact_attention else ", stock attention"))
        return (f"NLI model {public_model_name(self.nli_model)}, statements from {statements}, "
                f"device `{self.device}`{features}")

    def redact(self, text: str) -> str:
        """``text`` with the model folders, the Hub cache and the home folder named, not shown."""
        replacements = {}
        for model in (self.nli_model, self.statement_model):
            if model and model != RULES and is_local_path(model):
                name = public_model_name(model).replace("`", "")
                replacements[str(Path(model).expanduser().resolve())] = name
                replacements[model] = name
        replacements.update({folder: label for folder, label in _private_folders().items() if folder})
        # Longest first: a model folder inside the home folder keeps its own name.
        for path in sorted(replacements, key=len, reverse=True):
            text = text.replace(path, replacements[path])
        return text


def default_statement_model() -> Optional[str]:
    """The Space's statement engine when ``CAP_STATEMENT_MODEL`` is unset: the published model
    (None: the metric's default), or the rule-based converter while it is not published."""
    return None if STATEMENT_MODEL_PUBLISHED else RULES


def _verdict(text: Optional[str]) -> Optional[str]:
    if text is None or text.lower() == "none":
        return None
    if text.lower() not in VERDICT_CHOICES:
        raise ValueError(f"CAP_VERDICT must be one of {', '.join(VERDICT_CHOICES)}, got {quote(text)}")
    return text.lower()


def _flag(variable: str, default: bool) -> Callable[[Optional[str]], bool]:
    def parse(text: Optional[str]) -> bool:
        if text is None:
            return default
        if text.lower() in _FALSE:
            return False
        if text.lower() in _TRUE:
            return True
        raise ValueError(f"{variable} must be one of {', '.join(_TRUE + _FALSE)}, got {quote(text)}")

    return parse


def _as_given(text: Optional[str]) -> Optional[str]:
    return text


@dataclass(frozen=True)
class EnvironmentVariable:
    """One ``CAP_*`` variable: the ``SpaceSettings`` field it sets, its meaning and default in
    words, how its text is read (``parse``: None when unset or blank) and how its value is shown."""

    name: str
    field: str
    meaning: str
    default: str
    parse: Callable[[Optional[str]], Any] = _as_given
    show: Callable[[Any], str] = lambda value: "(default)" if value is None else f"`{value}`"


def _shown_model(name: Optional[str]) -> str:
    return "(the metric's default)" if name is None else public_model_name(name)


# Every setting of the Space, once: from_environ reads these, and the About tab and docs/space.md
# list them (``settings_markdown``), so a new setting is one entry here.
ENVIRONMENT = (
    EnvironmentVariable("CAP_NLI_MODEL", "nli_model", "NLI model: a Hub id or a local folder",
                        f"`{DEFAULT_NLI_MODEL}`", lambda text: text or DEFAULT_NLI_MODEL, _shown_model),
    EnvironmentVariable("CAP_NLI_REVISION", "nli_revision", "Hub revision of the NLI model",
                        "the paper's pinned commit for the default model"),
    EnvironmentVariable("CAP_STATEMENT_MODEL", "statement_model",
                        "statement model: a Hub id, a local folder or `rules` (the rule-based converter)",
                        "`rules` while the project's statement model is not published, then that model",
                        lambda text: text or default_statement_model(), _shown_model),
    EnvironmentVariable("CAP_STATEMENT_REVISION", "statement_revision", "Hub revision of the statement model",
                        "the latest"),
    EnvironmentVariable("CAP_DEVICE", "device", "`auto`, `cpu`, `cuda`, `cuda:N` or `mps`", "`auto`",
                        lambda text: text or "auto"),
    EnvironmentVariable("CAP_BENCHMARK_SCORES", "benchmark_scores",
                        "CSV of the paper's per-row scores, behind the Benchmark tab",
                        f"`{BENCHMARK_SCORES_NAME}` beside `app.py`, else `data/{BENCHMARK_SCORES_NAME}`",
                        lambda text: Path(text or DEFAULT_BENCHMARK_SCORES), lambda path: f"`{path.name}`"),
    EnvironmentVariable("CAP_VERDICT", "verdict",
                        f"{', '.join(f'`{choice}`' for choice in VERDICT_CHOICES)}: each scored answer also "
                        "gets a verdict (correct or incorrect) under that policy; the metric option `verdict`",
                        "`none`", _verdict, lambda verdict: f"`{verdict or 'none'}`"),
    EnvironmentVariable("CAP_COMPACT_ATTENTION", "compact_attention",
                        "`0`/`false`/`no`/`off` to score with transformers' own DeBERTa attention instead of "
                        "the compact one; the metric option `compact_attention`", "on",
                        _flag("CAP_COMPACT_ATTENTION", default=True), lambda on: "on" if on else "off"),
)


def settings_markdown(settings: Optional["SpaceSettings"] = None) -> str:
    """The settings as a Markdown table; with ``settings``, a column of the values in use."""
    header = ["variable", "meaning", "default"] + (["this Space"] if settings else [])
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for variable in ENVIRONMENT:
        cells = [f"`{variable.name}`", variable.meaning, variable.default]
        if settings:
            cells.append(variable.show(getattr(settings, variable.field)))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _private_folders() -> dict:
    from huggingface_hub import constants as hub

    return {hub.HF_HUB_CACHE: "<Hugging Face cache>", hub.HF_HOME: "<Hugging Face home>",
            str(Path.home()): "~"}
