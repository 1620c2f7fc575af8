"""The Space's models: loaded once per process, in the background, shared by every request.

A load failure never kills the page: it becomes a one-line status (what failed and what to
set) with the full reason on demand, and every scoring request refuses with the same line.
"""

import logging
import threading
from typing import TYPE_CHECKING, Any, Mapping, Optional, Tuple

from capqa.loading.pretrained import find_load_error
from capqa.records.results import HASHCODE
from capqa.space.settings import SpaceSettings, public_model_name
from capqa.space.text import escape_markdown, user_error

if TYPE_CHECKING:
    from capqa.metric.scorer import CAPScorer

LOGGER = logging.getLogger(__name__)

WHAT_TO_SET = ("set `CAP_NLI_MODEL` (and `CAP_STATEMENT_MODEL`) to local model folders with "
               "`HF_HUB_OFFLINE=1` and restart")


class ModelsUnavailable(RuntimeError):
    """The models could not be loaded; the message is the one-line status."""


def load_failure(settings: SpaceSettings, error: BaseException) -> Tuple[str, str]:
    """(one line: what failed, why, what to set; the full reason without server paths)."""
    reason = settings.redact(" ".join(str(error).split()) or type(error).__name__)
    # The library says what went wrong (not found, Hub unreachable, offline, no such folder, ...);
    # the Space says its own ways forward (environment variables, not function arguments).
    load_error = find_load_error(error)
    if isinstance(error, ImportError):
        # A package is missing (spaCy's English model for the rule statements, an extra): the
        # library's message names it and how to install it, as the command line and the metric say.
        line = f"Could not load the models: {reason}. The Benchmark and About tabs work without models."
        return line, f"{type(error).__name__}: {reason}"
    if load_error and load_error.cause:
        # The cause's headline; the whole of it is in the details.
        cause = settings.redact(load_error.headline)
        subject = f"the {load_error.what} {public_model_name(load_error.model)}"
    else:
        cause, subject = "the model files could not be read", f"the models ({settings.describe()})"
    line = (f"Could not load {subject}: {cause}. To run without the Hub, {WHAT_TO_SET}; the Benchmark "
            f"and About tabs work without models.")
    return line, f"{type(error).__name__}: {reason}"


def log_load_failure(error: BaseException, line: str) -> None:
    """The log's account of a failed load: one line for a failure the loader explains (the Hub
    unreachable, no such folder, ...), the chained traceback at debug level only; any other
    failure is a bug, logged with its traceback."""
    if find_load_error(error) is None:
        LOGGER.error("CAP models failed to load", exc_info=error)
        return
    LOGGER.error("CAP models not loaded: %s", line.replace("`", ""))
    LOGGER.debug("CAP models failed to load", exc_info=error)


class ModelLoader:
    """Builds the scorer once per process and shares it; thread-safe.

    ``start`` loads in a background thread so that the page opens at once; ``scorer`` waits
    for that load (or does it) and raises ``ModelsUnavailable`` when it failed.
    """

    def __init__(self, settings: SpaceSettings) -> None:
        self.settings = settings
        self._lock = threading.Lock()
        self._finished = False
        self._scorer = None
        self._failure: Optional[Tuple[str, str]] = None

    def start(self) -> "ModelLoader":
        threading.Thread(target=self._load, name="cap-model-loader", daemon=True).start()
        return self

    def _load(self) -> None:
        with self._lock:
            if self._finished:
                return
            try:
                options = self.settings.metric_options()
            except (TypeError, ValueError) as error:  # a setting this build cannot honour
                LOGGER.error("the Space's settings are not valid: %s", error)
                self._failure = (f"The Space's settings are not valid: {error}", "")
                self._finished = True
                return
            try:
                scorer = options.build_scorer()
                # One tiny example loads the lazily built statement model too, so the first
                # visitor's request does not pay for it and a broken folder shows up now.
                scorer.score(["Sofia"], [["Sofia"]], ["Name a city in Bulgaria."])
                self._scorer = scorer
            except Exception as error:  # any load failure must become a message, not a dead page
                self._failure = load_failure(self.settings, error)
                log_load_failure(error, self._failure[0])
            finally:
                self._finished = True

    def scorer(self) -> "CAPScorer":
        self._load()
        if self._failure:
            raise ModelsUnavailable(self._failure[0])
        return self._scorer

    def hashcode(self, result: Mapping[str, Any]) -> str:
        """What produced ``result``'s scores, in one line, as the page shows it: the hashcode the
        result carries (every result does: it says whether statements were made), model folders
        named, not shown (``SpaceSettings.redact``). The page's one source of a hashcode."""
        if not isinstance(result.get(HASHCODE), str):
            raise ValueError("a result without its hashcode cannot say what produced it: show the result "
                             "CAPScorer.score returned")
        return self.settings.redact(result[HASHCODE])

    def scorer_or_error(self) -> "CAPScorer":
        """The scorer, or a ``gr.Error`` with the one-line status (plain text, no Markdown marks)."""
        try:
            return self.scorer()
        except ModelsUnavailable as error:
            raise user_error(str(error).replace("`", "")) from None

    def ready(self) -> bool:
        """True once the models are loaded (waits for the load)."""
        self._load()
        return self._failure is None

    def status(self) -> Tuple[str, str]:
        """(the status line in Markdown, the details in Markdown or "" when there are none).

        Waits for the load to finish.
        """
        try:
            self.scorer()
        except ModelsUnavailable as error:
            return f"**Models not loaded.** {error}", escape_markdown(self._failure[1]) if self._failure[1] else ""
        return f"**Models ready**: {self.settings.describe()}.", ""
