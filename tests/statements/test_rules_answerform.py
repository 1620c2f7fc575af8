"""Answer formatting and the function words around the answer (branch answerform): markdown tables
and lists as coordinated phrases in the question's frame, code untouched by markup stripping, the
wh-word as subject kept active with the answer's article, doubled words at the joins; and the
check's codes for what stays bad in these families. Made-up rows showing each mechanism."""

import pytest

from capqa.statements.check import statement_issues
from capqa.statements.rules import rule_statement
from capqa.statements.rules.morphology import is_count_noun

CASES = [
    # a table that is the whole answer: its rows, yes-cells dropped, no-rows left out, other cells in brackets
    ("Which planets have rings?", "| Planet | Rings |\n|---|---|\n| Saturn | yes |\n| Jupiter | faint |",
     "Saturn and Jupiter (faint) have rings."),
    ("Which fruits have pits?", "| Fruit | Pit |\n|:--|:--:|\n| peach | ✓ |\n| grape | no |\n| plum | ✓ |",
     "Peach and plum have pits."),
    ("Which gases are noble?", "| Gas | Symbol |\n|---|---|\n| Helium | He |\n| Argon | Ar |",
     "Helium (He) and Argon (Ar) are noble."),
    # a worked table's total row is the answer
    ("How much did Ana pay for the books?", "| book | price |\n|---|---|\n| atlas | $12 |\n| **total** | **$20** |",
     "Ana paid $20 for the books."),
    # a table beside prose is dropped, the colon that introduced it ends the sentence
    ("What is 6 in binary?", "6 in binary is `110`:\n\n| bit | 4 | 2 | 1 |\n|---|---|---|---|\n| 6 | 1 | 1 | 0 |",
     "6 in binary is 110."),
    # an opening that restates the question before a colon and a list
    ("what birds migrate in autumn", "Many birds migrate:\n- swallows\n- storks\n- geese",
     "The birds that migrate in autumn include swallows, storks and geese."),
    ("What coasts border Chile?", "Chile is bordered by:\n- the Pacific Ocean\n- the Drake Passage",
     "Chile is bordered by the Pacific Ocean and the Drake Passage."),
    # the wh-word as subject: active voice, the answer its subject with the article it needs
    ("What measures temperature?", "thermometer", "A thermometer measures temperature."),
    ("What measures rainfall?", "rain gauge", "The rain gauge measures rainfall."),
    ("What guards the heart?", "skull", "The skull guards the heart."),
    ("What sweetens the tea?", "honey", "Honey sweetens the tea."),
    ("What breaks down proteins in the gut?", "enzymes", "Enzymes break down proteins in the gut."),
    ("What can pass through a wall of lead?", "nothing", "Nothing can pass through a wall of lead."),
    ("where do pearls form", "oyster", "Pearls form in the oyster."),
    ("What device is used to drive nails?", "hammer", "The device used to drive nails is a hammer."),
    ("What is the everyday name of the patella?", "kneecap", "The everyday name of the patella is kneecap."),
    # a heavy answer (an apposition) keeps the passive, with the answer last
    ("What carries signals in the body?", "nerves, which run through the spine",
     "Signals in the body are carried by nerves, which run through the spine."),
    # function words said twice at a join
    ("Why did the lamp go out?", "because because the bulb burned out", "The lamp went out because the bulb burned out."),
    ("Why do cats purr?", "so therefore they feel calm", "Cats purr because they feel calm."),
    # code: dunder names are no blanks, the question's backticks go, an identifier keeps its case
    ("What does the `__len__` method do?", "It returns the length.", "The __len__ method returns the length."),
]


@pytest.mark.parametrize("question, answer, expected", CASES)
def test_answer_forms(question, answer, expected):
    assert rule_statement(question, answer) == expected


def test_doubled_word_before_a_title_is_kept():
    # a lower-case query's "in" before a title's own "In": no doubled join
    assert rule_statement("who starred in In Bruges", "Colin Farrell") == "Colin Farrell starred in In Bruges."


def test_quoted_and_code_text_is_never_collapsed():
    statement = rule_statement("What did the sign say?", 'It said "the the end".')
    assert '"the the end"' in statement


def test_count_nouns_are_read_conservatively():
    assert is_count_noun("thermometer") and is_count_noun("magnet")
    for word in ("yeast", "honey", "gravity", "water", "nothing", "Paris", "len", "x_1"):
        assert not is_count_noun(word)


@pytest.mark.parametrize("question, answer, statement, code", [
    ("Which planets have rings?", "x", "Planets with rings: - Saturn - Jupiter.", "markup_left"),
    ("Which planets have rings?", "x", "The planets are: 1. Saturn 2. Jupiter.", "markup_left"),
    ("What measures temperature?", "thermometer", "Thermometer measures temperature.", "determiner_missing"),
    ("What measures temperature?", "thermometer", "Temperature is measured by thermometer.", "determiner_missing"),
    ("Why did it fail?", "because because it was old", "It failed because because it was old.", "doubled_word"),
    ("How many dollars did Lee spend?", "$12", "Lee spent $12 dollars.", "doubled_word"),
    ("Why do leaves fall?", "the tree dries out", "Leaves fall because of the tree dries out.", "answer_in_frame"),
    ("Which team scored more goals, the Reds or the Blues?", "The Reds scored more.", "The Reds scored more.",
     "frame_lost"),
])
def test_check_flags_what_stays_bad(question, answer, statement, code):
    assert code in statement_issues(question, answer, statement)


@pytest.mark.parametrize("question, answer, statement", [
    ("What measures temperature?", "thermometer", "A thermometer measures temperature."),
    ("What does **kwargs mean?", "`**kwargs` collects keyword arguments.", "**kwargs collects keyword arguments."),
    ("What does the `__init__` method do?", "It sets up the object.", "The __init__ method sets up the object."),
    ("Which planets have rings?", "x", "Saturn and Jupiter (faint) have rings."),
    ("What is the profession they share?", "writer", "The profession they share is writer."),
    ("Why did it fail?", "the rain", "It failed because of the rain that fell."),
])
def test_check_no_false_alarm(question, answer, statement):
    codes = statement_issues(question, answer, statement)
    assert not {"markup_left", "determiner_missing", "doubled_word", "blank_left", "frame_lost", "answer_in_frame"} & set(
        codes)
