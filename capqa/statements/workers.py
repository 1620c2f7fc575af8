"""Rule statements made in other processes, ahead of the NLI model (``statement_workers``).

The rule converter is CPU work (spaCy's parse is most of it); the NLI model is a GPU's. In one
thread the GPU waits while the statements are written and the CPU waits while the GPU scores.
``StatementWorkers`` is a pool of processes, each with its own parser, that a caller feeds ahead
of time (``RuleEngine.prefetch``: the chunks after the one being scored) and collects from when
the statements are needed. A worker returns strings (and, when asked, each statement's
``statement_issues`` codes), never parsed documents: shipping a spaCy ``Doc`` back costs more
than parsing it (which is also why spaCy's own ``n_process`` is slower here than one process).

Work goes out in pieces of whole questions (the pairs sorted, so one question's answers are in
one piece and its parse is made once). A statement depends only on its pair, so the statements
are the same whatever the number of workers, the pieces or their order
(``tests/statements/test_workers.py``).

Processes are started with ``spawn``: a forked child of a process whose torch or OpenBLAS already
runs threads can deadlock on their locks. A spawned child normally re-runs the parent's main
script first; a worker needs nothing from it (its functions are capqa's), so it is started
without it (``main_script_hidden``). A user's script without an ``if __name__ == "__main__":``
guard is therefore not run again in every worker (loading its models, writing its files), and a
script read from stdin gets its workers too.
"""

import contextlib
import logging
import math
import multiprocessing
import os
import sys
import weakref
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Iterator, List, NamedTuple, Optional, Sequence, Tuple

from capqa.statements.check import statements_issues
from capqa.statements.engine_spec import Pair
from capqa.statements.question_parses import with_question_parses
from capqa.statements.rules import rule_statements
from capqa.statements.rules.parser import pipeline

logger = logging.getLogger(__name__)

# A piece of work: (question, answer, its statement when already known, e.g. from the cache).
Task = Sequence[Tuple[str, str, Optional[str]]]
# More workers than this rarely pay on one GPU: at about 1,000 statements per CPU-second each,
# eight make statements for 4,000 rows a second, faster than one GPU's NLI model scores them.
MAX_AUTO_WORKERS = 8


class Written(NamedTuple):
    """A piece's statements, in order, and their ``statement_issues`` codes when asked for."""

    statements: List[str]
    issues: Optional[List[List[str]]]


def available_cores() -> int:
    """The cores this process may run on (its affinity, which a batch scheduler narrows)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS and Windows have no affinity call
        return os.cpu_count() or 1


def default_statement_workers(nli_on_gpu: bool, cores: Optional[int] = None, processes_on_node: int = 1) -> int:
    """``statement_workers`` when none is given: none beside an NLI model on the CPU (it uses every
    core itself, and workers would take cores from it), else the cores this process's share of the
    node leaves beside itself, at most ``MAX_AUTO_WORKERS``.

    processes_on_node: scoring processes sharing the node's cores (a distributed job's
    LOCAL_WORLD_SIZE).
    """
    if not nli_on_gpu:
        return 0
    share = (available_cores() if cores is None else cores) // max(1, processes_on_node)
    return max(0, min(MAX_AUTO_WORKERS, share - 1))


def write_piece(task: Task, with_issues: bool, cache_dir: Optional[str] = None) -> Written:
    """In a worker: the statements of ``task`` (made where not known, with the questions' parses
    kept in ``cache_dir``) and, if asked, their issues."""
    todo = [(question, answer) for question, answer, known in task if known is None]
    questions = [question for question, _ in todo]
    made = iter(with_question_parses(cache_dir, questions, lambda: rule_statements(questions,
                                                                                   [answer for _, answer in todo]))
                if todo else ())
    statements = [known if known is not None else next(made) for _, _, known in task]
    issues = None
    if with_issues:
        issues = statements_issues([question for question, _, _ in task], [answer for _, answer, _ in task],
                                   statements)
    return Written(statements, issues)


def load_parser_in_worker() -> None:
    """A worker's start: load the parser now, so that the first piece does not pay for it."""
    pipeline()


def pieces(pairs: Sequence[Pair], count: int) -> List[List[Pair]]:
    """``pairs`` (sorted: one question's pairs side by side) in at most ``count`` pieces of about
    equal size, each cut between two questions, never inside one."""
    if not pairs:
        return []
    size = math.ceil(len(pairs) / max(1, count))
    out: List[List[Pair]] = [[]]
    for pair in pairs:
        if len(out[-1]) >= size and pair[0] != out[-1][-1][0]:
            out.append([])
        out[-1].append(pair)
    return out


@contextlib.contextmanager
def main_script_hidden() -> Iterator[None]:
    """Processes spawned inside do not import the parent's ``__main__``: multiprocessing's spawn
    re-imports it from ``__main__.__spec__`` or ``__main__.__file__``, which are hidden for the
    moment the children are started and put back after."""
    main = sys.modules.get("__main__")
    if main is None:
        yield
        return
    saved = {name: main.__dict__[name] for name in ("__spec__", "__file__") if name in main.__dict__}
    main.__spec__ = None
    main.__dict__.pop("__file__", None)
    try:
        yield
    finally:
        main.__dict__.pop("__spec__", None)
        main.__dict__.update(saved)


class StatementWorkers:
    """``count`` worker processes writing rule statements; started on first use, stopped by
    ``close`` or when the pool is garbage-collected (and at exit)."""

    def __init__(self, count: int) -> None:
        self.count = count
        self._pool: Optional[ProcessPoolExecutor] = None
        self._closer = None
        self.broken = False  # a worker died: what is left is made in this process

    def __repr__(self) -> str:
        return f"StatementWorkers({self.count})"

    def submit(self, task: Task, with_issues: bool, cache_dir: Optional[str] = None) -> "Future[Written]":
        """Send one piece to the pool (``write_piece``'s arguments); its result is a ``Written``."""
        if self._pool is None:
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(self.count, mp_context=context, initializer=load_parser_in_worker)
            self._closer = weakref.finalize(self, self._pool.shutdown, wait=False, cancel_futures=True)
            logger.info("statement workers: %d process(es) make the rule statements ahead of the NLI model",
                        self.count)
        if not self.broken:
            try:
                with main_script_hidden():  # submit starts the processes it needs (spawn starts them on demand)
                    return self._pool.submit(write_piece, list(task), with_issues, cache_dir)
            except BrokenProcessPool:
                pass
        future: "Future[Written]" = Future()  # made here by ``collect``
        future.set_exception(BrokenProcessPool("the statement workers' pool is broken"))
        return future

    def collect(self, future: "Future[Written]", task: Task, with_issues: bool,
                cache_dir: Optional[str] = None) -> Written:
        """A piece's result. A pool that broke (a worker killed or out of memory) costs time, not
        the job: what is left is made in this process, with the same statements, said once."""
        try:
            return future.result()
        except BrokenProcessPool as error:
            if not self.broken:
                self.broken = True
                logger.warning("the statement workers stopped (%s); the statements are made in this process instead",
                               error)
            return write_piece(task, with_issues, cache_dir)

    def pids(self) -> List[int]:
        """The process ids of the workers running now (none before the first piece)."""
        # concurrent.futures keeps its processes by pid; it has no public accessor.
        return [] if self._pool is None else list(getattr(self._pool, "_processes", None) or {})

    def close(self) -> None:
        if self._closer is not None:
            self._closer()
        self._pool = self._closer = None
