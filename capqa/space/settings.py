"""What the Space runs with, read from the environment, and how it names its models in public.

The page, the About tab and the API show model *names*: a Hub id as it is, a local folder by
its folder name only. Server paths (model folders, the Hugging Face cache, the home folder) are
replaced in every message that may carry them.
"""

import os
from pathlib import Path
from typing import Any, Dict, Mapping, Optional

from capqa.common.constants import DEFAULT_NLI_MODEL, OTHER_VARIABLES, RULES, default_statement_model
from capqa.common.constraints import Boolean, PathText
from capqa.common.paths import DATA_DIR, REPO_ROOT
from capqa.common.settings import Setting, markdown_table, read_environment, unknown_names_message
from capqa.metric.options import OPTIONS, MetricOptions

# The published per-row scores: beside app.py in the assembled Space, else the repo's data/.
BENCHMARK_SCORES_NAME = "paper_scores.csv"
DEFAULT_BENCHMARK_SCORES = next(
    (path for path in (REPO_ROOT / BENCHMARK_SCORES_NAME, DATA_DIR / BENCHMARK_SCORES_NAME) if path.is_file()),
    DATA_DIR / BENCHMARK_SCORES_NAME)
SPACE_VARIANT = "plus"  # the page shows CAP+ beside CAP
# The metric options the Space sets itself; every other option is read from CAP_<OPTION>.
FIXED_OPTIONS = {"variant": SPACE_VARIANT}
# The Space's own settings, declared as the metric's options are.
OWN_SETTINGS = (
    Setting("benchmark_scores", DEFAULT_BENCHMARK_SCORES, (PathText("a CSV file", as_path=True),),
            "the paper's per-row scores, behind the Benchmark tab", affects_scores=False,
            default_text=f"{BENCHMARK_SCORES_NAME} beside app.py, else data/{BENCHMARK_SCORES_NAME}"),
)
# Every setting of the Space, once: ``from_environ`` reads their CAP_<NAME> variables, and the
# About tab and docs/space.md list them (``settings_markdown``).
SETTINGS = tuple(setting for setting in OPTIONS if setting.name not in FIXED_OPTIONS) + OWN_SETTINGS
_NAMES = tuple(setting.name for setting in SETTINGS)


def is_local_path(name: str) -> bool:
    """True for a model given as a folder rather than a Hub id."""
    return os.path.isabs(name) or name.startswith((".", "~")) or os.path.isdir(name)


def public_model_name(name: str) -> str:
    """A Hub id as it is; a local folder as "local folder `name`", without its path."""
    if name == RULES or not is_local_path(name):
        return f"`{name}`"
    return f"local folder `{Path(name).expanduser().name or name}`"


