"""The ``rules`` statement engine: the offline rule-based converter (``capqa.statements.rules``)."""

from typing import Dict, List, Optional, Sequence

from capqa.common.constants import RULES
from capqa.records.identity import StatementIdentity
from capqa.statements.engine_spec import EngineRequest, EngineSpec, Pair
from capqa.statements.rules import rule_statements
from capqa.statements.rules.version import rules_identity

RULES_ENGINE = RULES


class RuleEngine:
    """Statements from the rule converter: no model, no cost, the same output everywhere."""

    name = RULES_ENGINE

    def __repr__(self) -> str:
        return str(self.identity)

    @property
    def identity(self) -> StatementIdentity:
        return rules_identity()

    def write(self, pairs: Sequence[Pair]) -> List[str]:
        return write_rule_statements(pairs)

    def guard(self, pair: Pair, statement: str) -> Optional[str]:
        return None  # the rules are the fallback itself

    def usage(self) -> Dict[str, int]:
        return {}


def write_rule_statements(pairs: Sequence[Pair]) -> List[str]:
    """The rules' statement of each (question, answer) pair."""
    if not pairs:
        return []
    return rule_statements([question for question, _ in pairs], [answer for _, answer in pairs])


def build_rule_engine(request: EngineRequest) -> RuleEngine:
    return RuleEngine()


SPEC = EngineSpec(
    RULES_ENGINE, build_rule_engine, "the rule-based converter (capqa.statements.rules; docs/rules.md)",
    needs="nothing (spaCy's small English parser, installed with cap-eval)", cost="free, ~1 ms per statement on CPU",
    determinism="exact: the same statement on every machine", identity="`rules(version=...,parser=...)`: "
    "RULES_VERSION and the parser's version")
