"""Statements: (question, answer) -> one declarative sentence, the text CAP's NLI model compares.

``StatementGenerator`` runs any registered statement engine (``capqa.statements.registry``:
``rules``, ``seq2seq``, ``openai`` or one of yours) and is the one place of the fallback to rules:
each unique pair is written once, and a statement the engine's own ``guard`` refuses (an empty
model output; for an LLM also a refusal, several paragraphs or what ``statement_issues`` flags)
is replaced by the rule converter's, recorded per pair (``MadeStatements.engines``, the details'
``statement_engine``). While the statement model is not published
(``constants.STATEMENT_MODEL_PUBLISHED``), the converter is the default
(``default_statement_model``): that constant is the one switch.
"""

import collections
import functools
import logging
from typing import Any, Dict, List, Mapping, NamedTuple, Optional, Sequence, Tuple

from capqa.common import constants
from capqa.common.constants import (RULES, STATEMENT_MAX_INPUT_TOKENS, STATEMENT_MAX_NEW_TOKENS, STATEMENT_NUM_BEAMS,
                                    statement_model_id)
from capqa.common.validation import check_same_length, check_text_list
from capqa.loading.pretrained import DEFAULT_LOAD, LoadArguments
from capqa.records.identity import StatementIdentity
from capqa.statements.check_version import CHECK_VERSION
from capqa.statements.engine_spec import Engine, EngineRequest
from capqa.statements.registry import build_engine, resolve_engine_name
from capqa.statements.rules.version import RULES_VERSION
from capqa.statements.rules_engine import RULES_ENGINE, write_rule_statements

logger = logging.getLogger(__name__)


def default_statement_model() -> str:
    """The statement engine used when none is given (``constants.default_statement_model``): the
    published statement model, or the rule-based converter until it is published (said once)."""
    model = constants.default_statement_model()
    if model == RULES:
        say_rules_are_the_default()
    return model


@functools.lru_cache(maxsize=1)
def say_rules_are_the_default():
    logger.warning("No statement_model given: the statements come from the rule-based converter "
                   "(statement_model=%r), since the statement model %s is not published yet; the hashcode "
                   "records it", RULES, statement_model_id())


class MadeStatements(NamedTuple):
    """One statement per pair, which engine wrote each, whether it is the rules' statement
    standing in for one the engine's guard refused, and each statement's ``statement_issues``
    codes where the engine checked them as it wrote them (asked for with ``with_issues``; None
    otherwise, and the caller checks what it needs)."""

    statements: List[str]
    engines: List[str]
    fallback: List[bool]
    issues: Optional[List[List[str]]] = None


