"""The check on the rule converter's own statements for shapes of benchmarks nobody tuned on (issue 31,
branch checkrecall: DROP, GSM8K-style worked answers, MedQA, NarrativeQA, ELI5, inference and plausibility
prompts): the converter's statement as it is today, and the code the check gives it, or none for a sound one.
Each code is a general property of the statement read again, not of the path that made it."""

import pytest

from capqa.statements.check import statement_issues
from capqa.statements.rules import rule_statement

# (question, answer, the converter's statement, a code it must get)
FLAGGED = [
    # an equation that opens the answer's clause, pasted after the frame's verb or copula
    ("A train travels 60 miles per hour for 3 hours. How far does it go?", "Distance = speed × time = 60 × 3 = 180 "
     "miles.", "A train travels 60 miles per hour for 3 hours. A train goes Distance = speed × time = 60 × 3 = 180 "
     "miles.", "formula_in_frame"),
    ("Anna buys 4 pens at $2 each and a notebook for $5. How much does she spend?",
     "4 x $2 = $8 for pens, plus $5 = $13 in total.",
     "Anna buys 4 pens at $2 each and a notebook for $5. Anna spends 4 x $2 = $8 for pens, plus $5 = $13 in total.",
     "formula_in_frame"),
    ("If 3x - 7 = 11, what is the value of x?", "3x = 18, x = 6", "If 3x - 7 = 11, the value of x is 3x = 18, x = 6.",
     "formula_in_frame"),
    ("What is the area of a circle with radius 3?", "A = πr² = 9π ≈ 28.27",
     "The area of a circle with radius 3 is a = πr² = 9π ≈ 28.27.", "formula_in_frame"),
    # a sentence quoted for its plausibility asserted as a fact; a quoted sentence left out
    ("Is the following sentence plausible? \"Lionel Messi scored a touchdown in the Super Bowl.\"",
     "No. Messi is a soccer player, and touchdowns are scored in American football. So the answer is no.",
     "No. Messi is a soccer player, and touchdowns are scored in American football. Lionel Messi did not score a "
     "touchdown in the Super Bowl.", "quote_asserted"),
    ("Is the following statement sarcastic? \"Oh great, another Monday.\"", "Yes",
     "The following statement is sarcastic.", "quote_asserted"),
    # a clause where the frame's "through" wants its object
    ("How does the story end?", "the hero returns home", "The story ends through the hero returns home.",
     "slot_mismatch"),
    # a subject pronoun after a fronted phrase that names no one
    ("What did Tom do in 1983?", "In 1983, he released his second album.", "In 1983, he released his second album.",
     "pronoun_start"),
]

# (question, answer, the converter's statement): sound, and clean
CLEAN = [
    # a worked answer's supposition is a premise, no instruction
    ("A number doubled plus 3 is 11. What is the number?", "Let x be the number. Then 2x + 3 = 11, so x = 4. "
     "The answer is 4.", "A number doubled plus 3 is 11. Let x be the number. Then 2x + 3 = 11, so x = 4. The number "
     "is 4."),
    # a choice between two answered in the question's frame
    ("Which happened first, the siege of Vienna or the battle of Mohacs?", "the battle of Mohacs",
     "The battle of Mohacs happened before the siege of Vienna."),
    # a reason clause after "because", a noun phrase after "because of"
    ("Why does Jane leave Thornfield?", "because she learns Rochester is already married",
     "Jane leaves Thornfield because she learns Rochester is already married."),
    ("Why do leaves change color in autumn?", "the breakdown of chlorophyll",
     "Leaves change color in autumn because of the breakdown of chlorophyll."),
    # a quoted sentence kept in its quotation marks
    ("Does the sentence \"The keys to the cabinet is on the table\" contain a grammatical error?",
     "Yes, it should be \"are\" because the subject is \"keys\".",
     "The sentence \"The keys to the cabinet is on the table\" contains a grammatical error. It should be \"are\" "
     "because the subject is \"keys\"."),
    # an inference's hypothesis stated under the premise's verb
    ("Premise: A man is playing a guitar on stage. Hypothesis: A man is performing music. Does the premise entail "
     "the hypothesis?", "yes", "Premise: A man is playing a guitar on stage. The premise entails that a man is "
     "performing music."),
]


# (question, answer, a sound statement): false alarms of the check seen on other branches' rows, each mended
# at its cause
SOUND = [
    # a quoted text of two sentences is one constituent of its sentence, no fragment
    ("Is this comment sarcastic? \"Oh great, another Monday. Just what I needed.\"", "yes",
     "The comment \"Oh great, another Monday. Just what I needed.\" is sarcastic."),
    # "Rs." is an abbreviation: "Rs. 300" no sentence of its own
    ("A man buys an article for Rs. 240 and spends Rs. 60 on repairs. What is its cost price?", "Rs. 300",
     "The cost price of the article is Rs. 300."),
    # a lone "_" of the answer's code is a name, no blank
    ("Write a function to repeat a string n times.", "def repeat(s, n):\n    return \"\".join(s for _ in range(n))",
     "A function to repeat a string n times is: def repeat(s, n): return \"\".join(s for _ in range(n))."),
    # the lines of an answer that is code as a whole are kept as code, one run
    ("How many singers do we have?", "SELECT count(*)\nFROM singer",
     "The SQL query that finds the number of singers is SELECT count(*) FROM singer."),
    # a capital "A" inside a sentence names, no article before a verb
    ("Which town had fewer bees, Town A or Town B?", "Town A", "Town A had fewer bees."),
]


@pytest.mark.parametrize("question, answer, statement, code", FLAGGED)
def test_the_converters_bad_statement_is_flagged(question, answer, statement, code):
    # the statement as the converter made it when the check was written: the check reads the statement
    # it is given, so a later fix of the converter leaves this test about the check
    assert code in statement_issues(question, answer, statement)


@pytest.mark.parametrize("question, answer, statement", SOUND)
def test_a_sound_statement_of_another_shape_is_clean(question, answer, statement):
    assert statement_issues(question, answer, statement) == []


@pytest.mark.parametrize("question, answer, statement", CLEAN)
def test_the_converters_sound_statement_is_clean(question, answer, statement):
    assert rule_statement(question, answer) == statement
    assert statement_issues(question, answer, statement) == []
