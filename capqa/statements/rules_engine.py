"""The ``rules`` statement engine: the offline rule-based converter (``capqa.statements.rules``).

Its statements can be made in worker processes ahead of the NLI model (``statement_workers``,
``capqa.statements.workers``: ``prefetch`` sends the next chunks' pairs, ``write`` collects them)
and kept on disk (``score_cache_dir``, ``capqa.statements.statement_cache``): the gold statements
of a benchmark are the same for every system scored on it, and a resumed job has what it made.
"""

import os
from collections import Counter
from concurrent.futures import Future
from typing import Dict, List, Optional, Sequence, Tuple

from capqa.common.constants import RULES
from capqa.records.identity import StatementIdentity
from capqa.statements.engine_spec import EngineRequest, EngineSpec, Pair
from capqa.statements.question_parses import with_question_parses
from capqa.statements.rules import rule_statements
from capqa.statements.rules.version import rules_identity
from capqa.statements.statement_cache import StatementCache
from capqa.statements.workers import StatementWorkers, Task, Written, default_statement_workers, pieces

RULES_ENGINE = RULES
WORKERS_OPTION = "statement_workers"


class RuleEngine:
    """Statements from the rule converter: no model, no cost, the same output everywhere.

    workers: processes that make the statements (0: this process makes them when asked).
    cache_dir: where the statements are kept (None: not kept).
    """

    name = RULES_ENGINE

    def __init__(self, workers: int = 0, cache_dir: Optional[str] = None) -> None:
        self.workers = StatementWorkers(workers) if workers > 0 else None
        self.cache = None if cache_dir is None else StatementCache(cache_dir, self.identity)
        self.cache_dir = cache_dir  # where the questions' parses are kept too
        # Pairs sent to the workers and not collected yet: (the piece's future, its task, the
        # pair's place in it, whether its issues were asked for).
        self._ahead: Dict[Pair, Tuple["Future[Written]", Task, int, bool]] = {}
        # How many prefetched batches still want each pair: a question's gold rows can fall in two
        # chunks, and the second must find its statement ahead, not be sent behind the queue.
        self._wanted: Counter = Counter()

    def __repr__(self) -> str:
        return str(self.identity)

    @property
    def identity(self) -> StatementIdentity:
        return rules_identity()

    @property
    def in_flight(self) -> int:
        """Pairs sent to the workers whose statements were not collected yet."""
        return len(self._ahead)

    def prefetch(self, pairs: Sequence[Pair], with_issues: bool = False) -> None:
        """Start making the statements of ``pairs`` in the workers (nothing without workers)."""
        if self.workers is None:
            return
        self._wanted.update(set(pairs))
        new = sorted(set(pairs).difference(self._ahead))
        known = self.cache.get(new) if self.cache is not None and new else {}
        for piece in pieces(new, self.workers.count):
            task = [(question, answer, known.get((question, answer))) for question, answer in piece]
            future = self.workers.submit(task, with_issues, self.cache_dir)
            for place, pair in enumerate(piece):
                self._ahead[pair] = (future, task, place, with_issues)

    def write(self, pairs: Sequence[Pair]) -> List[str]:
        return self.write_checked(pairs)[0]

    def write_checked(self, pairs: Sequence[Pair],
                      with_issues: bool = False) -> Tuple[List[str], Optional[List[List[str]]]]:
        """(the statements of ``pairs``, their ``statement_issues`` codes where the workers
        checked every pair, else None: the caller checks what it needs itself)."""
        if self.workers is None:
            return self._write_here(pairs), None
        self.prefetch([pair for pair in pairs if pair not in self._ahead], with_issues)
        results: Dict["Future[Written]", Written] = {}  # by the future itself: an id could be reused
        found: Dict[Pair, Tuple[str, Optional[List[str]]]] = {}
        fresh = {}
        for pair in dict.fromkeys(pairs):
            future, task, place, checked = self._ahead[pair]
            self._wanted[pair] -= 1
            if self._wanted[pair] <= 0:
                del self._ahead[pair], self._wanted[pair]
            if future not in results:
                results[future] = self.workers.collect(future, task, checked, self.cache_dir)
            written = results[future]
            found[pair] = (written.statements[place], written.issues[place] if written.issues is not None else None)
            if task[place][2] is None:
                fresh[pair] = written.statements[place]
        if self.cache is not None:
            self.cache.put(fresh)
        statements, issues = [found[pair][0] for pair in pairs], [found[pair][1] for pair in pairs]
        return statements, (issues if with_issues and None not in issues else None)

    def _write_here(self, pairs: Sequence[Pair]) -> List[str]:
        known = self.cache.get(pairs) if self.cache is not None else {}
        todo = [pair for pair in pairs if pair not in known]
        written = dict(zip(todo, with_question_parses(self.cache_dir, [question for question, _ in todo],
                                                      lambda: write_rule_statements(todo))))
        if self.cache is not None:
            self.cache.put(written)
        return [known[pair] if pair in known else written[pair] for pair in pairs]

    def guard(self, pair: Pair, statement: str) -> Optional[str]:
        return None  # the rules are the fallback itself

    def usage(self) -> Dict[str, int]:
        return {}

    def close(self) -> None:
        if self.workers is not None:
            self.workers.close()
        if self.cache is not None:
            self.cache.close()


def write_rule_statements(pairs: Sequence[Pair]) -> List[str]:
    """The rules' statement of each (question, answer) pair."""
    if not pairs:
        return []
    return rule_statements([question for question, _ in pairs], [answer for _, answer in pairs])


def build_rule_engine(request: EngineRequest) -> RuleEngine:
    workers = request.settings.get(WORKERS_OPTION)
    if workers is None:
        workers = default_statement_workers(nli_on_gpu(request.device), processes_on_node=processes_on_node())
    return RuleEngine(workers, request.cache_dir)


def nli_on_gpu(device: str) -> bool:
    """Whether the metric's ``device`` puts the NLI model on a GPU (CUDA or Apple's MPS)."""
    # Deferred: torch is heavy, imported on first use (the device is resolved as the NLI model's).
    from capqa.loading.devices import resolve_device

    return resolve_device(device).type != "cpu"


def processes_on_node() -> int:
    """The scoring processes on this node: a distributed job's LOCAL_WORLD_SIZE, else 1."""
    text = os.environ.get("LOCAL_WORLD_SIZE", "").strip()
    return int(text) if text.isdigit() and int(text) > 0 else 1


SPEC = EngineSpec(
    RULES_ENGINE, build_rule_engine, "the rule-based converter (capqa.statements.rules; docs/rules.md)",
    needs="nothing (spaCy's small English parser, installed with cap-eval)", cost="free, ~1 ms per statement on CPU",
    determinism="exact: the same statement on every machine", identity="`rules(version=...,parser=...)`: "
    "RULES_VERSION and the parser's version", options=(WORKERS_OPTION,))
