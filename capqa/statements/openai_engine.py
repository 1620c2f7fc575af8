"""The ``openai`` statement engine: any OpenAI-compatible chat-completions endpoint (vLLM,
llama.cpp's server, Ollama, ``transformers serve``, a hosted API), through the official
``openai`` client (the ``llm`` extra: ``pip install 'cap-eval[llm]'``).

Deterministic where the server allows: temperature 0, a fixed seed, and a versioned prompt
(``PROMPT_VERSION``; its hash is in the identity, so a changed prompt is another engine). What it
wrote is cached on disk (``capqa.statements.statement_cache``) under the engine's identity and the
exact pair, so re-scoring never asks twice. Requests run ``concurrency`` at a time; the client
retries 408/409/429/5xx and dropped connections with exponential backoff (``max_retries``). A
request that still fails ends the run with one line naming the option to change, after what
was written so far is cached. The API key is read from the environment variable the options
name, and is never stored, logged or hashed. What it wrote passes the wrapper's guard
(``guard``: ``statement_issues``, empty, a refusal, several paragraphs): a refused statement is
replaced by the rules' one, and the details say so.
"""

import logging
import os
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Dict, List, Optional, Sequence

from capqa.common.extras import import_extra
from capqa.records.identity import StatementIdentity, canonical_hash
from capqa.statements.check import statement_issues
from capqa.statements.engine_spec import EngineRequest, EngineSpec, Pair
from capqa.statements.statement_cache import StatementCache

logger = logging.getLogger(__name__)

OPENAI_ENGINE = "openai"
DEFAULT_API_KEY_ENV = "OPENAI_API_KEY"
SEED = 0
MAX_STATEMENT_TOKENS = 96
# Bumped whenever PROMPT changes (the identity also holds the prompt's hash).
PROMPT_VERSION = "1"
_INSTRUCTIONS = (
    "Rewrite a question and its answer as one declarative English sentence that states the answer as a fact. "
    "Keep every claim of the answer, including its hedges, numbers and units, and add nothing the answer does not "
    "say. Do not judge whether the answer is correct. For a sentence with a blank (___), fill the blank with the "
    "answer. Reply with the sentence only.")
# Few-shot turns from the CAP-Statements sample (data/cap_statements_sample.csv: PQ0001, PQ0033,
# PQ0081, PQ5291), one of each question shape the converter's rules handle.
_EXAMPLES = (
    ("What is the powerhouse of the cell?", "mitochondria", "The powerhouse of the cell is the mitochondria."),
    ("What are the four nitrogenous bases in DNA?", "adenine, thymine, and guanine",
     "The nitrogenous bases in DNA include adenine, thymine, and guanine."),
    ("Give an example of an invertebrate.", "jellyfish", "An example of an invertebrate is a jellyfish."),
    ("Seahorses are unusual among fish because the ___ carries the eggs.", "male",
     "Seahorses are unusual among fish because the male carries the eggs."),
)
_REFUSAL = re.compile(r"\b(I can(?:no|')t|I am unable|I'm unable|I'm sorry|I am sorry|as an AI|language model)\b",
                      re.IGNORECASE)
_MAX_LINES = 2


def user_turn(question: str, answer: str) -> str:
    return f"Question: {question}\nAnswer: {answer}"


def prompt_messages(question: str, answer: str) -> List[Dict[str, str]]:
    """The chat messages of one request: the instructions, the few-shot turns, the pair."""
    messages = [{"role": "system", "content": _INSTRUCTIONS}]
    for example_question, example_answer, statement in _EXAMPLES:
        messages += [{"role": "user", "content": user_turn(example_question, example_answer)},
                     {"role": "assistant", "content": statement}]
    return messages + [{"role": "user", "content": user_turn(question, answer)}]


def prompt_hash() -> str:
    """A hash of the prompt as sent (instructions and few-shot turns)."""
    return canonical_hash(prompt_messages("{question}", "{answer}"))


