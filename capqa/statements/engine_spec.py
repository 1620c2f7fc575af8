"""What a statement engine is, for the registry (``capqa.statements.registry``) and the wrapper
that runs every engine (``capqa.statements.generator.StatementGenerator``).

An engine writes one statement per unique (question, answer) pair (``write``) and says what it
is (``identity``, the scorer's record of what made the statements). It knows nothing of the
fallback to rules: the wrapper replaces what ``guard`` refuses by the rules' statement and
records, per pair, which engine wrote it. ``EngineSpec`` is an engine's registration: its name,
how it is built from the metric's options (``EngineRequest``), which options it reads, and what
the docs' table of engines says about it.
"""

from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Mapping, Optional, Protocol, Sequence, Tuple

from capqa.records.identity import StatementIdentity

Pair = Tuple[str, str]


class Engine(Protocol):
    """A statement engine: ``name`` (its registered name), ``identity`` and ``write``."""

    name: str

    @property
    def identity(self) -> StatementIdentity:
        """What makes its statements, as loaded (the hashcode's ``statements`` field)."""

    def write(self, pairs: Sequence[Pair]) -> List[str]:
        """One statement per (question, answer) pair, in order (pairs come de-duplicated)."""

    def guard(self, pair: Pair, statement: str) -> Optional[str]:
        """Why ``statement`` must not be used (the rules' statement stands in), or None."""

    def usage(self) -> Dict[str, int]:
        """What the engine spent so far (calls, tokens); {} for an engine that costs nothing."""


@dataclass(frozen=True)
class EngineRequest:
    """What an engine is built from: the statement model and the shared settings of the metric,
    and ``settings``, the engine's own options by name (``EngineSpec.options``)."""

    model: Optional[str] = None
    revision: Optional[str] = None
    device: str = "auto"
    batch_size: int = 32
    precision: str = "auto"
    lazy: bool = False
    show_progress: Optional[bool] = None
    load: Any = None  # capqa.loading.pretrained.LoadArguments (None: the defaults)
    cache_dir: Optional[str] = None  # where an engine that costs something keeps what it wrote
    settings: Mapping[str, Any] = field(default_factory=dict)
    generation: Mapping[str, int] = field(default_factory=dict)  # num_beams, max_*_tokens of a local model


@dataclass(frozen=True)
class EngineSpec:
    """A statement engine's registration.

    build: ``EngineRequest`` -> the engine. options: the metric options only it reads (given to
    another engine they are refused). needs_question: whether it reads the question (all built-in
    ones do). needs, cost, determinism, identity: the docs' table of engines, in words.
    """

    name: str
    build: Callable[[EngineRequest], Engine]
    summary: str
    needs: str
    cost: str
    determinism: str
    identity: str
    options: Tuple[str, ...] = ()
    needs_question: bool = True
    takes_model: bool = False  # `statement_model` names its model (a folder, a Hub id, a served name)
