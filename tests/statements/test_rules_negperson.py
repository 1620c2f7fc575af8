"""Negative answers, premise denials, the answer's person and its pronoun's topic (issue 31), and
the check's codes for what stays bad there. Made-up rows that show each mechanism."""

import pytest

from capqa.statements.check import statement_issues
from capqa.statements.rules import rule_statement

CONVERTED = [
    # a negative answer negates the wh-phrase: its count goes, a partitive keeps it
    ("Which four rivers flow through Iceland's capital?", "none, Reykjavik has no large river",
     "No rivers flow through Iceland's capital. Reykjavik has no large river."),
    ("Which of the three candidates won the vote?", "Neither.", "Neither of the three candidates won the vote."),
    ("What is the national bird of Atlantis?", "There isn't one; Atlantis is a legend.",
     "There is no national bird of Atlantis. Atlantis is a legend."),
    ("Which moons orbit Mercury?", "There are none.", "No moons orbit Mercury."),
    ("Who has photographed the far side of Pluto?", "no one has photographed it yet",
     "No one has photographed the far side of Pluto yet."),
    ("How many titles did the club win in 1950?", "None, though it reached two finals.",
     "The club won no titles in 1950, though it reached two finals."),
    # a denial before its reason: the question's clause negated, the answer's modal kept
    ("How do you grow a pineapple in a week?", "You can't; a pineapple takes two years to grow.",
     "You cannot grow a pineapple in a week. A pineapple takes two years to grow."),
    ("What year did Greenland become a US state?", "It hasn't; Greenland belongs to Denmark.",
     "Greenland did not become a US state. Greenland belongs to Denmark."),
    ("When did Darwin sail to Iceland?", "That never happened. Darwin sailed on the Beagle to South America.",
     "Darwin did not sail to Iceland. Darwin sailed on the Beagle to South America."),
    ("Why did Columbus land in Florida?", "Actually, Columbus never reached Florida.",
     "Columbus never reached Florida."),
    ("when did the city ban cars?", "it hasn't officially", "The city did not ban cars officially."),
    ("How does a stone swim?", "It doesn't swim, stones sink.", "A stone does not swim. Stones sink."),
    ("How many times has Peru hosted the Winter Olympics?", "Never.", "Peru has never hosted the Winter Olympics."),
    ("Who wrote \"The Quiet Orchard\"?", "It's by Ann Vole.", "Ann Vole wrote \"The Quiet Orchard\"."),
    # the system's "you" is the answer's "I"
    ("Do you dream at night?", "No, I am a program and I do not sleep.", "I do not dream at night. I am a program and "
                                                                           "I do not sleep."),
    ("Are you a person?", "No, I'm software.", "I am not a person. I'm software."),
    # an answer's pronoun of the question's quoted topic, not the wh-subject
    ('Who said "Veni, vidi, vici"?', "It's from Plutarch's life of Caesar.",
     '"Veni, vidi, vici" is from Plutarch\'s life of Caesar.'),
    # a pronoun of the question's condition stays after it
    ("What happens when you mix oil and water?", "They separate into layers.",
     "When you mix oil and water, they separate into layers."),
]


@pytest.mark.parametrize("question,answer,expected", CONVERTED)
def test_negative_denied_and_person_statements(question, answer, expected):
    assert rule_statement(question, answer) == expected


def test_a_generic_you_stays_where_the_answer_only_advises():
    assert rule_statement("Should you stretch before running?", "Yes. I would recommend it.").startswith("You ")


def test_the_questioners_quoted_words_keep_their_person():
    assert "therefore I dream" in rule_statement("Who wrote 'I dream, therefore I dream'?", "Jane Roe")


def test_a_denial_that_goes_on_is_a_sentence_not_a_denial():
    assert "not clear" not in rule_statement("Why is it foggy?", "It isn't clear why it is foggy.")


FLAGGED = [
    ("negative_as_thing", "Which of the two dogs barked?", "Neither.", "A neither barked."),
    ("negative_as_thing", "When did Rome conquer Ireland?", "It didn't; Ireland was never Roman.",
     "Rome didn't; Ireland was never Roman."),
    ("person_not_swapped", "Do you have a body?", "No, I am a program.", "You do not have a body. I am a program."),
    ("fragment", 'Who wrote "Ode to a Fish"?', "It's from a 1902 almanac.", 'From a 1902 almanac wrote "Ode to a Fish".'),
]


@pytest.mark.parametrize("code,question,answer,statement", FLAGGED)
def test_the_check_flags_what_stays_bad(code, question, answer, statement):
    assert code in statement_issues(question, answer, statement)


SOUND = [
    ("Which of the two dogs barked?", "Neither.", "Neither of the two dogs barked."),
    ("Does Saturn have rings?", "Yes, but Mars does not.", "Saturn has rings, but Mars does not."),
    ("Do you have a body?", "No, I am a program.", "I do not have a body. I am a program."),
    ("Where do crabs live?", "Under the sea.", "Under the sea lives a crab."),
    ("How many moons does Venus have?", "not any", "Venus has no moons."),
    ("How many votes does it take to pass a bill?", "It takes 51 votes to pass a bill.",
     "It takes 51 votes to pass a bill."),
]


@pytest.mark.parametrize("question,answer,statement", SOUND)
def test_the_check_leaves_sound_statements_alone(question, answer, statement):
    assert statement_issues(question, answer, statement) == []
