"""Loading models and tokenizers from the Hub or a local folder, with errors that say what to do.

The metric, the command line and the Space all load through ``load_pretrained``, so a failure
reads the same everywhere: the model, the cause (not found on the Hub, Hub unreachable, offline
without a cached copy, no such local folder, a folder that is not a model) and the ways forward.
"""

import json
import logging
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Mapping, Optional

from capqa.common.constants import statement_model_id
from capqa.loading.hub_probe import hub_reachable

logger = logging.getLogger(__name__)

# What can be done instead, by the kind of model (the first word of ``what``).
_WAYS_FORWARD = {
    "statement": ("use the offline rule-based statements (statement_model=\"rules\", CLI: --statement-model "
                  "rules), a local folder of a seq2seq model, or train one with "
                  "`python -m capqa train-statements`"),
    "NLI": ("pass a local folder of an NLI classifier (nli_model=\"path/to/folder\", CLI: --nli-model), saved "
            "once where the Hub is reachable with from_pretrained(...).save_pretrained(folder)"),
}
_DEFAULT_WAY_FORWARD = "pass a local model folder instead"
# A Hub id: "name" or "namespace/name" of letters, digits, '-', '_' and '.'.
_HUB_ID = re.compile(r"^[\w.-]+(/[\w.-]+)?$")
# The cause when the Hub does not answer and the cache has no copy (its headline: up to "; ").
_UNREACHABLE = ("the Hugging Face Hub could not be reached and the cache holds no copy of it; with a copy in "
                "the cache, HF_HUB_OFFLINE=1 uses it without waiting for the Hub")


# The from_pretrained arguments that options set, refused in ``model_kwargs`` / ``tokenizer_kwargs``
# with the reason (each is set by name, once, so that the record of a score can say it).
KWARGS_SET_BY_OPTIONS = {
    "revision": "set `nli_revision` or `statement_revision`",
    "dtype": "set `precision`", "torch_dtype": "set `precision`",
    "device_map": "set `device`",
    "cache_dir": "set `model_cache_dir`",
    "local_files_only": "set `local_files_only`",
    "trust_remote_code": "set the option `trust_remote_code` itself, so that running a model's own code is a "
                         "choice made by name",
    "token": "log in (`hf auth login`) or set HF_TOKEN: options are recorded in hashcodes and job files, a token "
             "must not be",
    "use_auth_token": "log in (`hf auth login`) or set HF_TOKEN: options are recorded in hashcodes and job files, "
                      "a token must not be",
    "output_loading_info": "the loader asks for it, to check that the weights fit the config",
    "ignore_mismatched_sizes": "the loader sets it, to refuse weights of another shape by name",
}
# What transformers says of a model whose own code would have to run (trust_remote_code).
_REMOTE_CODE_MESSAGE = "contains custom code"
REMOTE_CODE_CAUSE = ("it ships its own Python code (an auto_map in its config), which runs only with "
                     "trust_remote_code=True; set it (CLI: --trust-remote-code) only for a model whose code you "
                     "have read, since that code runs on this machine with your rights")


@dataclass(frozen=True)
class LoadArguments:
    """What every from_pretrained call of a model gets besides its name and revision, as
    sentence-transformers' ``CrossEncoder`` passes them: where the Hub cache is, whether to ask the
    Hub at all, whether the model's own code may run (always passed, as True or False: left
    unset, transformers asks on the terminal and runs the code on a "y"), and the user's keyword
    arguments for the models and their tokenizers, passed straight through."""

    local_files_only: bool = False
    cache_dir: Optional[str] = None
    trust_remote_code: bool = False
    model_kwargs: Mapping[str, Any] = field(default_factory=dict)
    tokenizer_kwargs: Mapping[str, Any] = field(default_factory=dict)

    def hub(self) -> Dict[str, Any]:
        """The arguments of every file fetched for a model (config, tokenizer, weights)."""
        arguments = {"trust_remote_code": self.trust_remote_code}
        if self.local_files_only:
            arguments["local_files_only"] = True
        if self.cache_dir is not None:
            arguments["cache_dir"] = str(self.cache_dir)
        return arguments

    def for_model(self) -> Dict[str, Any]:
        return {**self.model_kwargs, **self.hub()}

    def for_tokenizer(self) -> Dict[str, Any]:
        return {**self.tokenizer_kwargs, **self.hub()}

    def identity(self, remote_code: bool) -> str:
        """What of the loading changes what computes, for the scorer's identity: "none", or the
        model's own code having run and the keyword arguments given (canonical JSON)."""
        parts = ["remote_code"] if remote_code else []
        parts += [f"{name}={_canonical(kwargs)}" for name, kwargs in
                  (("model_kwargs", self.model_kwargs), ("tokenizer_kwargs", self.tokenizer_kwargs)) if kwargs]
        return ",".join(parts) or "none"


DEFAULT_LOAD = LoadArguments()


