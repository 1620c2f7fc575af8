"""What the Space runs with, read from the environment, and how it names its models in public.

The page, the About tab and the API show model *names*: a Hub id as it is, a local folder by
its folder name only. Server paths (model folders, the Hugging Face cache, the home folder) are
replaced in every message that may carry them.
"""

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Optional

from capqa.constants import DEFAULT_NLI_MODEL, RULES, STATEMENT_MODEL_PUBLISHED, statement_model_id
from capqa.metric_options import MetricOptions
from capqa.paths import DATA_DIR, REPO_ROOT

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
    """What the Space runs with; ``from_environ`` reads the documented environment variables."""

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

        def value(name: str) -> Optional[str]:
            text = environ.get(name, "").strip()
            return text or None

        return cls(nli_model=value("CAP_NLI_MODEL") or DEFAULT_NLI_MODEL,
                   nli_revision=value("CAP_NLI_REVISION"),
                   statement_model=value("CAP_STATEMENT_MODEL") or default_statement_model(),
                   statement_revision=value("CAP_STATEMENT_REVISION"),
                   device=value("CAP_DEVICE") or "auto",
                   benchmark_scores=Path(value("CAP_BENCHMARK_SCORES") or DEFAULT_BENCHMARK_SCORES),
                   verdict=_verdict(value("CAP_VERDICT")),
                   compact_attention=_flag(value("CAP_COMPACT_ATTENTION"), "CAP_COMPACT_ATTENTION", default=True))

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
        raise ValueError(f"CAP_VERDICT must be one of {', '.join(VERDICT_CHOICES)}, got {text!r}")
    return text.lower()


def _flag(text: Optional[str], variable: str, default: bool) -> bool:
    if text is None:
        return default
    if text.lower() in _FALSE:
        return False
    if text.lower() in _TRUE:
        return True
    raise ValueError(f"{variable} must be one of {', '.join(_TRUE + _FALSE)}, got {text!r}")


def _private_folders() -> dict:
    from huggingface_hub import constants as hub

    return {hub.HF_HUB_CACHE: "<Hugging Face cache>", hub.HF_HOME: "<Hugging Face home>",
            str(Path.home()): "~"}
