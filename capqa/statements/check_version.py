"""The statement check's identity: ``CHECK_VERSION``.

``statement_issues`` decides more than a column of issue codes: an LLM engine's guard refuses
the statements it flags (their pairs get the rule converter's statement instead), and every
detailed result reports the codes. So the version moves whenever the codes of any statement
may change, and ``StatementGenerator.identity`` records it in the hashcode for every engine.
``tests/statements/test_check_version.py`` holds it to a golden record of the codes.
"""

# 1: the check as of rules version 10 (issue 31): the strings and the re-parse of the statement
# (``check``, ``check_content``, ``check_grammar``), measured against the statement corpus's
# read judgements.
CHECK_VERSION = "1"
