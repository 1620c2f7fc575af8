"""The rule converter's identity: its version and the parser it runs on.

``RULES_VERSION`` changes whenever the converter's statements may change (a new rule, a fixed
one); ``engine_identity()`` is what the scorer's identity records when rule statements ran.
"""

from typing import Dict

# 1: the regular-expression converter; 2: questions and answers analysed with spaCy's parse;
# 3: sentences to complete read from the joined parse of stem and answer (exam questions);
# 4: a search query parsed as the question it stands for (queries.py), answers' ordinary words
# not title-cased.
RULES_VERSION = "4"


def engine_identity() -> Dict[str, str]:
    """{"version", "parser", "spacy", "lemminflect"}: what produced the rule statements (loads
    the parser: identity is taken from what actually runs)."""
    import importlib.metadata

    from capqa.statements.rules.parser import parser_identity

    return {"version": RULES_VERSION, **parser_identity(),
            "lemminflect": importlib.metadata.version("lemminflect")}