def _canonical(kwargs: Mapping[str, Any]) -> str:
    # "|" separates the hashcode's fields: inside a value it is written as JSON's escape.
    text = json.dumps(dict(kwargs), sort_keys=True, separators=(",", ":"), default=repr)
    return text.replace("|", "\\u007c")


def runs_remote_code(model: Any) -> bool:
    """Whether ``model`` (or a tokenizer) is an instance of a class from a model's own code
    (transformers imports that code as the ``transformers_modules`` package)."""
    return type(model).__module__.startswith("transformers_modules")

# The cause when ``local_files_only`` is set and the cache has no copy.
_CACHE_ONLY = ("local_files_only is set and the Hugging Face cache holds no copy of it; a cached copy needs one "
               "download with local_files_only off")


class ModelLoadError(OSError):
    """A model or tokenizer could not be loaded; the message names the cause and the ways forward.

    ``model``, ``what`` and ``cause`` are kept apart too, so that a front end with other ways
    forward (the Space's environment variables) can say the same cause in its own words.
    """

    def __init__(self, message: str, model: str = "", what: str = "", cause: str = ""):
        super().__init__(message)
        self.model, self.what, self.cause = model, what, cause

    @property
    def headline(self) -> str:
        """The cause's first clause, for a one-line status: ``cause_of`` writes each cause as its
        headline, then any elaboration after "; " or " (" (the whole of it is ``cause``)."""
        return self.cause.split("; ")[0].split(" (")[0]


def find_load_error(error: BaseException) -> Optional[ModelLoadError]:
    """The ``ModelLoadError`` in ``error``'s chain (it may be wrapped), or None."""
    return next((link for link in _error_chain(error) if isinstance(link, ModelLoadError)), None)


class UnusableModel(ModelLoadError, ValueError):
    """A model that loads but cannot serve its purpose (an NLI model without exactly the three NLI
    labels, a tokenizer without a pad token, ...): a load error, and a bad option value too."""


def model_error(name: str, revision: Optional[str], what: str, cause: str,
                kind: type = ModelLoadError) -> ModelLoadError:
    """The error for ``what`` (e.g. "NLI model") ``name`` failing because of ``cause``, worded as
    every load failure is: the model, the cause, the ways forward."""
    return kind(_message(name, revision, what, cause), name, what, cause)


def load_pretrained(loader: Any, name: str, revision: Optional[str], what: str, **kwargs: Any) -> Any:
    """``loader.from_pretrained(name, revision=...)``, or a ``ModelLoadError`` that says why not
    and what to do instead. ``what`` names the model ("statement model", "NLI tokenizer", ...).

    Any failure inside ``from_pretrained`` is a load failure: truncated or garbage weights
    (``SafetensorError``), a head of the wrong shape (``RuntimeError``), a config that does not
    build (``TypeError``, ``ZeroDivisionError``), a tokenizer file that does not parse. A Hub id
    is loaded from the local cache only when the Hub does not answer (``capqa.loading.hub_probe``).
    ``kwargs`` go to ``from_pretrained`` as they are (``LoadArguments``); ``trust_remote_code`` is
    False unless given, so a model's own code never runs on an answer typed at a prompt."""
    local_problem = _local_path_problem(name)
    if local_problem:
        raise model_error(name, revision, what, local_problem)
    kwargs = {"trust_remote_code": False, **kwargs}
    cache_only = bool(kwargs.get("local_files_only"))
    hub_unreachable = _is_hub_id(name) and not cache_only and not hub_offline() and not hub_reachable()
    if hub_unreachable:
        kwargs = {**kwargs, "local_files_only": True}
    try:
        return loader.from_pretrained(name, revision=revision, **kwargs)
    except Exception as error:  # noqa: BLE001 (whatever a broken model raises, it gets the same message)
        logger.debug("loading %s %r failed", what, name, exc_info=True)
        cause = cause_of(name, error)
        if (hub_unreachable or cache_only) and _not_in_cache(error) and cause != REMOTE_CODE_CAUSE:
            cause = _UNREACHABLE if hub_unreachable else _CACHE_ONLY
        raise model_error(name, revision, what, cause) from error


def hub_offline() -> bool:
    """Whether huggingface_hub runs offline (HF_HUB_OFFLINE or TRANSFORMERS_OFFLINE set)."""
    # Deferred: huggingface_hub is heavy, imported on first use.
    from huggingface_hub import constants

    return bool(constants.HF_HUB_OFFLINE) or os.environ.get("TRANSFORMERS_OFFLINE", "").upper() in ("1", "ON",
                                                                                                    "YES", "TRUE")


def _looks_like_path(name: str) -> bool:
    """A name that can only be a local path: absolute, ./ or ~, backslashes, or not a valid Hub id."""
    return (name.startswith(("/", ".", "~")) or "\\" in name or os.path.isabs(name)
            or not _HUB_ID.match(name) or "--" in name or ".." in name)


def is_local_folder(name: str) -> bool:
    """Whether ``name`` is an existing folder (False for a path the system cannot even look up)."""
    try:
        return Path(name).expanduser().is_dir()
    except (OSError, ValueError):  # a name too long for the file system, a NUL byte
        return False