class StatementGenerator:
    """Turns (question, answer) pairs into statements with one engine, de-duplicated, with the
    fallback to rules.

    model: "rules", a Hub id or a local folder of a seq2seq model, or the model an endpoint
        serves (default: ``default_statement_model()``). engine: a registered engine's name
        (default: from ``model``, ``registry.resolve_engine_name``). settings: the engine's own
        options by name (``EngineSpec.options``). cache_dir: where an engine that costs
        something keeps what it wrote.
    precision: the statement model's dtype (``capqa.loading.devices.statement_dtype``).
    lazy: load a model on first use (``generate`` or ``identity``) instead of now.
    load: what every from_pretrained call gets besides the name and revision.
    """

    def __init__(self, model: Optional[str] = None, revision: Optional[str] = None, device: str = "auto",
                 batch_size: int = 32, num_beams: int = STATEMENT_NUM_BEAMS,
                 max_input_tokens: int = STATEMENT_MAX_INPUT_TOKENS, max_new_tokens: int = STATEMENT_MAX_NEW_TOKENS,
                 show_progress: Optional[bool] = None, precision: str = "auto", lazy: bool = False,
                 load: LoadArguments = DEFAULT_LOAD, engine: Optional[str] = None,
                 settings: Optional[Mapping[str, Any]] = None, cache_dir: Optional[str] = None) -> None:
        if model is None and engine in (None, RULES_ENGINE):
            model = default_statement_model()
        name = resolve_engine_name(engine, model)
        request = EngineRequest(model, revision, device, batch_size, precision, lazy, show_progress, load, cache_dir,
                                dict(settings or {}), dict(num_beams=num_beams, max_input_tokens=max_input_tokens,
                                                           max_new_tokens=max_new_tokens))
        self.engine: Engine = build_engine(name, request)
        self.model_name = str(model) if model is not None else name

    @property
    def uses_rules(self) -> bool:
        return self.engine.name == RULES_ENGINE

    @property
    def model(self) -> Any:
        """The loaded statement model of a local engine (None for the rules, or before it loads)."""
        return getattr(self.engine, "model", None)

    def __repr__(self) -> str:
        """What makes the statements, without loading anything."""
        return f"StatementGenerator({self.engine!r})"

    @property
    def identity(self) -> StatementIdentity:
        """The engine as loaded (the rule converter's version and parser, the model's name,
        commit (or content hash of a local folder) and dtype, or the endpoint's model and prompt),
        then what the generator adds to every engine: the check's version (``check``: the
        details' issue codes, and what an engine's guard refuses) and, for an engine other than
        the rules, the converter's version that stands in for a refused statement (``fallback``)."""
        engine = self.engine.identity
        added = (("check", CHECK_VERSION),)
        if not self.uses_rules:
            added += (("fallback", f"rules:{RULES_VERSION}"),)
        return StatementIdentity(engine.engine, engine.details + added)

    def usage(self) -> Dict[str, int]:
        """What the engine spent so far (an endpoint's calls and tokens); {} when free."""
        return self.engine.usage()

    def generate(self, questions: Sequence[str], answers: Sequence[str], check_input: bool = True) -> List[str]:
        """One statement per (question, answer), in input order."""
        return self.make(questions, answers, check_input).statements

    def generate_with_fallbacks(self, questions: Sequence[str], answers: Sequence[str],
                                check_input: bool = True) -> Tuple[List[str], List[bool]]:
        """(one statement per pair, whether each is a rule statement standing in for a refused one)."""
        made = self.make(questions, answers, check_input)
        return made.statements, made.fallback

    def prefetch(self, questions: Sequence[str], answers: Sequence[str], with_issues: bool = False) -> None:
        """Start writing these pairs' statements ahead of ``make`` (an engine with workers, as the
        rules' with ``statement_workers``; nothing for the others). The texts must be checked."""
        prefetch = getattr(self.engine, "prefetch", None)
        if prefetch is not None:
            prefetch(list(zip(questions, answers)), with_issues)

    def make(self, questions: Sequence[str], answers: Sequence[str], check_input: bool = True,
             with_issues: bool = False) -> MadeStatements:
        """The statements, the engine that wrote each and the fallbacks (``MadeStatements``).
        check_input: False for a caller that checked the texts. with_issues: have an engine
        that can check its statements as it writes them (the rules' workers) do so."""
        if check_input:
            questions, answers = check_text_list(questions, "questions"), check_text_list(answers, "answers")
            check_same_length(questions, "questions", answers, "answers")
        pairs = list(zip(questions, answers))
        unique = sorted(set(pairs))
        # An engine may also check what it writes (``write_checked``: the rules in their workers).
        write_checked = getattr(self.engine, "write_checked", None)
        written, checked = (write_checked(unique, with_issues) if write_checked is not None
                            else (self.engine.write(unique), None))
        refused = {}
        for pair, statement in zip(unique, written):
            reason = self.engine.guard(pair, statement)
            if reason is not None:
                refused[pair] = reason
        if refused:
            reasons = ", ".join(f"{reason} {count}" for reason, count in collections.Counter(refused.values()).items())
            logger.warning("the %s statement engine's statement was refused for %d of %d (question, answer) pairs "
                           "(%s); they get the rule-based statement instead (the details' statement_engine says "
                           "'rules', statement_fallback True)", self.engine.name, len(refused), len(unique), reasons)
        statements = dict(zip(unique, written))
        statements.update(zip(refused, write_rule_statements(list(refused))))
        issues = None
        if checked is not None and not refused:
            issues_of = dict(zip(unique, checked))
            issues = [issues_of[pair] for pair in pairs]
        return MadeStatements([statements[pair] for pair in pairs],
                              [RULES_ENGINE if pair in refused else self.engine.name for pair in pairs],
                              [pair in refused for pair in pairs], issues)

    def close(self) -> None:
        """Stop the engine's workers and close its cache (an engine without either has nothing to do)."""
        close = getattr(self.engine, "close", None)
        if close is not None:
            close()