class SpaceSettings:
    """What the Space runs with: the metric's options (each from its ``CAP_<OPTION>`` variable;
    ``variant`` is the Space's own, "plus") and the Space's own settings (``OWN_SETTINGS``), each
    validated by its one declaration. ``settings.nli_model`` and so on read them."""

    def __init__(self, **values: Any) -> None:
        unknown = [name for name in values if name not in _NAMES]
        if unknown:
            raise TypeError(f"{unknown_names_message(unknown, _NAMES, 'Space setting')}; the settings are "
                            f"{', '.join(_NAMES)}")
        self.values: Dict[str, Any] = {setting.name: setting.validate(values.get(setting.name, setting.default))
                                       for setting in SETTINGS}

    @classmethod
    def from_environ(cls, environ: Optional[Mapping[str, str]] = None) -> "SpaceSettings":
        """The settings of ``environ`` (default: this process's): ``CAP_NLI_MODEL``, ...; a
        ``CAP_*`` variable that is no setting is logged as a warning, with the nearest name."""
        return cls(**read_environment(SETTINGS, os.environ if environ is None else environ, OTHER_VARIABLES))

    def __getattr__(self, name: str) -> Any:
        values = self.__dict__.get("values", {})
        if name in values:
            return values[name]
        raise AttributeError(f"'SpaceSettings' has no attribute {name!r}")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SpaceSettings) and other.values == self.values

    def __repr__(self) -> str:
        changed = [f"{setting.name}={self.shown(setting)}" for setting in SETTINGS
                   if self.values[setting.name] != setting.default]
        return f"SpaceSettings({', '.join(changed)})"

    @property
    def statement_model_name(self) -> str:
        """The statement engine that runs: the one set, else the metric's default."""
        return self.statement_model or default_statement_model()

    def metric_options(self) -> MetricOptions:
        """The metric's options (validated, as at load time)."""
        names = [setting.name for setting in OPTIONS if setting.name not in FIXED_OPTIONS]
        return MetricOptions(**{name: self.values[name] for name in names}, **FIXED_OPTIONS)

    def shown(self, setting: Setting) -> str:
        """A setting's value as the About tab shows it: models and folders by name, never a path."""
        value = self.values[setting.name]
        if value is None:
            return "(default)"
        if any(isinstance(constraint, Boolean) for constraint in setting.constraints):
            return "on" if value else "off"
        if isinstance(value, Path):  # a file (as_path: the benchmark scores), by its place: data/paper_scores.csv
            return f"`{public_file_name(value)}`"
        if isinstance(value, (str, Path)) and any(isinstance(c, PathText) for c in setting.constraints):
            return public_model_name(str(value))
        return f"`{value}`"

    def describe(self) -> str:
        """The models in public words (Markdown), never a server path."""
        model = self.statement_model_name
        statements = "the rule-based converter (`rules`)" if model == RULES else public_model_name(model)
        if self.values.get("statement_engine") not in (None, RULES, "seq2seq"):
            # An endpoint's model: its served name, never the endpoint's URL.
            statements = f"the `{self.values['statement_engine']}` engine's model `{model}`"
        features = "".join((f", verdict `{self.verdict}`" if self.verdict is not None else "",
                            "" if self.compact_attention else ", stock attention"))
        return (f"NLI model {public_model_name(self.nli_model or DEFAULT_NLI_MODEL)}, statements from "
                f"{statements}, device `{self.device}`{features}")

    def redact(self, text: str) -> str:
        """``text`` with the model folders, the Hub cache and the home folder named, not shown."""
        replacements = {}
        for folder in (self.nli_model, self.statement_model, self.model_cache_dir, self.score_cache_dir):
            if folder and folder != RULES and is_local_path(folder):
                name = public_model_name(folder).replace("`", "")
                replacements[str(Path(folder).expanduser().resolve())] = name
                replacements[folder] = name
        replacements.update({folder: label for folder, label in _private_folders().items() if folder})
        # Longest first: a model folder inside the home folder keeps its own name.
        for path in sorted(replacements, key=len, reverse=True):
            text = text.replace(path, replacements[path])
        return text


def public_file_name(path: Path) -> str:
    """A file as the page names it: its path in the checkout or the Space (``data/paper_scores.csv``),
    or, outside them, its name alone (never a server folder)."""
    try:
        return Path(path).resolve().relative_to(REPO_ROOT).as_posix()
    except ValueError:
        return Path(path).name


def settings_markdown(settings: Optional[SpaceSettings] = None) -> str:
    """The settings as a Markdown table; with ``settings``, a column of the values in use."""
    return markdown_table(SETTINGS, name=lambda setting: setting.variable, name_header="variable",
                          values=settings.shown if settings else None, value_header="this Space", as_text=True)


def _private_folders() -> dict:
    # Deferred: huggingface_hub is heavy, imported on first use.
    from huggingface_hub import constants as hub

    return {hub.HF_HUB_CACHE: "<Hugging Face cache>", hub.HF_HOME: "<Hugging Face home>",
            str(Path.home()): "~"}