def model_display_name(name: str) -> str:
    """A model as a message or repr names it: a Hub id as it is, a local folder by its last part
    (no path of this machine)."""
    return Path(name).expanduser().resolve().name if is_local_folder(name) else name


def _is_hub_id(name: str) -> bool:
    """A name that from_pretrained looks up on the Hub: not an existing path, not path-like."""
    return not _looks_like_path(name) and not _exists(Path(name).expanduser())


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


def _local_path_problem(name: str) -> Optional[str]:
    """Why the local path ``name`` cannot hold a model, or None (a model folder, or a Hub id)."""
    try:
        return _path_problem(name, Path(name).expanduser())
    except OSError as error:  # e.g. a name longer than the file system allows
        return f"{name[:80]!r}{'...' if len(name) > 80 else ''} is not a usable path ({error.strerror})"


def _path_problem(name: str, path: Path) -> Optional[str]:
    if path.is_dir():
        irregular = _irregular_entry(path)
        if irregular:
            return irregular
        return None if (path / "config.json").is_file() or any(path.glob("tokenizer*")) else (
            f"the local folder {name!r} is not a model folder (it has no config.json)")
    if path.exists():
        return f"{name!r} is a file, not a model folder"
    if _looks_like_path(name):
        return f"there is no such local folder: {name!r}"
    return None


def _irregular_entry(folder: Path) -> Optional[str]:
    """Why an entry of a model folder cannot be read as a file: a FIFO or device (reading it would
    wait forever), a broken or looping link. Folders and links to regular files (the Hugging Face
    cache's layout) are fine."""
    for entry in sorted(folder.iterdir()):
        try:
            mode = entry.stat().st_mode
        except OSError as error:
            return f"{entry.name!r} in the local folder is a broken link ({error.strerror})"
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
            return f"{entry.name!r} in the local folder is not a regular file (a FIFO, socket or device)"
    return None


def _error_chain(error: Optional[BaseException]):
    seen = set()
    while error is not None and id(error) not in seen:  # a chain can loop back on itself
        seen.add(id(error))
        yield error
        error = error.__cause__ or error.__context__


def cause_of(name: str, error: BaseException) -> str:
    """The reason a Hub or folder load failed, in words: a headline first, any elaboration after
    "; " or " (" (``ModelLoadError.headline``)."""
    # Deferred: huggingface_hub is heavy, imported on first use.
    from huggingface_hub import errors

    chain = list(_error_chain(error))
    if any(_REMOTE_CODE_MESSAGE in str(link) and "trust_remote_code" in str(link) for link in chain):
        return REMOTE_CODE_CAUSE
    if is_local_folder(name):
        return f"the local folder is not a complete model ({type(error).__name__}: {first_line(error)})"
    if any(isinstance(link, (errors.RepositoryNotFoundError, errors.RevisionNotFoundError, errors.GatedRepoError))
           for link in chain) or "not a valid model identifier" in str(error):
        return ("it was not found on the Hugging Face Hub (not published, private, gated or misspelt, "
                "or the revision does not exist), and there is no local folder of that name")
    if any(isinstance(link, errors.LocalEntryNotFoundError) for link in chain) or "couldn't connect" in str(error):
        if hub_offline():
            return ("HF_HUB_OFFLINE is set and the Hugging Face cache holds no copy of it; "
                    "a cached copy needs one download with the Hub reachable")
        return _UNREACHABLE
    return f"{type(error).__name__}: {first_line(error)}"


def _not_in_cache(error: BaseException) -> bool:
    """Whether a ``local_files_only`` load failed for want of a cached copy (not a broken one)."""
    # Deferred: huggingface_hub is heavy, imported on first use.
    from huggingface_hub import errors

    return any(isinstance(link, errors.LocalEntryNotFoundError) or "local_files_only" in str(link)
               or "couldn't connect" in str(link) or "offline mode" in str(link) for link in _error_chain(error))


def first_line(error: BaseException) -> str:
    """The first line of an error's message, cut to 500 characters (a cause must fit in one line)."""
    line = (str(error).strip().splitlines() or [""])[0]
    return line if len(line) <= 500 else line[:500] + "..."


def _message(name: str, revision: Optional[str], what: str, cause: str) -> str:
    kind = what.split()[0]
    way_forward = ("use another model" if cause == REMOTE_CODE_CAUSE
                   else _WAYS_FORWARD.get(kind, _DEFAULT_WAY_FORWARD))
    at = f" at revision {_quoted(revision)}" if revision else ""
    note = " (the default statement model, which is not published yet)" if name == statement_model_id() else ""
    return f"could not load the {what} {_quoted(name)}{at}{note}: {cause}. Instead, {way_forward}."


def _quoted(text: str, limit: int = 300) -> str:
    """``text`` quoted, cut to ``limit`` characters: a name pasted by mistake is not a 1 MB message."""
    return repr(text) if len(text) <= limit else f"{text[:limit]!r}... ({len(text):,} characters)"