class StatementEngineError(ConnectionError):
    """A request that failed for good, in one line that names the option to change (an OSError: the
    command line shows it as one line, as it does a missing file)."""


class OpenAIEngine:
    """Statements from a chat-completions endpoint.

    model: the name the endpoint serves. base_url: the endpoint (None: the client's default,
    OPENAI_BASE_URL or api.openai.com). api_key_env: the environment variable holding the key
    (a local server needs none). cache_dir: where the statements are kept (None: not kept).
    """

    name = OPENAI_ENGINE

    def __init__(self, model: str, base_url: Optional[str] = None, api_key_env: str = DEFAULT_API_KEY_ENV,
                 timeout: float = 60.0, concurrency: int = 8, max_retries: int = 4,
                 cache_dir: Optional[str] = None) -> None:
        self.model, self.base_url, self.api_key_env = model, base_url, api_key_env
        self.timeout, self.concurrency, self.max_retries = timeout, concurrency, max_retries
        self.cache = None if cache_dir is None else StatementCache(cache_dir, self.identity)
        self.counts = {"calls": 0, "cached": 0, "prompt_tokens": 0, "completion_tokens": 0, "max_in_flight": 0}
        self._in_flight = 0
        self._lock = threading.Lock()
        self._client = None

    def __repr__(self) -> str:
        return (f"openai(model={self.model!r}, base_url={self.base_url!r}, prompt={PROMPT_VERSION}, "
                f"concurrency={self.concurrency})")

    @property
    def identity(self) -> StatementIdentity:
        # What decides the statements: the model asked for, the prompt and the sampling. Not
        # the URL (where, not what) and never the key.
        return StatementIdentity(OPENAI_ENGINE, (("model", self.model), ("prompt", f"{PROMPT_VERSION}:{prompt_hash()}"),
                                                 ("temperature", "0"), ("seed", str(SEED)),
                                                 ("max_tokens", str(MAX_STATEMENT_TOKENS))))

    def usage(self) -> Dict[str, int]:
        return dict(self.counts)

    def guard(self, pair: Pair, statement: str) -> Optional[str]:
        if not statement.strip():
            return "empty"
        if _REFUSAL.search(statement):
            return "refusal"
        if "\n\n" in statement.strip() or len(statement.strip().splitlines()) > _MAX_LINES:
            return "several_paragraphs"
        issues = statement_issues(pair[0], pair[1], statement)
        return issues[0] if issues else None

    def write(self, pairs: Sequence[Pair]) -> List[str]:
        found = self.cache.get(pairs) if self.cache is not None else {}
        self.counts["cached"] += len(found)
        missing = [pair for pair in pairs if pair not in found]
        if missing:
            found.update(self._request_all(missing))
        return [found[pair] for pair in pairs]

    def _request_all(self, pairs):
        """{pair: statement} for ``pairs``, ``concurrency`` requests at a time; each answer is
        cached as it comes, so a failure keeps what was written before it."""
        written, failure = {}, None
        with ThreadPoolExecutor(max_workers=self.concurrency) as pool:
            futures = {pool.submit(self._request, pair): pair for pair in pairs}
            for future, pair in futures.items():
                if future.cancelled():  # not asked: a request before it failed for good
                    continue
                try:
                    written[pair] = future.result()
                except StatementEngineError as error:
                    failure = failure or error
                    for other in futures:
                        other.cancel()
        if self.cache is not None:
            self.cache.put(written)
        if failure is not None:
            raise failure
        return written

    def _request(self, pair):
        client = self._connect()
        with self._lock:
            self._in_flight += 1
            self.counts["max_in_flight"] = max(self.counts["max_in_flight"], self._in_flight)
        try:
            response = client.chat.completions.create(model=self.model, messages=prompt_messages(*pair),
                                                      temperature=0, seed=SEED, max_tokens=MAX_STATEMENT_TOKENS)
        except Exception as error:  # the client's errors, turned into one line that names the option
            raise StatementEngineError(self._explain(error)) from None
        finally:
            with self._lock:
                self._in_flight -= 1
        with self._lock:
            self.counts["calls"] += 1
            if response.usage is not None:
                self.counts["prompt_tokens"] += response.usage.prompt_tokens or 0
                self.counts["completion_tokens"] += response.usage.completion_tokens or 0
        return (response.choices[0].message.content or "").strip()

    def _connect(self):
        with self._lock:
            if self._client is None:
                openai = import_extra("openai", "llm", "the openai statement engine")
                # A local server needs no key; a hosted one answers 401, explained below.
                key = os.environ.get(self.api_key_env) or "no-key"
                self._client = openai.OpenAI(base_url=self.base_url, api_key=key, timeout=self.timeout,
                                             max_retries=self.max_retries)
            return self._client

    def _explain(self, error):
        openai = import_extra("openai", "llm", "the openai statement engine")
        where = self.base_url or "the default endpoint (OPENAI_BASE_URL or api.openai.com)"
        if isinstance(error, openai.AuthenticationError):
            return (f"the statement endpoint {where} refused the API key (401): put the key in the environment "
                    f"variable {self.api_key_env} or name another with `statement_api_key_env`")
        if isinstance(error, openai.NotFoundError):
            return (f"the statement endpoint {where} has no model {self.model!r} (404): set `statement_model` to a "
                    f"model it serves (GET {where.rstrip('/')}/models lists them)")
        if isinstance(error, openai.APITimeoutError):
            return (f"the statement endpoint {where} did not answer within {self.timeout:g} s "
                    f"(after {self.max_retries} retries): raise `statement_timeout`")
        if isinstance(error, openai.APIConnectionError):
            return (f"the statement endpoint {where} cannot be reached (after {self.max_retries} retries): check "
                    f"`statement_base_url` and that the server is running")
        if isinstance(error, openai.APIStatusError):
            return (f"the statement endpoint {where} answered {error.status_code} for model {self.model!r} "
                    f"(after {self.max_retries} retries): {_first_line(error)}; check `statement_model` and "
                    f"`statement_base_url`")
        return f"the statement endpoint {where} failed: {type(error).__name__}: {_first_line(error)}"


