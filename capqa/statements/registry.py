"""Statement engines by name (as spaCy registers its components): each built-in engine's module
declares its ``EngineSpec`` (``SPEC``), and ``register_engine`` adds another. ``build_scorer``,
the CLI's ``--statement-engine``, the Space's ``CAP_STATEMENT_ENGINE`` and the harness options
all resolve the engine here; a new engine is one module and one registration.
"""

from typing import Dict, Optional, Tuple

from capqa.common.constants import RULES
from capqa.statements import openai_engine, rules_engine, seq2seq
from capqa.statements.engine_spec import Engine, EngineRequest, EngineSpec

ENGINES: Dict[str, EngineSpec] = {spec.name: spec for spec in (rules_engine.SPEC, seq2seq.SPEC, openai_engine.SPEC)}


def register_engine(spec: EngineSpec) -> None:
    """Add an engine under ``spec.name`` (a built-in name may not be taken)."""
    if spec.name in (rules_engine.SPEC.name, seq2seq.SPEC.name, openai_engine.SPEC.name):
        raise ValueError(f"{spec.name!r} is a built-in statement engine; register yours under another name")
    ENGINES[spec.name] = spec


def engine_names() -> Tuple[str, ...]:
    return tuple(ENGINES)


def engine_options() -> Tuple[str, ...]:
    """Every option some engine reads for itself (refused for the others)."""
    return tuple(dict.fromkeys(name for spec in ENGINES.values() for name in spec.options))


def resolve_engine_name(engine: Optional[str], model: Optional[str]) -> str:
    """The engine a pair of options names: ``engine`` when given; otherwise ``model="rules"``
    (or no model) is the rule converter and any other model a seq2seq folder or Hub id."""
    if engine is not None:
        if engine not in ENGINES:
            raise ValueError(f"`statement_engine` must be one of {', '.join(map(repr, ENGINES))}, got {engine!r}")
        return engine
    return RULES if model in (None, RULES) else seq2seq.SEQ2SEQ_ENGINE


def build_engine(name: str, request: EngineRequest) -> Engine:
    """The engine registered as ``name``, built from ``request``."""
    spec = ENGINES[resolve_engine_name(name, request.model)]
    return spec.build(request)


def engines_markdown_table() -> str:
    """docs/statements.md's table of the registered engines, from their registrations."""
    lines = ["| engine | what it is | needs | cost | determinism | the hashcode records |", "|---|---|---|---|---|---|"]
    for spec in ENGINES.values():
        lines.append(f"| `{spec.name}` | {spec.summary} | {spec.needs} | {spec.cost} | {spec.determinism} | "
                     f"{spec.identity} |")
    return "\n".join(lines)
