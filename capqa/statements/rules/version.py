"""The rule converter's identity, as the hashcode records it when rule statements ran.

``RULES_VERSION`` is bumped whenever a change to ``capqa.statements.rules`` can change a statement
(a new shape, another cleaning step, another inflection), so that two results agree on their
statements exactly when their hashcodes agree on this version. ``engine_identity()`` adds what
else decides the statements: the parser and its model, when the converter uses one.
"""

from typing import Dict

RULES_VERSION = "1"


def engine_identity() -> Dict[str, str]:
    """{"version": RULES_VERSION, "parser": ...}: "none" while the converter uses no parser."""
    return {"version": RULES_VERSION, "parser": "none"}