def _first_line(error):
    text = str(error).strip()
    return text.splitlines()[0][:200] if text else type(error).__name__


def build_openai_engine(request: EngineRequest) -> OpenAIEngine:
    if not request.model:
        raise ValueError("the openai statement engine needs `statement_model`: the name of a model the endpoint "
                         "serves (e.g. 'gpt-4o-mini', or the id `GET /v1/models` lists)")
    settings = request.settings
    return OpenAIEngine(request.model, settings.get("statement_base_url"),
                        settings.get("statement_api_key_env") or DEFAULT_API_KEY_ENV,
                        settings.get("statement_timeout", 60.0), settings.get("statement_concurrency", 8),
                        settings.get("statement_max_retries", 4), cache_dir=request.cache_dir)


SPEC = EngineSpec(
    OPENAI_ENGINE, build_openai_engine, "any OpenAI-compatible chat-completions endpoint (vLLM, llama.cpp, Ollama, "
    "`transformers serve`, a hosted API)", needs="`statement_model` (a served model's name), "
    "`statement_base_url`, a key in the variable `statement_api_key_env` names (not for a local server), "
    "`pip install 'cap-eval[llm]'`", cost="one request per unique (question, answer), none for what the cache "
    "(`score_cache_dir`) holds; the tokens are reported", determinism="temperature 0 and a fixed seed: as "
    "deterministic as the server (many hosted APIs are not exactly); cached statements never change",
    identity="`openai(model=...,prompt=VERSION:HASH,temperature=0,seed=0,max_tokens=...)`: never the URL or "
    "the key", options=("statement_base_url", "statement_api_key_env", "statement_timeout", "statement_concurrency",
                        "statement_max_retries"), takes_model=True)
